import { expect } from "chai";
import type { RequestLogEntry } from "../src/ops/request-log.js";
import { deleteDomainData } from "../src/demo-data/load.js";
import { BAD_DECISIONS_IN_ORDER, ingest, loadBadValues } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

/**
 * Contract §3's field errors on a graph the ingest got wrong (test/support/fixtures.ts' BAD_VALUES,
 * plain Cypher per §8): every kind of bad value, in a lookup, a root list, a nested list, a
 * connection's nodes and edges and a group's link, answers 200 with the error at its path,
 * `invalid_stored_value`, and `null` propagated exactly as the GraphQL specification says.
 */
describe("values the ingest stored wrong (contract §3, field errors)", function () {
  let service: RunningService;
  const logged: RequestLogEntry[] = [];

  before(async function () {
    await loadBadValues();
    service = await startService(undefined, { logRequest: (entry) => logged.push(entry) });
  });
  after(async function () {
    await service.close();
  });

  interface FieldError {
    message: string;
    path: (string | number)[];
    locations: { line: number; column: number }[];
    extensions: { code: string; requestId: string };
  }

  /** The 200 answer of a query: its data and its errors, each checked for the contract's shape. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
  async function answer(query: string): Promise<{ data: any; errors: FieldError[] }> {
    const { status, body } = await service.graphql(query);
    expect(status, JSON.stringify(body)).to.equal(200);
    const errors = (body.errors ?? []) as FieldError[];
    for (const error of errors) {
      expect(error.extensions.code, error.message).to.equal("invalid_stored_value");
      expect(error.extensions.requestId).to.be.a("string").and.not.equal("");
      expect(error.locations).to.have.length(1);
    }
    return { data: body.data, errors };
  }
  const at = (errors: FieldError[]) => errors.map((error) => error.path.join("."));

  it("a lookup: the nullable field stops null, and its siblings keep their data", async function () {
    const { data, errors } = await answer(
      '{ a: decision(id: "d2") { id title } b: topics(limit: 1) { id } }',
    );
    expect(data).to.deep.equal({ a: null, b: [{ id: "t1" }] });
    expect(errors).to.have.length(1);
    expect(errors[0]?.path).to.deep.equal(["a", "title"]);
    expect(errors[0]?.message).to.equal('Decision "d2" has no title, which the schema requires.');
    expect(errors[0]?.locations).to.deep.equal([{ line: 1, column: 30 }]);
  });

  it("names the node by its id even when the request does not select it", async function () {
    const { errors } = await answer('{ decision(id: "d3") { status } }');
    expect(errors.map((error) => error.message)).to.deep.equal([
      'Decision "d3" has a status that is not one of the values of DecisionStatus.',
    ]);
    const aliased = await answer('{ decision(id: "d2") { id: status title } }');
    expect(aliased.errors[0]?.message).to.equal('Decision "d2" has no title, which the schema requires.');
    const idAliased = await answer('{ decision(id: "d2") { key: id title } }');
    expect(idAliased.errors[0]?.message).to.equal('Decision "d2" has no title, which the schema requires.');
  });

  it("a root list: every row in order, a nullable value null with its error (instants at Neo4j's limits included)", async function () {
    const { data, errors } = await answer("{ decisions(limit: 10) { id decidedAt } }");
    expect(data.decisions.map((row: { id: string }) => row.id)).to.deep.equal(BAD_DECISIONS_IN_ORDER);
    expect(data.decisions[0]).to.deep.equal({ id: "d1", decidedAt: "2025-03-31T14:05:00.000Z" });
    expect(at(errors)).to.deep.equal([3, 4, 5, 6].map((i) => `decisions.${i}.decidedAt`));
    expect(errors.map((error) => error.message)).to.deep.equal([
      'Decision "d4" has a decidedAt stored as another type than the schema\'s DateTime.',
      'Decision "d5" has a decidedAt outside the years 0000–9999, which DateTime cannot write.',
      'Decision "d6" has a decidedAt outside the years 0000–9999, which DateTime cannot write.',
      'Decision "d7" has a decidedAt outside the years 0000–9999, which DateTime cannot write.',
    ]);
    for (const i of [3, 4, 5, 6]) expect(data.decisions[i].decidedAt).to.equal(null);
  });

  it("a root list: a non-null value carries null up through the non-null list to data", async function () {
    const { data, errors } = await answer("{ decisions(limit: 10) { id title status } }");
    expect(data).to.equal(null);
    // graphql-js stops completing the list at its first error: the spec lets later ones go unreported.
    expect(at(errors)).to.deep.equal(["decisions.1.title"]);
  });

  it("filters, orders and pages past values they cannot read, without failing", async function () {
    const since = await answer(
      '{ decisions(since: "2020-01-01") { id } t: decisions(topicId: "t1", since: "2020-01-01") { id } }',
    );
    expect(since.data).to.deep.equal({
      decisions: [{ id: "d1" }, { id: "d2" }, { id: "d3" }],
      t: [{ id: "d2" }, { id: "d3" }],
    });
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query = `{ decisionsConnection(first: 2${after === null ? "" : `, after: "${after}"`}) { pageInfo { hasNextPage endCursor } nodes { id } } }`;
      const { data } = await answer(query);
      seen.push(...data.decisionsConnection.nodes.map((node: { id: string }) => node.id));
      if (!data.decisionsConnection.pageInfo.hasNextPage) break;
      after = data.decisionsConnection.pageInfo.endCursor;
    }
    expect(seen).to.deep.equal(BAD_DECISIONS_IN_ORDER);
  });

  it("lists by name keep the rows without a name (none, or of another type): last, by id, in every page", async function () {
    // t1 "Pricing", the topic whose id is a number ("Zz numbered": its id cannot be served), t2 unnamed.
    const topics = await answer("{ topics { id } c: topicsConnection { totalCount edges { cursor } } }");
    expect(topics.data).to.equal(null);
    expect(at(topics.errors)).to.deep.equal(["topics.1.id"]);
    expect(topics.errors[0]?.message).to.equal(
      "Topic (whose id is not a string) has an id stored as another type than the schema's ID.",
    );
    const counted = await answer("{ topicsConnection { totalCount edges { cursor } } }");
    expect(counted.data.topicsConnection.totalCount).to.equal(3);
    expect(counted.data.topicsConnection.edges).to.have.length(3);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const query = `{ peopleConnection(first: 1${after === null ? "" : `, after: "${after}"`}) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } }`;
      const { data } = await answer(query);
      expect(data.peopleConnection.totalCount).to.equal(2);
      seen.push(...data.peopleConnection.nodes.map((node: { id: string }) => node.id));
      if (!data.peopleConnection.pageInfo.hasNextPage) break;
      after = data.peopleConnection.pageInfo.endCursor;
    }
    expect(seen).to.deep.equal(["p1", "p2"]);
  });

  it("a nested list under a nullable lookup: null stops at the lookup", async function () {
    const { data, errors } = await answer(
      '{ topic(id: "t1") { name decisions { id title } } people { id } }',
    );
    expect(data.topic).to.equal(null);
    expect(data.people).to.have.length(2);
    expect(at(errors)).to.deep.equal(["topic.decisions.0.title"]);
  });

  it("a connection's nodes and edges: each error at its own path", async function () {
    const { data, errors } = await answer(
      '{ topic(id: "t1") { decisionsConnection { nodes { id status } edges { node { id status } } } } }',
    );
    expect(data).to.deep.equal({ topic: null });
    expect(at(errors)).to.deep.equal(["topic.decisionsConnection.nodes.1.status"]);
    const edges = await answer(
      '{ topic(id: "t1") { decisionsConnection { edges { cursor node { id status } } } } }',
    );
    expect(edges.data).to.deep.equal({ topic: null });
    expect(at(edges.errors)).to.deep.equal(["topic.decisionsConnection.edges.1.node.status"]);
  });

  it("a single link: a nullable link stops null; a group's link likewise", async function () {
    const link = await answer('{ decision(id: "d1") { id topic { id name } decidedBy { id name } } }');
    expect(link.data).to.deep.equal({ decision: { id: "d1", topic: null, decidedBy: null } });
    expect(link.errors.map((error) => error.message)).to.deep.equal([
      'Topic "t2" has no name, which the schema requires.',
      'Person "p2" has a name stored as another type than the schema\'s String.',
    ]);
    const groups = await answer("{ decisionGroups(by: [TOPIC]) { topic { id name } count } }");
    // t1 (4 decisions), no topic (2), t2 (1): t2's group keeps its count, its topic null.
    expect(groups.data.decisionGroups).to.deep.equal([
      { topic: { id: "t1", name: "Pricing" }, count: 4 },
      { topic: null, count: 2 },
      { topic: null, count: 1 },
    ]);
    expect(at(groups.errors)).to.deep.equal(["decisionGroups.2.topic.name"]);
  });

  it("a group's own value outside its enum or of another type is missing: the group without a value, no error", async function () {
    const { data, errors } = await answer(
      "{ decisionGroups(by: [STATUS]) { status count } featureGroups(by: [SHIPPED]) { shipped count } customerGroups(by: [HEALTH]) { health count } }",
    );
    // d3's status ARCHIVED is not a DecisionStatus: no group of its own, which would sort before
    // PROPOSED by its stored name, but the group without a status, last.
    expect(data.decisionGroups).to.deep.equal([
      { status: "DECIDED", count: 5 },
      { status: "PROPOSED", count: 1 },
      { status: null, count: 1 },
    ]);
    expect(data.featureGroups).to.deep.equal([{ shipped: null, count: 1 }]);
    expect(data.customerGroups).to.deep.equal([
      { health: "HEALTHY", count: 2 },
      { health: null, count: 1 },
    ]);
    expect(errors).to.deep.equal([]);
  });

  it("dates: another type and years beyond 0000–9999 are errors, and order as undated", async function () {
    const { data, errors } = await answer(
      '{ topic(id: "t1") { name } people { id openCommitments { id dueOn } } }',
    );
    const ada = data.people.find((person: { id: string }) => person.id === "p1");
    expect(ada.openCommitments).to.deep.equal([
      { id: "m3", dueOn: "2025-02-01" },
      { id: "m1", dueOn: null },
      { id: "m2", dueOn: null },
    ]);
    expect(errors.map((error) => error.message)).to.deep.equal([
      'Commitment "m1" has a dueOn outside the years 0000–9999, which Date cannot write.',
      'Commitment "m2" has a dueOn stored as another type than the schema\'s Date.',
    ]);
  });

  it("statistics leave out values of another type, without an error", async function () {
    const { data, errors } = await answer(
      "{ decisionGroups(by: [STATUS]) { count regretScore { count sum } } }",
    );
    expect(errors).to.deep.equal([]);
    const decided = data.decisionGroups[0];
    expect(decided).to.deep.equal({ count: 5, regretScore: { count: 1, sum: 0.5 } });
    // Under a lower bound on it, only numbers are kept, and the statistics read them as they are.
    const bounded = await answer(
      "{ decisionGroups(by: [STATUS], regretScoreMin: 0) { status count regretScore { count sum } } }",
    );
    expect(bounded.errors).to.deep.equal([]);
    expect(bounded.data.decisionGroups).to.deep.equal([
      { status: "DECIDED", count: 1, regretScore: { count: 1, sum: 0.5 } },
    ]);
  });

  it("counts each error by label and property, and logs the nodes once per request", async function () {
    const counted = async () => {
      const body = await (await fetch(`${service.url}/metrics`)).text();
      const series = 'kg_graphql_invalid_stored_values_total{label="Decision",property="title"} ';
      const line = body.split("\n").find((l) => l.startsWith(series));
      return Number(line?.slice(series.length) ?? 0);
    };
    const before = await counted();
    logged.length = 0;
    const { status, body } = await service.graphql(
      '{ a: decision(id: "d2") { title } b: decision(id: "d2") { title } }',
    );
    expect(status).to.equal(200);
    expect(await counted()).to.equal(before + 2);
    const entry = logged.find((line) => line.requestId === body.errors[0].extensions.requestId);
    expect(entry?.invalidStoredValues).to.deep.equal([
      { label: "Decision", property: "title", id: "d2", problem: "missing", path: "a.title" },
      { label: "Decision", property: "title", id: "d2", problem: "missing", path: "b.title" },
    ]);
  });
});

/**
 * A service over a graph of a describe block's own, which `cypher` writes (plain Cypher per §8)
 * before the block's tests; closed after them.
 */
function servedGraph(cypher: string, parameters?: Record<string, unknown>): { service: RunningService } {
  const graph = {} as { service: RunningService };
  before(async function () {
    await deleteDomainData(testDriver(), testDatabase);
    await ingest(cypher, parameters);
    graph.service = await startService();
  });
  after(async function () {
    await graph.service.close();
  });
  return graph;
}

/**
 * Group dimensions (contract §7) over values the ingest got wrong: a value §3 would report is
 * missing, so every such row, whatever it holds, is in the one group without a value (one row per
 * distinct combination served, nulls last), counted from the index or from the rows alike.
 */
describe("group dimensions over values the ingest stored wrong", function () {
  const graph = servedGraph(`
      CREATE (:Customer {id: 'h1', name: 'H1', health: 'HEALTHY'})
      CREATE (:Customer {id: 'h2', name: 'H2', health: 'HEALTHY'})
      CREATE (:Customer {id: 'h3', name: 'H3', health: 'AT_RISK'})
      CREATE (:Customer {id: 'x1', name: 'X1', health: 'UNKNOWN'})
      CREATE (:Customer {id: 'x2', name: 'X2'})
      CREATE (:Customer {id: 'x3', name: 'X3', health: 5})
      CREATE (:Customer {id: 'x4', name: 'X4', health: 'healthy'})
      CREATE (:Feature {id: 'f1', name: 'F1', stage: 'BETA', shipped: true, team: 'Data'})
      CREATE (:Feature {id: 'f2', name: 'F2', stage: 'BETA', shipped: 'true', team: 7})
      CREATE (:Feature {id: 'f3', name: 'F3', stage: 'BETA', shipped: 1, team: ['Data']})
      CREATE (:Feature {id: 'f4', name: 'F4', stage: 'BETA', shipped: false})`);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
  const answer = async (query: string): Promise<any> => {
    const { status, body } = await graph.service.graphql(query);
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    return body.data;
  };

  it("one group without a value, in every group order, counted from the index or from the rows", async function () {
    const everyId = 'where: {id: {in: ["h1", "h2", "h3", "x1", "x2", "x3", "x4"]}}';
    for (const [order, expected] of [
      [
        "COUNT_DESC",
        [
          { health: null, count: 4 },
          { health: "HEALTHY", count: 2 },
          { health: "AT_RISK", count: 1 },
        ],
      ],
      [
        "COUNT_ASC",
        [
          { health: "AT_RISK", count: 1 },
          { health: "HEALTHY", count: 2 },
          { health: null, count: 4 },
        ],
      ],
      [
        "DIMENSIONS",
        [
          { health: "AT_RISK", count: 1 },
          { health: "HEALTHY", count: 2 },
          { health: null, count: 4 },
        ],
      ],
    ] as const) {
      // Without a filter, a group by one indexed property is counted from its index.
      const data = await answer(
        `{ index: customerGroups(by: [HEALTH], orderBy: ${order}) { health count } rows: customerGroups(by: [HEALTH], orderBy: ${order}, ${everyId}) { health count } }`,
      );
      expect(data.index, order).to.deep.equal(expected);
      expect(data.rows, order).to.deep.equal(expected);
    }
  });

  it("a boolean and a text dimension alike, alone and together", async function () {
    const data = await answer(
      "{ shipped: featureGroups(by: [SHIPPED], orderBy: DIMENSIONS) { shipped count } team: featureGroups(by: [TEAM]) { team count } both: featureGroups(by: [TEAM, SHIPPED], orderBy: DIMENSIONS) { team shipped count } }",
    );
    expect(data.shipped).to.deep.equal([
      { shipped: false, count: 1 },
      { shipped: true, count: 1 },
      { shipped: null, count: 2 },
    ]);
    expect(data.team).to.deep.equal([
      { team: null, count: 3 },
      { team: "Data", count: 1 },
    ]);
    expect(data.both).to.deep.equal([
      { team: "Data", shipped: true, count: 1 },
      { team: null, shipped: false, count: 1 },
      { team: null, shipped: null, count: 2 },
    ]);
  });
});

/**
 * Numbers the schema cannot serve, written as the ingest might (plain Cypher per §8): a NaN and an
 * infinity or an integer beyond 2^53 in a `Float`, an `Int` beyond 32 bits or not whole, numbers
 * written as text. Like any
 * value §3 reports, each is absent to the lists: statistics leave it out, a lower bound does not
 * keep it (as a `where` does not), and an order puts it last. Whole floats beyond 2^53 are
 * servable and page exactly.
 */
describe("numbers the ingest stored beyond what the schema serves", function () {
  const graph = servedGraph(`
      CREATE (:Decision {id: 'a', title: 'A', status: 'DECIDED', regretScore: 0.0 / 0.0, executionGapDays: 3000000000})
      CREATE (:Decision {id: 'b', title: 'B', status: 'DECIDED', regretScore: 1.0 / 0.0, executionGapDays: 2.5})
      CREATE (:Decision {id: 'c', title: 'C', status: 'DECIDED', regretScore: 1e19, executionGapDays: 9223372036854775807})
      CREATE (:Decision {id: 'd', title: 'D', status: 'DECIDED', regretScore: 1e19, executionGapDays: 1})
      CREATE (:Decision {id: 'e', title: 'E', status: 'DECIDED', regretScore: 0.4, executionGapDays: 4.0})
      CREATE (:Decision {id: 'f', title: 'F', status: 'DECIDED', regretScore: 9007199254740993, executionGapDays: -2147483648})
      CREATE (:Decision {id: 'g', title: 'G', status: 'DECIDED', regretScore: '0.5', executionGapDays: '7'})`);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
  const data = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
    const { status, body } = await graph.service.graphql(query, variables);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.data;
  };
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  it("serves none of them: each is a field error at its path, the valid values beside it served", async function () {
    const { status, body } = await graph.service.graphql(
      "{ decisions(orderBy: {field: TITLE, direction: ASC}) { id regretScore executionGapDays } }",
    );
    expect(status).to.equal(200);
    expect(body.data.decisions).to.deep.equal([
      { id: "a", regretScore: null, executionGapDays: null },
      { id: "b", regretScore: null, executionGapDays: null },
      { id: "c", regretScore: 1e19, executionGapDays: null },
      { id: "d", regretScore: 1e19, executionGapDays: 1 },
      { id: "e", regretScore: 0.4, executionGapDays: 4 },
      { id: "f", regretScore: null, executionGapDays: -2147483648 },
      { id: "g", regretScore: null, executionGapDays: null },
    ]);
    const errors = body.errors as {
      path: (string | number)[];
      message: string;
      extensions: { code: string };
    }[];
    expect(errors.map((error) => error.path.join(".")).sort()).to.deep.equal([
      "decisions.0.executionGapDays",
      "decisions.0.regretScore",
      "decisions.1.executionGapDays",
      "decisions.1.regretScore",
      "decisions.2.executionGapDays",
      "decisions.5.regretScore",
      "decisions.6.executionGapDays",
      "decisions.6.regretScore",
    ]);
    expect(errors.every((error) => error.extensions.code === "invalid_stored_value")).to.equal(true);
    const message = (path: string) => errors.find((error) => error.path.join(".") === path)?.message;
    expect(message("decisions.6.regretScore")).to.equal(
      'Decision "g" has a regretScore stored as another type than the schema\'s Float.',
    );
    for (const [path, id] of [
      ["decisions.0.regretScore", "a"],
      ["decisions.1.regretScore", "b"],
      ["decisions.5.regretScore", "f"],
    ] as const)
      expect(message(path), path).to.equal(
        `Decision "${id}" has a regretScore that Float cannot write: not a finite number, or an integer beyond ±2^53.`,
      );
    for (const [path, id] of [
      ["decisions.0.executionGapDays", "a"],
      ["decisions.2.executionGapDays", "c"],
    ] as const)
      expect(message(path), path).to.equal(
        `Decision "${id}" has an executionGapDays outside the range of Int (32-bit).`,
      );
  });

  it("statistics leave them out, without an error", async function () {
    const { status, body } = await graph.service.graphql(
      "{ decisionGroups(by: [STATUS]) { count regretScore { count min max } executionGapDays { count sum max } } }",
    );
    expect(status).to.equal(200);
    expect(body).not.to.have.property("errors");
    expect(body.data.decisionGroups).to.deep.equal([
      {
        count: 7,
        regretScore: { count: 3, min: 0.4, max: 1e19 },
        executionGapDays: { count: 3, sum: -2147483643, max: 4 },
      },
    ]);
  });

  it("a lower bound keeps only servable values, as the same bound in a where does", async function () {
    for (const [argument, where, expected] of [
      ["regretScoreMin: 0.3", "{ regretScore: { gte: 0.3 } }", ["c", "d", "e"]],
      ["executionGapDaysMin: 0", "{ executionGapDays: { gte: 0 } }", ["d", "e"]],
    ] as const) {
      const found = await data(`{ a: decisions(${argument}) { id } b: decisions(where: ${where}) { id } }`);
      expect(ids(found.a).sort(), argument).to.deep.equal(expected);
      expect(ids(found.b).sort(), where).to.deep.equal(expected);
    }
  });

  it("orders them last, by id, and pages through every row once by cursors", async function () {
    const gaps = await data("{ decisions(orderBy: {field: EXECUTION_GAP_DAYS}) { id } }");
    expect(ids(gaps.decisions)).to.deep.equal(["e", "d", "f", "a", "b", "c", "g"]);
    for (const [field, direction, expected] of [
      ["REGRET_SCORE", "ASC", ["e", "c", "d", "a", "b", "f", "g"]],
      ["REGRET_SCORE", "DESC", ["c", "d", "e", "a", "b", "f", "g"]],
      ["EXECUTION_GAP_DAYS", "ASC", ["f", "d", "e", "a", "b", "c", "g"]],
      ["EXECUTION_GAP_DAYS", "DESC", ["e", "d", "f", "a", "b", "c", "g"]],
    ] as const) {
      const paged: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        const { decisionsConnection: connection } = await data(
          `query ($after: String) { decisionsConnection(first: 1, after: $after, orderBy: {field: ${field}, direction: ${direction}}) { nodes { id } pageInfo { hasNextPage endCursor } } }`,
          { after },
        );
        paged.push(...ids(connection.nodes));
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor;
      }
      expect(paged, `${field} ${direction}`).to.deep.equal(expected);
    }
  });
});

