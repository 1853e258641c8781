import { expect } from "chai";
import { parse } from "graphql";
import { continued } from "../src/cypher/compile.js";
import { conditionsOf, seekOf } from "../src/cypher/filters.js";
import { constantsOf, dayStart } from "../src/cypher/values.js";
import neo4j from "neo4j-driver";
import type { Filter } from "../src/domain/table.js";
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";
import { cypherOf as translated, translate } from "./support/translate.js";

/** The one root field's Cypher, its whitespace folded to single spaces (the library indents it). */
const cypherOf = async (document: string, variables?: Record<string, unknown>) =>
  (await translated(document, variables)).replace(/\s+/g, " ");

// Issue 22: each request's Cypher holds only what it asks. GraphQL in, Cypher out, no database;
// test/plans.test.ts checks the same statements' plans against Neo4j.

/** Every argument-guarded branch the earlier generic statements carried. */
const GUARDS = /\$\w+ IS (NOT )?NULL|UNION|CASE WHEN \$(?!firstInstant |firstDate )/;

describe("Cypher built per request (no database)", () => {
  describe("root lists start from the one read their arguments give", () => {
    it("decisions(topicId) starts from the topic and never reads the decisions' own indexes", async () => {
      const cypher = await cypherOf('{ decisions(topicId: "t1", status: DECIDED) { id } }');
      expect(cypher).to.include("MATCH (t:Topic {id: $topicId})<-[:ABOUT]-(d:Decision)");
      expect(cypher).to.include("d.status = $status");
      expect(cypher).not.to.match(/USING INDEX d:Decision/);
      expect(cypher).not.to.match(GUARDS);
    });

    it("decisions(since, until) seeks the decidedAt index a second wider and plans no undated read", async () => {
      const cypher = await cypherOf('{ decisions(since: "2024-01-01", until: "2024-12-31") { id } }');
      expect(cypher).to.include("USING INDEX d:Decision(decidedAt)");
      expect(cypher).to.include("d.decidedAt >= $since - $oneSecond");
      expect(cypher).to.include("d.decidedAt <= $until + $oneDayOneSecond");
      expect(cypher).not.to.include("USING INDEX d:Decision(id)");
      expect(cypher).not.to.match(/Topic|status|regretScore|executionGapDays/);
      expect(cypher).not.to.match(GUARDS);
    });

    it("decisions with no argument reads the decidedAt index in order, then undated rows by id", async () => {
      const cypher = await cypherOf("{ decisions { id } }");
      // Only instants the wire format writes (years 0000–9999); any other value is undated.
      expect(cypher).to.include("WHERE d.decidedAt >= $firstInstant AND d.decidedAt < $afterLastInstant ");
      expect(cypher).to.include(
        "WHERE d.id >= CASE WHEN size(page) < $limit THEN '' END AND NOT coalesce($firstInstant <= d.decidedAt < $afterLastInstant, false)",
      );
      expect(cypher).to.include("USING INDEX d:Decision(id)");
      expect(cypher).not.to.match(/Topic|status|regretScore|executionGapDays|since|until/);
    });

    it("finds the page's last instant again by a seek, never a scan of the whole index", async () => {
      // Bounds from a row (`page`) let the planner scan the index under a plain `USING INDEX`:
      // test/plans.test.ts once saw that plan after other files had changed the graph's statistics.
      const cypher = await cypherOf("{ decisions(status: DECIDED) { id } }");
      expect(cypher).to.include(
        "USING INDEX SEEK d:Decision(decidedAt) WHERE d.decidedAt >= CASE WHEN size(page) = $limit THEN page[-1].decidedAt END - $oneSecond AND d.decidedAt <= page[-1].decidedAt + $oneSecond",
      );
    });

    it("features(ownerId) starts from the person; features(stage) reads the name index in order", async () => {
      const owned = await cypherOf('{ features(ownerId: "p1", shipped: true) { id } }');
      expect(owned).to.include("MATCH (p:Person {id: $ownerId})-[:OWNS]->(f:Feature)");
      expect(owned).to.include("f.shipped = $shipped");
      expect(owned).not.to.match(/USING INDEX f:Feature|stage|team/);
      const staged = await cypherOf("{ features(stage: BETA) { id } }");
      expect(staged).to.include("USING INDEX f:Feature(name)");
      expect(staged).to.include("f.stage = $stage");
      expect(staged).not.to.match(/Person|shipped|team/);
      // The two reads are each sorted, the second after the first: the page is sorted once.
      expect(staged.match(/ORDER BY/g)).to.deep.equal(["ORDER BY", "ORDER BY"]);
      expect(staged).to.include("RETURN f ORDER BY f.name, f.id LIMIT $limit");
      expect(staged).to.include("RETURN f ORDER BY f.id LIMIT $limit");
    });

    it("takes presence from variables: absent and null leave no trace, a value its condition", async () => {
      const document = "query ($s: DecisionStatus) { decisions(status: $s) { id } }";
      for (const variables of [{}, { s: null }]) {
        expect(await cypherOf(document, variables)).not.to.include("status");
      }
      expect(await cypherOf(document, { s: "DECIDED" })).to.include("d.status = $status");
    });
  });

  describe("connections", () => {
    it("count only when totalCount is selected, from the start the arguments give", async () => {
      expect(await cypherOf("{ decisionsConnection { nodes { id } } }")).not.to.include("count(");
      const whole = await cypherOf("{ decisionsConnection { totalCount } }");
      expect(whole).to.include("CALL () { MATCH (d:Decision) RETURN count(d) AS total }");
      const status = await cypherOf("{ decisionsConnection(status: REVERSED) { totalCount } }");
      // An exact index start alone: nothing is checked per row.
      expect(status).to.include(
        "CALL () { MATCH (d:Decision) USING INDEX d:Decision(status) WHERE d.status = $status RETURN count(d) AS total }",
      );
      const both = await cypherOf(
        '{ decisionsConnection(topicId: "t1", regretScoreMin: 0.5) { totalCount nodes { id } } }',
      );
      // Under a named parent the rows are read once, sorted, and counted as a list's size.
      expect(both).to.include(
        "WITH COLLECT { MATCH (t:Topic {id: $topicId})<-[:ABOUT]-(d:Decision) USING INDEX t:Topic(id) WITH DISTINCT d WHERE d.regretScore >= $regretScoreMin AND -1.7976931348623157e308 <= d.regretScore <= 1.7976931348623157e308 AND CASE WHEN d.regretScore IS :: FLOAT THEN true ELSE -9007199254740991 <= d.regretScore <= 9007199254740991 END RETURN d ORDER BY ",
      );
      expect(both).to.include("WITH size(every) AS total, every[..$first + 1] AS rows");
      expect(both.match(/MATCH/g)).to.have.length(1);
      // A count alone reads no page, under a parent too.
      for (const document of [
        "{ decisionsConnection { totalCount } }",
        '{ decisionsConnection(topicId: "t1", regretScoreMin: 0.5) { totalCount } }',
      ]) {
        const countOnly = await cypherOf(document);
        expect(countOnly).to.include("RETURN count(d) AS total } WITH {total: total} AS c RETURN");
        expect(countOnly).not.to.match(/LIMIT|ORDER BY/);
      }
      const pageOnly = await cypherOf('{ decisionsConnection(topicId: "t1") { nodes { id } } }');
      expect(pageOnly).to.include("LIMIT $first + 1").and.not.to.include("total");
    });

    it("reads a cursor's position only when after is given", async () => {
      expect(await cypherOf("{ topicsConnection(first: 5) { nodes { id } } }")).not.to.match(/position|apoc/);
      const after = await cypherOf(
        '{ topicsConnection(first: 5, after: "WyJUb3BpYyIsIkhpcmluZyIsInQyIl0=") { nodes { id } } }',
      );
      // A text key is read back from the cursor's row, whose stored value compares as rows are ordered.
      expect(after).to.include(
        "WITH coalesce([cursorRowFound IN COLLECT { MATCH (cursorRow:Topic {id: $after[2]}) WHERE cursorRow.name = $after[1] RETURN cursorRow } | [$after[0], cursorRowFound.name, $after[2]]][0], $after) AS position",
      );
      // The name index is read from the position's name; its rows all have one, so the key comparison decides.
      expect(after).to.include("t.name >= position[1]");
      expect(after).to.include("[t.name, t.id] > [position[1], position[2]]");
    });

    it("the issue's example is a small statement: topic start, date condition, page and its count", async () => {
      const cypher = await cypherOf(
        '{ a1: decisionsConnection(topicId: "topic-23", since: "2024-01-01") { totalCount nodes { id } } }',
      );
      // 16,077 characters before issue 22.
      expect(cypher.length).to.be.below(1_500);
      expect(cypher).not.to.match(GUARDS);
    });
  });

  describe("groups", () => {
    it("compute only the dimensions of `by` and the statistics selected", async () => {
      const plain = await cypherOf('{ decisionGroups(by: [STATUS], since: "2024-01-01") { status count } }');
      // A status outside DecisionStatus is missing (contract §7): in the group without one.
      expect(plain).to.include(
        "WITH d, CASE WHEN d.status IN ['PROPOSED', 'DECIDED', 'EXECUTED', 'REVERSED', 'SUPERSEDED'] THEN d.status END AS status",
      );
      expect(plain).not.to.match(/ABOUT|DECIDED_BY|month|min\(|sum\(|regretScore|executionGapDays/);
      const stats = await cypherOf(
        "{ decisionGroups(by: [MONTH, TOPIC]) { month count regretScore { avg } } }",
      );
      // Servable numbers only: a value of another type, a NaN or an infinity is left out of the statistics.
      expect(stats).to.include(
        "CASE WHEN -1.7976931348623157e308 <= d.regretScore <= 1.7976931348623157e308 AND CASE WHEN d.regretScore IS :: FLOAT THEN true ELSE -9007199254740991 <= d.regretScore <= 9007199254740991 END THEN d.regretScore END AS regretScore_value",
      );
      const gaps = await cypherOf("{ decisionGroups(by: [STATUS]) { executionGapDays { sum } } }");
      // An `Int` only as the schema serves one: whole, within 32 bits.
      expect(gaps).to.include(
        "CASE WHEN -2147483648 <= d.executionGapDays <= 2147483647 AND toIntegerOrNull(d.executionGapDays) = d.executionGapDays THEN d.executionGapDays END AS executionGapDays_value",
      );
      // `avg` is `sum / count`, or Neo4j's own mean when the sum overflows: no other aggregate.
      expect(stats).to.include("sum(regretScore_value) AS regretScore_sum");
      expect(stats).to.include("avg(regretScore_value) AS regretScore_avg");
      expect(stats).not.to.match(/min\(|max\(/);
      // A given lower bound keeps numbers only: no type test.
      const bounded = await cypherOf(
        "{ decisionGroups(by: [STATUS], regretScoreMin: 0) { regretScore { sum } } }",
      );
      expect(bounded).to.include("d.regretScore AS regretScore_value");
      expect(bounded).not.to.include("IS :: INTEGER");
      // NumberStats selected for its `__typename` alone read nothing.
      const typename = await cypherOf("{ decisionGroups(by: [MONTH]) { regretScore { __typename } } }");
      expect(typename).not.to.include("d.regretScore");
      expect(stats).not.to.include("executionGapDays");
      expect(stats).to.match(/ORDER BY count DESC, month IS NULL, month, topic\.id IS NULL, topic\.id/);
    });

    it("bucket an instant by the first day of its week and order by `orderBy` before the dimensions", async () => {
      const weeks = await cypherOf("{ decisionGroups(by: [WEEK], orderBy: COUNT_ASC) { week count } }");
      expect(weeks).to.include("date.truncate('week', week_at)");
      expect(weeks).to.match(/ORDER BY count, week IS NULL, week LIMIT/);
      expect(weeks).not.to.match(/month|quarter|year_at|count DESC/);
      const byDimensions = await cypherOf(
        "{ disagreementGroups(by: [YEAR, RESOLVED], orderBy: DIMENSIONS) { year resolved count } }",
      );
      expect(byDimensions).to.match(/ORDER BY year IS NULL, year, resolved IS NULL, resolved LIMIT/);
      expect(byDimensions).not.to.match(/ORDER BY count/);
    });

    it("check an instant's servability once: a given day range keeps only servable instants", async () => {
      const bucket = "CASE WHEN month_at.offsetSeconds = 0 THEN date.truncate('month', month_at)";
      const guardedBucket = `CASE WHEN NOT coalesce($firstInstant <= month_at < $afterLastInstant, false) THEN null WHEN month_at.offsetSeconds = 0`;
      const guardedRange = "CASE WHEN $firstInstant <= d.decidedAt < $afterLastInstant THEN";
      expect(await cypherOf("{ decisionGroups(by: [MONTH]) { month count } }")).to.include(guardedBucket);
      // Read from the range's own index: every value is an instant within a second of the range.
      for (const range of ['since: "2025-01-01"', 'until: "2025-12-31"']) {
        const ranged = await cypherOf(`{ decisionGroups(by: [MONTH], ${range}) { month count } }`);
        expect(ranged).to.include("USING INDEX d:Decision(decidedAt)");
        expect(ranged).to.include(bucket);
        expect(ranged).not.to.include(guardedBucket);
        expect(ranged).not.to.include(guardedRange);
        expect(ranged).to.match(/AND d\.decidedAt\.epochSeconds (>=|<) /);
      }
      // Read from a topic's relationships: the range's condition guards each value, once.
      const fromTopic = await cypherOf(
        '{ decisionGroups(by: [MONTH], topicId: "t1", since: "2025-01-01") { month count } }',
      );
      expect(fromTopic).to.include(guardedRange);
      expect(fromTopic).to.include(bucket);
      expect(fromTopic).not.to.include(guardedBucket);
      const counted = await cypherOf(
        '{ decisionsConnection(topicId: "t1", until: "2025-01-01") { totalCount } }',
      );
      expect(counted).to.include(guardedRange);
    });

    it("count a group by one indexed property over the whole label from its index", async () => {
      const STATUS =
        "CASE WHEN d.status IN ['PROPOSED', 'DECIDED', 'EXECUTED', 'REVERSED', 'SUPERSEDED'] THEN d.status END AS status";
      const cypher = await cypherOf("{ decisionGroups(by: [STATUS]) { status count } }");
      expect(cypher).to.include(
        "MATCH (d:Decision) USING INDEX d:Decision(status) WHERE d.status IS NOT NULL RETURN d.status AS status, count(d) AS count",
      );
      // A value outside the enum is counted with the rows without one (tested once per value).
      expect(cypher).to.include(
        "WITH collect(CASE WHEN status IN ['PROPOSED', 'DECIDED', 'EXECUTED', 'REVERSED', 'SUPERSEDED'] THEN {status: status, count: count} END) AS valued",
      );
      // The rows without a status: the count store's count less those counted.
      expect(cypher).to.include("CALL () { MATCH (d:Decision) RETURN count(d) AS rows }");
      // Statistics need the rows themselves.
      expect(await cypherOf("{ decisionGroups(by: [STATUS]) { status regretScore { sum } } }")).to.include(
        `WITH d, ${STATUS}`,
      );
    });

    it("read the rows from one filter's index", async () => {
      const cypher = await cypherOf('{ featureGroups(by: [OWNER], team: "core", stage: BETA) { count } }');
      expect(cypher).to.include("USING INDEX f:Feature(stage) WHERE f.stage = $stage AND f.team = $team");
      expect(cypher).not.to.match(GUARDS);
    });
  });
});

describe("filters as data", () => {
  const given = new Set(["since", "status"]);
  const range: Filter = { kind: "dayRange", property: "decidedAt", since: "since", until: "until" };

  it("renders only the given arguments' conditions", () => {
    // Epoch seconds are read only from an instant of the years 0000–9999 (another type never matches).
    expect(conditionsOf("d", range, given)).to.deep.equal([
      "CASE WHEN $firstInstant <= d.decidedAt < $afterLastInstant " +
        "THEN d.decidedAt.epochSeconds >= $since.epochSeconds END",
    ]);
    expect(
      conditionsOf("d", { kind: "equals", property: "status", argument: "status" }, given),
    ).to.deep.equal(["d.status = $status"]);
    expect(
      conditionsOf("d", { kind: "atLeast", property: "regretScore", argument: "regretScoreMin" }, given),
    ).to.deep.equal([]);
  });

  it("seeks a day range a second wider, and says the seek is not exact", () => {
    expect(seekOf("d", range, new Set(["until"]))).to.deep.equal({
      // The side left open stops at the first instant the wire format writes.
      bounds: ["d.decidedAt >= $firstInstant", "d.decidedAt <= $until + $oneDayOneSecond"],
      exact: false,
    });
    expect(
      seekOf("d", { kind: "atLeast", property: "regretScore", argument: "r" }, new Set(["r"])),
    ).to.deep.equal({
      bounds: ["d.regretScore >= $r"],
      exact: true,
    });
  });
});

// Issue 32: each nested field of a request is one expression of its root field's query, where the
// library's translation wrote two CALL subqueries and two WITH clauses.
describe("nested fields compiled as one expression each (no database)", () => {
  it("writes topic → decisions → decidedBy with no CALL and one COLLECT per nested field", async () => {
    const cypher = await cypherOf(
      '{ topic(id: "t1") { name decisions(limit: 5) { title decidedAt decidedBy { name } } } }',
    );
    // The root's statement continues into its projection: no CALL around it (see `continued`).
    expect(cypher).to.match(/^CYPHER 5 MATCH \(t:Topic \{id: \$id\}\) WITH t LIMIT 1 RETURN /);
    expect(cypher).not.to.match(/\bCALL\b/);
    expect(cypher.match(/\bCOLLECT \{/g)).to.have.length(2);
    expect(cypher).to.include("MATCH (t)<-[:ABOUT]-(d1:Decision) WITH DISTINCT d1");
    expect(cypher).to.include(
      "COLLECT { MATCH (d1)-[:DECIDED_BY]->(p2:Person) RETURN {`name`: p2.name, `@id`: p2.id} ORDER BY p2.id LIMIT 1 }[0]",
    );
    expect(cypher).to.include("LIMIT $f1_limit");
    expect(cypher).to.match(/ AS this$/);
  });

  it("sends the temporal constants a text names as parameters, and a Date argument as its day's first instant", async () => {
    expect(
      Object.keys(constantsOf("WHERE x >= $firstInstant AND x < $afterLastInstant + $oneSecond")),
    ).to.have.members(["firstInstant", "afterLastInstant", "oneSecond"]);
    expect(constantsOf("WHERE x >= $firstInstants OR $after IS NULL")).to.deep.equal({});
    expect(dayStart(new neo4j.types.Date(2024, 2, 29)).toString()).to.equal("2024-02-29T00:00:00Z");
    // Every constant the compiled text names travels with it; none is spliced in as a literal.
    const [query] = await translateDocument(
      await translatingSchema(),
      '{ decisions(since: "2024-02-29") { decidedAt } }',
    );
    expect(query?.text).not.to.match(/\b(?:datetime|date|duration)\('/);
    for (const name of query?.text.match(/\$\w+/g) ?? [])
      expect(query?.parameters).to.have.property(name.slice(1));
    expect(String(query?.parameters.since)).to.equal("2024-02-29T00:00:00Z");
  });

  it("continues a root statement into its projection only where its last RETURN can be a WITH", () => {
    const page = [
      "CALL () {",
      "  MATCH (d:Decision)",
      "  RETURN d",
      "}",
      "RETURN d",
      "ORDER BY d.id",
      "LIMIT $limit",
    ];
    expect(continued(page.join("\n"), "d")).to.equal(
      [
        "CALL () {",
        "  MATCH (d:Decision)",
        "  RETURN d",
        "}",
        "WITH d",
        "ORDER BY d.id",
        "LIMIT $limit",
      ].join("\n"),
    );
    expect(continued("MATCH (c:Customer)\nRETURN DISTINCT {nodes: [c]} AS c", "c")).to.equal(
      "MATCH (c:Customer)\nWITH DISTINCT {nodes: [c]} AS c",
    );
    // A UNION cannot end in a WITH; a RETURN of another column, of an unnamed expression, or
    // spanning lines is left in its CALL.
    expect(continued("MATCH (d:Decision) RETURN d\nUNION\nMATCH (d:Decision) RETURN d", "d")).to.equal(
      undefined,
    );
    expect(continued("MATCH (d:Decision)\nRETURN d AS e", "d")).to.equal(undefined);
    expect(continued("MATCH (d:Decision)\nRETURN collect(d)", "d")).to.equal(undefined);
    expect(continued("MATCH (d:Decision)\nRETURN {a: COLLECT {\n  RETURN 1\n}} AS d", "d")).to.equal(
      undefined,
    );
    expect(continued("CALL () {\n  MATCH (d:Decision)\n  RETURN d\n}", "d")).to.equal(undefined);
  });

  it("names every nested field's variables apart, so a link back to the same type reads its own rows", async () => {
    const cypher = await cypherOf(
      "{ decisions { topic { decisions { topic { id } } } decidedBy { decisionsMade { decidedBy { id } } } } }",
    );
    // Numbered in the order of the projection's keys (canonical.ts): decidedBy before topic.
    for (const name of ["p1", "d2", "p3", "t4", "d5", "t6"])
      expect(cypher.match(new RegExp(`\\(${name}:`, "g")), name).to.have.length(1);
  });

  it("writes a nested connection as one COLLECT of its rows, its cursor and parameters named apart", async () => {
    const cursor = Buffer.from(JSON.stringify(["Decision", "1743465600", 0, "d1"])).toString("base64url");
    const cypher = await cypherOf(
      `{ topics { a: decisionsConnection(first: 2) { totalCount nodes { id } } b: decisionsConnection(first: 3, after: "${cursor}") { edges { cursor } pageInfo { endCursor } } } }`,
    );
    // The projection after the root's statement: the root's rows hold no map, its RETURN does.
    const projection = cypher.slice(cypher.indexOf("RETURN {`"));
    expect(projection).not.to.match(/\bCALL\b/);
    expect(projection.match(/\bCOLLECT \{/g)).to.have.length(2);
    expect(projection).to.include(
      "[position3 IN [$f3_after] | [every3 IN [COLLECT { MATCH (t)<-[:ABOUT]-(d3:Decision)",
    );
    expect(projection).to.include("$f1_first");
    expect(projection).to.include("$f3_first");
    expect(cypher).not.to.match(/\$after\b/);
    // Projected from the connection's parts, by field name: no map of the connection's own
    // written first and read again (`c2.edges`). A field asked twice is keyed by each response key.
    expect(projection).to.include("RETURN {`decisionsConnection@1`: [rows1 IN [COLLECT {");
    expect(projection).to.include(
      "| {`nodes`: [x2 IN rows1[..$f1_first] | {`id`: x2.id}], `totalCount`: size(rows1)}",
    );
    expect(projection).not.to.match(/\bc\d+\./);
  });

  it("writes only the parts of a nested connection its selection asks for", async () => {
    const cypher = await cypherOf("{ topics { decisionsConnection(first: 2) { totalCount } } }");
    expect(cypher).to.include("`decisionsConnection`: [rows1 IN [COLLECT {");
    expect(cypher).to.include("| {`totalCount`: size(rows1)}][0]");
    expect(cypher).not.to.include("$f1_first");
  });

  it("projects a root connection from its rows and count, written once by its statement", async () => {
    const cypher = await cypherOf("{ featuresConnection(first: 2) { totalCount edges { cursor } } }");
    expect(cypher).to.include("WITH {rows: rows, total: total} AS c RETURN {`edges`: [x");
    expect(cypher).to.include(" IN c.rows[..$first] | {`cursor`: ['Feature']");
    expect(cypher).not.to.match(/\bc\.(edges|nodes|pageInfo|totalCount)\b/);
    // Without `totalCount`, no count is read.
    const uncounted = await cypherOf("{ featuresConnection(first: 2) { nodes { id } } }");
    expect(uncounted).to.include("WITH {rows: rows} AS c RETURN");
    expect(uncounted).not.to.include("count(");
  });

  it("projects a node under two response keys from literal maps, never a map projection", async () => {
    const cypher = await cypherOf("{ decisions { id other: id title } }");
    expect(cypher).to.include("RETURN {`id@1`: d.id, `id@2`: d.id, `title`: d.title, `@id`: d.id} AS this");
  });

  it("writes one text for one question, whatever its aliases and the order of its fields", async () => {
    const plain = await cypherOf(
      '{ topic(id: "t1") { id name decisions(limit: 2) { title decidedBy { name } } } }',
    );
    expect(plain).to.include("RETURN {`decisions`: COLLECT {");
    for (const worded of [
      '{ topic(id: "t1") { decisions(limit: 2) { decidedBy { name } title } name id } }',
      '{ t: topic(id: "t1") { key: id list: decisions(limit: 2) { by: decidedBy { who: name } heading: title } label: name } }',
    ])
      expect(await cypherOf(worded), worded).to.equal(plain);
  });

  it("writes one text for every search of a list, its words sent as values only", async () => {
    const [pricing] = await translate('{ decisionsConnection(search: "pricing", first: 3) { totalCount } }');
    expect(pricing?.text).to.include("db.index.fulltext.queryNodes('decision_search', $search.query)");
    expect(pricing?.text).not.to.match(/pric/i);
    for (const search of ["usage-based bill", "O'Brien ')", "crème", "日本"]) {
      const [other] = await translate(
        `{ decisionsConnection(search: ${JSON.stringify(search)}, first: 3) { totalCount } }`,
      );
      expect(other?.text, search).to.equal(pricing?.text);
      expect(other?.parameters.search, search).to.not.deep.equal(pricing?.parameters.search);
    }
    // A search of stop words only gives the index nothing to ask: a text of its own, without it.
    expect(await cypherOf('{ decisionsConnection(search: "the", first: 3) { totalCount } }')).not.to.include(
      "queryNodes",
    );
  });
});

describe("compiled queries remembered per operation and variables (no database)", () => {
  it("gives the same document with the same variables its compiled query again, and new variables their own", async () => {
    const schema = await translatingSchema();
    const document = parse(
      "query ($topic: ID!, $n: Int) { topic(id: $topic) { decisions(limit: $n) { id } } }",
    );
    const [first] = await translateDocument(schema, document, { topic: "t1", n: 2 });
    const [again] = await translateDocument(schema, document, { topic: "t1", n: 2 });
    // The runner is handed the same parameters object: not compiled again.
    expect(again?.parameters, "compiled again").to.equal(first?.parameters);
    expect(again?.text).to.equal(first?.text);
    const [other] = await translateDocument(schema, document, { topic: "t2", n: 2 });
    const [fewer] = await translateDocument(schema, document, { topic: "t1" });
    expect(other?.parameters).to.include({ id: "t2" });
    expect(other?.parameters).to.not.equal(first?.parameters);
    // `$n` absent: the nested list's limit is its default, a text of its own.
    expect(fewer?.parameters).to.not.deep.equal(first?.parameters);
  });
});
