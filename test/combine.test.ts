import { expect } from "chai";
import { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";
import { CombinedQueries, combineQueries } from "../src/neo4j/combine.js";
import { piecesOf } from "../src/neo4j/runner.js";
import { renameParameters } from "../src/cypher/text.js";

const prefix = (name: string) => `x_${name}`;

describe("renameParameters", () => {
  it("renames every $name outside literals, quoted names and comments", () => {
    expect(renameParameters("MATCH (d {id: $param0}) WHERE d.n > $param10 RETURN $a", prefix)).to.equal(
      "MATCH (d {id: $x_param0}) WHERE d.n > $x_param10 RETURN $x_a",
    );
    expect(renameParameters('RETURN \'$param0\', "it\\"s $p", `$q`, $r // $s\n/* $t */ $u', prefix)).to.equal(
      'RETURN \'$param0\', "it\\"s $p", `$q`, $x_r // $s\n/* $t */ $x_u',
    );
  });

  it("leaves a lone $ and an unterminated literal as they are", () => {
    expect(renameParameters("RETURN $ + $1 + 'open $p", prefix)).to.equal("RETURN $ + $1 + 'open $p");
  });
});

describe("combineQueries", () => {
  const first = {
    text: "CYPHER 5\nMATCH (t:Topic) RETURN t LIMIT $param0\nRETURN t AS this",
    parameters: { param0: 2 },
  };
  const second = {
    text: "CYPHER 5\nMATCH (d {id: $param0}) WITH d AS this0\nRETURN this0 AS this",
    parameters: { param0: "d1" },
  };

  it("makes one query of COLLECT subqueries in the order of their texts, with the parameters renamed apart", () => {
    const combined = combineQueries([first, second]);
    expect(combined?.text).to.equal(
      "CYPHER 5\nRETURN COLLECT {\nMATCH (d {id: $r0_param0}) WITH d AS this0\nRETURN this0 AS this\n} AS r0,\n" +
        "COLLECT {\nMATCH (t:Topic) RETURN t LIMIT $r1_param0\nRETURN t AS this\n} AS r1",
    );
    expect(combined?.parameters).to.deep.equal({ r0_param0: "d1", r1_param0: 2 });
  });

  it("splits the combined record into one result per query, one row per list element", () => {
    const combined = combineQueries([first, second]);
    const summary = { counters: "the combined summary" };
    const result = {
      records: [new Neo4jRecord(["r0", "r1"], [[], [{ id: "t1" }, { id: "t2" }]])],
      summary,
    } as unknown as QueryResult;
    const [a, b] = combined?.split(result) ?? [];
    expect(a?.records.map((record) => record.toObject())).to.deep.equal([
      { this: { id: "t1" } },
      { this: { id: "t2" } },
    ]);
    expect(b?.records).to.deep.equal([]);
    expect(a?.summary).to.equal(summary);
  });

  it("writes the same text for the same queries in any order, and splits the result back in the order given", () => {
    const forth = combineQueries([first, second]);
    const back = combineQueries([second, first]);
    expect(back?.text).to.equal(forth?.text);
    expect(back?.parameters).to.deep.equal(forth?.parameters);
    const result = {
      // `second`'s text comes first.
      records: [new Neo4jRecord(["r0", "r1"], [[{ id: "d1" }], [{ id: "t1" }]])],
    } as unknown as QueryResult;
    const ids = (combined: typeof forth) =>
      combined
        ?.split(result)
        .map(({ records }) => records.map((record) => (record.get("this") as { id: string }).id));
    expect(ids(forth)).to.deep.equal([["t1"], ["d1"]]);
    expect(ids(back)).to.deep.equal([["d1"], ["t1"]]);
  });

  it("declines queries that do not end in one returned column or differ in their options", () => {
    expect(combineQueries([first, { text: "CYPHER 5\nRETURN 1 AS a, 2 AS b", parameters: {} }])).to.equal(
      undefined,
    );
    expect(combineQueries([first, { text: "CALL dbms.components() YIELD name", parameters: {} }])).to.equal(
      undefined,
    );
    expect(
      combineQueries([
        first,
        { ...second, text: second.text.replace("CYPHER 5", "CYPHER 5 runtime=slotted") },
      ]),
    ).to.equal(undefined);
  });
});

describe("CombinedQueries", () => {
  const first = {
    text: "CYPHER 5\nMATCH (t:Topic) RETURN t LIMIT $limit\nRETURN t AS this",
    parameters: { limit: 2 },
  };
  const second = { text: "CYPHER 5\nMATCH (d {id: $id})\nRETURN d AS this", parameters: { id: "d1" } };

  it("gives the same parts their combination again, the same object, and other parts their own", () => {
    const combinations = new CombinedQueries();
    const combined = combinations.of([first, second]);
    expect(combined?.text).to.equal(combineQueries([first, second])?.text);
    expect(combinations.of([first, second])).to.equal(combined);
    // New parameters objects (new values) are another combination.
    const other = combinations.of([first, { ...second, parameters: { id: "d2" } }]);
    expect(other).not.to.equal(combined);
    expect(other?.parameters).to.deep.equal({ r0_id: "d2", r1_limit: 2 });
    // Another order is the same text, split back in its own order.
    expect(combinations.of([second, first])?.text).to.equal(combined?.text);
  });

  it("never lets a parameters object seen before stand for another text", () => {
    const combinations = new CombinedQueries();
    const combined = combinations.of([first, second]);
    const reused = combinations.of([first, { ...second, text: second.text.replace("$id", "$id OR true") }]);
    expect(reused).not.to.equal(combined);
    expect(reused?.text).to.include("$r0_id OR true");
  });

  it("declines what combineQueries declines", () => {
    expect(
      new CombinedQueries().of([first, { text: "CYPHER 5\nRETURN 1 AS a, 2 AS b", parameters: {} }]),
    ).to.equal(undefined);
  });
});

describe("piecesOf: a new combination asked apart", () => {
  const field = (name: string, subqueries: number) => ({
    text: `CYPHER 5\nRETURN [${Array.from({ length: subqueries }, () => "COLLECT { RETURN 1 }").join(", ")}, '${name}'] AS this`,
    parameters: {},
    resolve: () => undefined,
    reject: () => undefined,
  });
  const names = (pieces: ReturnType<typeof piecesOf>) =>
    pieces.map(({ members }) => members.map((member) => /'(\w+)'/.exec(member.text)?.[1]).join("+"));

  it("asks up to four root fields each as its own statement", () => {
    const fields = ["a", "b", "c", "d"].map((name) => field(name, 2));
    const pieces = piecesOf(fields, combineQueries);
    expect(names(pieces)).to.deep.equal(["a", "b", "c", "d"]);
    expect(pieces.map(({ query }) => query)).to.deep.equal(fields);
  });

  it("makes at most four consecutive pieces of about equal planning units, combining within a piece", () => {
    const fields = [
      field("a", 11),
      ...["b", "c", "d", "e", "f", "g", "h", "i"].map((name) => field(name, 2)),
    ];
    const pieces = piecesOf(fields, combineQueries);
    // 12 units, then eight of 3: a piece starts once those before it hold their share (36 / 4 each).
    expect(names(pieces)).to.deep.equal(["a", "b+c", "d+e+f", "g+h+i"]);
    expect(pieces[2]?.query.text).to.equal(combineQueries(fields.slice(3, 6))?.text);
    expect(
      piecesOf(
        Array.from({ length: 50 }, (_, i) => field(`f${String(i)}`, 1)),
        combineQueries,
      ),
    ).to.have.length(4);
  });
});