/**
 * −0.0 beside 0.0 and the integer 0, which Neo4j's orders (an index, `ORDER BY`) tell apart while
 * `=` holds them equal: paging by cursors gives every row once, in the list's own order, up and
 * down, from the root index and in a nested connection.
 */
describe("zeros of both signs in a number order", function () {
  const graph = servedGraph(`
      CREATE (t:Topic {id: 't', name: 'Zeros'})
      WITH t
      UNWIND [['z1', -0.0, -0.0], ['z2', 0.0, 0.0], ['z3', -0.0, -0.0], ['z4', 0.3, 3], ['z5', 0, 0],
              ['z6', -0.0, -0.0], ['z7', 0.0, 0], ['z8', -0.2, -2]] AS row
      CREATE (:Decision {id: row[0], title: row[0], status: 'DECIDED', regretScore: row[1], executionGapDays: row[2]})-[:ABOUT]->(t)`);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
  const data = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
    const { status, body } = await graph.service.graphql(query, variables);
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    return body.data;
  };
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  for (const field of ["REGRET_SCORE", "EXECUTION_GAP_DAYS"])
    for (const direction of ["ASC", "DESC"])
      it(`pages ${field} ${direction} through every row once, in the list's order`, async function () {
        const order = `orderBy: {field: ${field}, direction: ${direction}}`;
        const listed = await data(
          `{ decisions(${order}) { id } topic(id: "t") { decisions(${order}) { id } } }`,
        );
        expect(ids(listed.topic.decisions)).to.deep.equal(ids(listed.decisions));
        for (const first of [1, 2, 3]) {
          const root: string[] = [];
          const nested: string[] = [];
          let after: string | null = null;
          let nestedAfter: string | null = null;
          for (let page = 0; page < 10; page++) {
            const found = await data(
              `query ($after: String, $nestedAfter: String) {
                decisionsConnection(first: ${String(first)}, after: $after, ${order}) { nodes { id } pageInfo { endCursor } }
                topic(id: "t") { decisionsConnection(first: ${String(first)}, after: $nestedAfter, ${order}) { nodes { id } pageInfo { endCursor } } } }`,
              { after, nestedAfter },
            );
            root.push(...ids(found.decisionsConnection.nodes));
            nested.push(...ids(found.topic.decisionsConnection.nodes));
            after = found.decisionsConnection.pageInfo.endCursor;
            nestedAfter = found.topic.decisionsConnection.pageInfo.endCursor;
            // Past the last row, an empty page: its end cursor is null.
            if (after === null || nestedAfter === null) break;
          }
          expect(root, `first: ${String(first)}`).to.deep.equal(ids(listed.decisions));
          expect(nested, `nested, first: ${String(first)}`).to.deep.equal(ids(listed.decisions));
        }
      });
});

