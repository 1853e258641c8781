import { expect } from "chai";
import { whereCondition } from "../src/cypher/where.js";
import { whereBoundsOn, whereSeek } from "../src/cypher/where-seeks.js";
import { whereBoundProblem } from "../src/graphql/where-bounds.js";

/** The operands a test writes, none of which may reach the Cypher text (they are parameters). */
const OPERANDS = ["Platform", "d42", "EXECUTED", "0.875", "2025-03-31"];

const spliced = (text: string) => OPERANDS.filter((operand) => text.includes(operand));

describe("where compiled to Cypher, without a database (src/cypher/where.ts)", () => {
  it("renders nothing for an absent, null or empty where: the Cypher holds only the conditions given", () => {
    for (const where of [undefined, null, {}, { AND: [] }, { status: null }, { decidedBy: null }])
      expect(whereCondition("Decision", "d", where), JSON.stringify(where)).to.equal(undefined);
  });

  it("reads every operand from the parameter by its path; guards only the types whose comparison could fail", () => {
    const text = whereCondition("Decision", "d", {
      status: { eq: "EXECUTED" },
      regretScore: { gte: 0.875 },
      id: { in: ["d42"] },
      title: { startsWith: "Platform" },
    });
    expect(spliced(text ?? "")).to.deep.equal([]);
    expect(text).to.include("d.status = $where.`status.eq`");
    expect(text).to.include("d.regretScore >= $where.`regretScore.gte`");
    expect(text).to.include("d.id IN $where.`id.in`");
    expect(text).to.include("d.title STARTS WITH $where.`title.startsWith`");
    // Texts, enums and floats compare as they are (another type compares as null); a float must
    // also be one the wire writes (a CASE that only tests its type, no guard deciding in order).
    expect(text).not.to.include("ELSE false");
    expect(text).to.include(
      "(-1.7976931348623157e308 <= d.regretScore <= 1.7976931348623157e308 AND CASE WHEN d.regretScore IS :: FLOAT THEN true ELSE -9007199254740991 <= d.regretScore <= 9007199254740991 END AND d.regretScore >= $where.`regretScore.gte`)",
    );
    // An integer's or a date's comparison could fail on another type: CASE decides in order.
    const guarded = whereCondition("Decision", "d", { executionGapDays: { gt: 3 } }) ?? "";
    expect(guarded).to.match(/^CASE WHEN CASE WHEN d\.executionGapDays IS NOT NULL AND .* ELSE false END$/);
  });

  it("compares instants as epoch milliseconds and writes isNull as the presence test against the operand", () => {
    const text = whereCondition("Decision", "d", { decidedAt: { lt: "…", isNull: false } }) ?? "";
    expect(text).to.include("d.decidedAt.epochMillis < $where.`decidedAt.lt`");
    expect(text).to.match(/\) <> \$where\.`decidedAt\.isNull`/);
  });

  it("writes OR and NOT as one opaque test; NOT of NOT and a one-item OR are the condition itself", () => {
    const eq = { status: { eq: "EXECUTED" } };
    const bare = whereCondition("Decision", "d", eq);
    expect(whereCondition("Decision", "d", { OR: [eq, { id: { eq: "d42" } }] })).to.match(
      /^CASE WHEN \(.*\) OR \(.*\) THEN true ELSE false END$/,
    );
    expect(whereCondition("Decision", "d", { NOT: eq })).to.match(/^CASE WHEN .* THEN false ELSE true END$/);
    expect(whereCondition("Decision", "d", { NOT: { NOT: eq } })?.replace(/`NOT\.NOT\./g, "`")).to.equal(
      bare,
    );
    expect(whereCondition("Decision", "d", { OR: [eq] })?.replace(/`OR\.0\./g, "`")).to.equal(bare);
    // One condition that always holds makes an OR hold: no condition at all.
    expect(whereCondition("Decision", "d", { OR: [{}, eq] })).to.equal(undefined);
  });

  it("writes a where that never holds as a test of its parameter, not a literal false", () => {
    for (const where of [{ OR: [] }, { NOT: {} }, { NOT: { AND: [] } }])
      expect(whereCondition("Decision", "d", where, "$f3_where"), JSON.stringify(where)).to.equal(
        "$f3_where IS NULL",
      );
  });

  it("reads a single link's lowest-id target, and asks only that one exists for {}", () => {
    expect(whereCondition("Decision", "d", { decidedBy: {} })).to.equal(
      "EXISTS { MATCH (d)-[:DECIDED_BY]->(pdw1:Person) }",
    );
    const team = whereCondition("Decision", "d", { decidedBy: { team: { eq: "Platform" } } }) ?? "";
    expect(team).to.include("WITH pdw1 ORDER BY pdw1.id LIMIT 1 WITH pdw1 WHERE ");
    expect(team).to.include("pdw1.team = $where.`decidedBy.team.eq`");
  });

  it("tests some and none for existence, all as the absence of a failing target, count without collecting", () => {
    const eq = { status: { eq: "REVERSED" } };
    expect(whereCondition("Topic", "t", { decisions: { some: eq } })).to.match(
      /^EXISTS \{ MATCH \(t\)<-\[:ABOUT\]-\(dtw1:Decision\) WHERE .* \}$/,
    );
    expect(whereCondition("Topic", "t", { decisions: { none: eq } })).to.match(/^NOT EXISTS \{ MATCH /);
    // The failing target's test reads a missing value's null as failing: a CASE, never a bare NOT.
    expect(whereCondition("Topic", "t", { decisions: { all: eq } })).to.match(
      /^NOT EXISTS \{ MATCH .* WHERE CASE WHEN dtw1\.status = \$where\.`decisions\.all\.status\.eq` THEN false ELSE true END \}$/,
    );
    expect(whereCondition("Topic", "t", { decisions: { count: { gt: 10 } } })).to.equal(
      "COUNT { MATCH (t)<-[:ABOUT]-(dtw1:Decision) RETURN DISTINCT dtw1 } > $where.`decisions.count.gt`",
    );
    expect(whereCondition("Topic", "t", { decisions: {} })).to.equal(undefined);
    expect(whereCondition("Topic", "t", { decisions: { all: {} } })).to.equal(undefined);
    expect(whereCondition("Person", "p", { openCommitments: { some: {} } })).to.equal(
      "EXISTS { MATCH (p)-[:COMMITTED_TO]->(cpw1:Commitment {status: 'OPEN'}) }",
    );
  });

  it("puts three or more link tests of one conjunction into one opaque test after the plain comparisons, a top-level AND's among them", () => {
    const two = whereCondition("Topic", "t", {
      name: { eq: "Platform" },
      decisions: { count: { gt: 10 } },
      disagreements: { some: {} },
    });
    expect(two).to.equal(
      "(t.name = $where.`name.eq`) AND (COUNT { MATCH (t)<-[:ABOUT]-(dtw1:Decision) RETURN DISTINCT dtw1 } > $where.`decisions.count.gt`) " +
        "AND (EXISTS { MATCH (t)<-[:ABOUT]-(gtw2:Disagreement) })",
    );
    const several = whereCondition("Topic", "t", {
      decisions: { some: { status: { eq: "EXECUTED" } } },
      AND: [{ disagreements: { none: {} } }, { name: { startsWith: "P" } }, { disagreements: { some: {} } }],
      id: { in: ["d42"] },
    });
    expect(several).to.equal(
      "(t.name STARTS WITH $where.`AND.1.name.startsWith`) AND (t.id IN $where.`id.in`) AND " +
        "(EXISTS { WITH t WHERE CASE WHEN (EXISTS { MATCH (t)<-[:ABOUT]-(dtw1:Decision) WHERE dtw1.status = $where.`decisions.some.status.eq` }) " +
        "AND (NOT EXISTS { MATCH (t)<-[:ABOUT]-(gtw2:Disagreement) }) AND (EXISTS { MATCH (t)<-[:ABOUT]-(gtw3:Disagreement) }) THEN true ELSE false END })",
    );
    // Several forms of one link, likewise.
    expect(
      whereCondition("Topic", "t", {
        decisions: { count: { gt: 10 }, some: { status: { eq: "REVERSED" } }, none: {} },
      }),
    ).to.match(
      /^EXISTS \{ WITH t WHERE CASE WHEN \(COUNT \{ .* \} > .*\) AND \(EXISTS \{ .* \}\) AND \(NOT EXISTS \{ .* \}\) THEN true ELSE false END \}$/,
    );
    // Inside a link's test, the same rule.
    expect(
      whereCondition("Customer", "c", {
        requestedFeatures: {
          some: {
            owner: { team: { eq: "Platform" } },
            requestedBy: { count: { gt: 1 } },
            AND: [{ owner: {} }],
          },
        },
      }),
    ).to.match(
      /^EXISTS \{ MATCH .* WHERE EXISTS \{ WITH fcw1 WHERE CASE WHEN \(EXISTS \{ .* \}\) AND \(COUNT \{ .* \} > [^)]*\) AND \(EXISTS \{ .* \}\) THEN true ELSE false END \} \}$/,
    );
    // A condition that never holds decides the conjunction.
    expect(whereCondition("Topic", "t", { name: { eq: "Platform" }, OR: [] })).to.equal("$where IS NULL");
  });

  it("counts the link tests of top-level ANDs, one-item ORs and one link's forms as one conjunction's", () => {
    // Two link tests under a one-item OR's AND, one beside them, and one link's none and count:
    // five tests of one conjunction, as Neo4j's planner sees them.
    const text =
      whereCondition("Topic", "t", {
        OR: [
          {
            AND: [{ disagreements: { some: {}, none: { id: { eq: "d42" } } } }],
            disagreements: { none: {} },
          },
        ],
        decisions: { none: { status: { eq: "EXECUTED" } }, count: { lte: 100 } },
        name: { eq: "Platform" },
      }) ?? "";
    expect(text).to.match(
      /^\(t\.name = .*\) AND \(EXISTS \{ WITH t WHERE CASE WHEN .* THEN true ELSE false END \}\)$/,
    );
    expect(text.match(/EXISTS \{ MATCH|COUNT \{/g)).to.have.length(5);
  });

  it("puts a CASE holding subqueries behind EXISTS { WITH … }, planned once; negates an existence test with NOT", () => {
    const links = { decisions: { some: {} }, disagreements: { some: {} } };
    // An OR, and the negation of a conjunction, of link tests.
    expect(
      whereCondition("Topic", "t", { OR: [{ decisions: { some: {} } }, { name: { eq: "Platform" } }] }),
    ).to.equal(
      "EXISTS { WITH t WHERE CASE WHEN (EXISTS { MATCH (t)<-[:ABOUT]-(dtw1:Decision) }) OR (t.name = $where.`OR.1.name.eq`) THEN true ELSE false END }",
    );
    const negated = whereCondition("Topic", "t", { NOT: links }) ?? "";
    expect(negated).to.match(
      /^NOT EXISTS \{ WITH t WHERE CASE WHEN \(EXISTS \{ .* \}\) AND \(EXISTS \{ .* \}\) THEN true ELSE false END \}$/,
    );
    // NOT of NOT is the test itself, or its opaque test: never a deeper nesting.
    expect(whereCondition("Topic", "t", { NOT: { NOT: links } })).to.equal(negated.slice("NOT ".length));
    expect(whereCondition("Topic", "t", { NOT: { NOT: { NOT: links } } })?.replace(/NOT\./g, "")).to.equal(
      negated.replace(/NOT\./g, ""),
    );
    // One existence test is true or false, never null: NOT negates it, and NOT of that is the test.
    expect(whereCondition("Topic", "t", { NOT: { decisions: { some: {} } } })).to.equal(
      "NOT EXISTS { MATCH (t)<-[:ABOUT]-(dtw1:Decision) }",
    );
    expect(whereCondition("Topic", "t", { NOT: { decisions: { none: {} } } })).to.equal(
      "EXISTS { MATCH (t)<-[:ABOUT]-(dtw1:Decision) }",
    );
    // all: the absence of a target failing a link test, that test negated.
    expect(whereCondition("Topic", "t", { decisions: { all: { decidedBy: {} } } })).to.equal(
      "NOT EXISTS { MATCH (t)<-[:ABOUT]-(dtw1:Decision) WHERE NOT EXISTS { MATCH (dtw1)-[:DECIDED_BY]->(ptw2:Person) } }",
    );
  });

  it("names each link's rows apart, whatever the nesting", () => {
    const text =
      whereCondition("Customer", "c", {
        requestedFeatures: { some: { owner: { decisionsMade: { some: { topic: {} } } } } },
      }) ?? "";
    const variables = [...text.matchAll(/\((\w+):[A-Z]\w+/g)].map(([, v]) => v);
    expect(new Set(variables).size).to.equal(variables.length);
    expect(variables).to.have.length(4);
  });
});

describe("where's index starts (whereSeek)", () => {
  const indexed = (property: string) =>
    ["status", "regretScore", "decidedAt", "id", "title"].includes(property);

  it("starts from an exact value before a range, at the top level or in a top-level AND, never under OR or NOT", () => {
    expect(
      whereSeek("Decision", "d", { regretScore: { gte: 0.5 }, status: { eq: "EXECUTED" } }, indexed),
    ).to.deep.equal({
      property: "status",
      bounds: ["d.status = $where.`status.eq`"],
    });
    expect(
      whereSeek("Decision", "d", { AND: [{ title: { startsWith: "Platform" } }] }, indexed),
    ).to.deep.equal({
      property: "title",
      bounds: ["d.title STARTS WITH $where.`AND.0.title.startsWith`"],
    });
    expect(whereSeek("Decision", "d", { OR: [{ status: { eq: "EXECUTED" } }] }, indexed)).to.equal(undefined);
    expect(whereSeek("Decision", "d", { NOT: { status: { eq: "EXECUTED" } } }, indexed)).to.equal(undefined);
    expect(whereSeek("Decision", "d", { executionGapDays: { gt: 3 } }, indexed)).to.equal(undefined);
  });

  it("bounds an instant a second wider on each side, its operand read as an integer", () => {
    expect(whereSeek("Decision", "d", { decidedAt: { eq: 1 } }, indexed)?.bounds).to.deep.equal([
      "d.decidedAt >= datetime({epochMillis: toInteger($where.`decidedAt.eq`)}) - $oneSecond",
      "d.decidedAt <= datetime({epochMillis: toInteger($where.`decidedAt.eq`)}) + $oneSecond",
    ]);
  });

  it("bounds a page's ordered read by every eq, startsWith or range on its property, never by in", () => {
    expect(
      whereBoundsOn("Decision", "d", { decidedAt: { gte: 1 }, AND: [{ decidedAt: { lt: 2 } }] }, "decidedAt"),
    ).to.deep.equal([
      "d.decidedAt >= datetime({epochMillis: toInteger($where.`decidedAt.gte`)}) - $oneSecond",
      "d.decidedAt <= datetime({epochMillis: toInteger($where.`AND.0.decidedAt.lt`)}) + $oneSecond",
    ]);
    expect(whereBoundsOn("Topic", "t", { name: { in: ["a"], startsWith: "P" } }, "name")).to.deep.equal([
      "t.name STARTS WITH $where.`name.startsWith`",
    ]);
    expect(whereBoundsOn("Decision", "d", { status: { eq: "EXECUTED" } }, "decidedAt")).to.deep.equal([]);
    expect(whereBoundsOn("Decision", "d", { OR: [{ decidedAt: { gte: 1 } }] }, "decidedAt")).to.deep.equal(
      [],
    );
    expect(whereBoundsOn("Decision", "d", { decidedAt: { isNull: false } }, "decidedAt")).to.deep.equal([]);
  });
});

describe("where's bounds (src/graphql/where-bounds.ts)", () => {
  const operators = (n: number) => ({ AND: Array.from({ length: n }, () => ({ title: { contains: "x" } })) });

  it("counts each operator 1, and some, none, all, count and a single link 1 more; AND, OR, NOT nothing", () => {
    expect(whereBoundProblem("Decision", operators(30))).to.equal(undefined);
    expect(whereBoundProblem("Decision", operators(31))).to.equal("holds 31 operators; at most 30");
    // 28 operators, a single link (1) and a to-many form (1): 30.
    const thirty = { ...operators(28), decidedBy: { decisionsMade: { some: {} } } };
    expect(whereBoundProblem("Decision", thirty)).to.equal(undefined);
    expect(whereBoundProblem("Decision", { ...thirty, NOT: { OR: [{ id: { eq: "d1" } }] } })).to.equal(
      "holds 31 operators; at most 30",
    );
  });

  it("counts link levels: a …Where given to a single link or to some, none or all is one deeper", () => {
    const four = { decidedBy: { decisionsMade: { all: { decidedBy: { decisionsMade: { none: {} } } } } } };
    expect(whereBoundProblem("Decision", four)).to.equal(undefined);
    const five = {
      decidedBy: { decisionsMade: { all: { decidedBy: { decisionsMade: { none: { topic: {} } } } } } },
    };
    expect(whereBoundProblem("Decision", five)).to.equal("nests 5 link levels; at most 4");
  });

  it("takes an in of 100 values and refuses 101", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i)}`);
    expect(whereBoundProblem("Decision", { id: { in: values(100) } })).to.equal(undefined);
    expect(whereBoundProblem("Decision", { id: { in: values(101) } })).to.equal(
      "has an `in` of 101 values; at most 100",
    );
  });
});