describe("instants at the edges of the years 0000–9999, written at another offset", function () {
  // 10000 UTC and 0000 UTC at −01:00, and the last servable millisecond: Neo4j orders one
  // instant's DATETIMEs by offset, which must not move a value across the servable years.
  const graph = servedGraph(`
      CREATE (:Decision {id: 'e8', title: '10000 UTC', status: 'DECIDED', decidedAt: datetime('9999-12-31T23:00:00-01:00')})
      CREATE (:Decision {id: 'e9', title: '0000 UTC', status: 'DECIDED', decidedAt: datetime('-0001-12-31T23:00:00-01:00')})
      CREATE (:Decision {id: 'e10', title: 'Last', status: 'DECIDED', decidedAt: datetime('9999-12-31T22:59:59.999-01:00')})`);

  it("serves 0000 UTC and the last millisecond, newest first, and 10000 UTC as an undated field error", async function () {
    const { status, body } = await graph.service.graphql("{ decisions { id decidedAt } }");
    expect(status).to.equal(200);
    expect(body.data.decisions).to.deep.equal([
      { id: "e10", decidedAt: "9999-12-31T23:59:59.999Z" },
      { id: "e9", decidedAt: "0000-01-01T00:00:00.000Z" },
      { id: "e8", decidedAt: null },
    ]);
    expect(body.errors).to.have.length(1);
    expect(body.errors[0].path).to.deep.equal(["decisions", 2, "decidedAt"]);
    expect(body.errors[0].extensions.code).to.equal("invalid_stored_value");
  });
});

describe("text keys of any length the ingest stored, paged by cursors", function () {
  const CUT = 256;
  // Two names share their first 300 characters. One is 7,800 bytes, near what Neo4j's range index
  // of names takes: its cursor, uncut, would not fit in a document (10,000 characters).
  const NAMES: Record<string, string> = {
    p1: "A",
    p2: `${"L".repeat(300)}b`,
    p3: `${"L".repeat(300)}${"é".repeat(3750)}`,
    p4: `${"L".repeat(300)}a`,
    p5: "Z",
    p6: "\u{1F600}".repeat(CUT + 4),
  };
  const ASCENDING = ["p1", "p4", "p2", "p3", "p5", "p6"];

  const graph = servedGraph(
    `UNWIND keys($names) AS id CREATE (p:Person {id: id, name: $names[id]})
       WITH collect(p) AS people
       CREATE (g:Disagreement {id: 'g1', summary: 'Long names', resolved: false})
       FOREACH (p IN people | CREATE (p)-[:PARTICIPATED_IN]->(g))`,
    { names: NAMES },
  );

  /** Every row of a connection, one per page, each page's cursor passed as a variable; the cursors' lengths. */
  async function pageThrough(
    connection: (after: string) => string,
    read: (data: Record<string, unknown>) => {
      nodes: { id: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string };
    },
    onPage: (id: string) => Promise<void> = () => Promise.resolve(),
  ): Promise<{ ids: string[]; longest: number }> {
    const ids: string[] = [];
    let after: string | null = null;
    let longest = 0;
    for (let page = 0; page < 10; page++) {
      const { status, body } = await graph.service.graphql(
        `query ($after: String) { ${connection("$after")} }`,
        {
          after,
        },
      );
      expect(status, JSON.stringify(body).slice(0, 300)).to.equal(200);
      expect(body).not.to.have.property("errors");
      const { nodes, pageInfo } = read(body.data);
      ids.push(...nodes.map((node) => node.id));
      for (const node of nodes) await onPage(node.id);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
      longest = Math.max(longest, after.length);
    }
    return { ids, longest };
  }

  it("pages through every row once in both directions, root and nested, with cursors of at most a few hundred bytes", async function () {
    for (const direction of ["ASC", "DESC"]) {
      const expected = direction === "ASC" ? ASCENDING : [...ASCENDING].reverse();
      const root = await pageThrough(
        (after) =>
          `peopleConnection(first: 1, after: ${after}, orderBy: {field: NAME, direction: ${direction}}) { nodes { id } pageInfo { hasNextPage endCursor } }`,
        (data) => data.peopleConnection as never,
      );
      expect(root.ids, `root ${direction}`).to.deep.equal(expected);
      expect(root.longest).to.be.below(1500);
      const nested = await pageThrough(
        (after) =>
          `disagreements(limit: 1) { participantsConnection(first: 1, after: ${after}, orderBy: {field: NAME, direction: ${direction}}) { nodes { id } pageInfo { hasNextPage endCursor } } }`,
        (data) => (data.disagreements as [{ participantsConnection: never }])[0].participantsConnection,
      );
      expect(nested.ids, `nested ${direction}`).to.deep.equal(expected);
    }
  });

  it("a cut cursor fits inline in a document, and a damaged one is 422", async function () {
    const first = await graph.service.graphql("{ peopleConnection(first: 4) { pageInfo { endCursor } } }");
    const cursor = first.body.data.peopleConnection.pageInfo.endCursor as string;
    const { status, body } = await graph.service.graphql(
      `{ peopleConnection(first: 5, after: "${cursor}") { nodes { id } } }`,
    );
    expect(status).to.equal(200);
    expect(body.data.peopleConnection.nodes.map((node: { id: string }) => node.id)).to.deep.equal([
      "p5",
      "p6",
    ]);
    const damaged = Buffer.from(JSON.stringify(["Person", "L".repeat(CUT - 1), "p2", true])).toString(
      "base64url",
    );
    const refused = await graph.service.graphql(
      `{ peopleConnection(after: "${damaged.padEnd(Math.ceil(damaged.length / 4) * 4, "=")}") { nodes { id } } }`,
    );
    expect(refused.status).to.equal(422);
  });

  it("a long key's row deleted between pages: paging goes on from where it stood", async function () {
    await deleteDomainData(testDriver(), testDatabase);
    await ingest(`UNWIND keys($names) AS id CREATE (:Person {id: id, name: $names[id]})`, {
      names: { q1: "A", q2: `M${"é".repeat(3900)}`, q3: "N", q4: "Z" },
    });
    for (const [direction, expected] of [
      ["ASC", ["q1", "q2", "q3", "q4"]],
      ["DESC", ["q4", "q3", "q2", "q1"]],
    ] as const) {
      const { ids } = await pageThrough(
        (after) =>
          `peopleConnection(first: 1, after: ${after}, orderBy: {field: NAME, direction: ${direction}}) { nodes { id } pageInfo { hasNextPage endCursor } }`,
        (data) => data.peopleConnection as never,
        async (id) => {
          if (id === "q2") await ingest("MATCH (p:Person {id: 'q2'}) DETACH DELETE p");
        },
      );
      expect(ids, direction).to.deep.equal(expected);
      await ingest("CREATE (:Person {id: 'q2', name: $name})", { name: `M${"é".repeat(3900)}` });
    }
  });
});
