import { expect } from "chai";
import { encodeCursor } from "../src/cypher/cursor.js";
import { byCodePoint } from "./support/code-points.js";
import { ingest, loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

// Contract §7, v1 additions part 2: `orderBy` on lists and connections, root and nested. Every
// order is checked against an oracle in TypeScript over the graph's raw values (read with plain
// Cypher): the values a row can serve sorted in the direction asked, rows without one (none, or
// one of another type) last in both directions, ties by `id` ascending.

/** Rows the ingest writes beside the fixture (plain Cypher, §8's model): ties, and values of other types. */
const MORE_ROWS = `
MATCH (t1:Topic {id: 't1'}), (p1:Person {id: 'p1'}), (g2:Disagreement {id: 'g2'})
CREATE (x1:Decision {id: 'dx1', title: 'Adopt usage-based pricing', status: 'DECIDED', regretScore: 1,
                     executionGapDays: -5, decidedAt: datetime('2025-03-31T16:05:00.123+02:00')})
CREATE (x2:Decision {id: 'dx2', title: 42, status: 'DECIDED', regretScore: 'high', decidedAt: '2025-01-01'})
CREATE (x1)-[:ABOUT]->(t1), (x2)-[:ABOUT]->(t1), (x1)-[:DECIDED_BY]->(p1), (x2)-[:DECIDED_BY]->(p1)
CREATE (:Feature {id: 'fx1', name: 'Audit log', stage: 'IDEA', shipped: true, shippedOn: date('2025-01-15')})
CREATE (:Feature {id: 'fx2', name: 'Changelog', stage: 'IDEA', shipped: true, shippedOn: '2025-01-20'})
CREATE (gx1:Disagreement {id: 'gx1', summary: 'Same hour, other zone', resolved: true,
                          resolvedAt: datetime('2025-02-10T18:00:00+01:00')})
CREATE (gx1)-[:ABOUT]->(t1), (p1)-[:PARTICIPATED_IN]->(gx1)
CREATE (:Customer {id: 'cx1', name: 'Acme', health: 'HEALTHY'})
CREATE (:Person {id: 'px1', team: 'Data'})
CREATE (p1)-[:PARTICIPATED_IN]->(g2)
`;

type Kind = "instant" | "text" | "number" | "date";

/** A value as the oracle compares it: an instant as [epoch seconds, nanoseconds], else as read. */
type Key = number | string | [number, number] | null;

/** Cypher reading a property's raw value for the oracle: the value when §8's type holds it, else null. */
function rawRead(v: string, property: string, kind: Kind): string {
  const x = `${v}.${property}`;
  switch (kind) {
    case "instant":
      return `CASE WHEN ${x} IS :: ZONED DATETIME NOT NULL THEN [${x}.epochSeconds, ${x}.nanosecond] END`;
    case "text":
      return `CASE WHEN ${x} IS :: STRING THEN ${x} END`;
    case "number":
      return `CASE WHEN ${x} IS :: INTEGER | FLOAT THEN toFloat(${x}) END`;
    case "date":
      return `CASE WHEN ${x} IS :: DATE THEN toString(${x}) END`;
  }
}

function compareKeys(a: Key, b: Key): number {
  if (Array.isArray(a) && Array.isArray(b)) return a[0] - b[0] || a[1] - b[1];
  if (typeof a === "number" && typeof b === "number") return a - b;
  return byCodePoint(String(a), String(b));
}

/** The oracle: ids in the order contract §7 states. */
function inOrder(rows: { id: string; key: Key }[], direction: "ASC" | "DESC"): string[] {
  const valued = rows.filter((row) => row.key !== null);
  const unvalued = rows.filter((row) => row.key === null);
  const byId = (a: { id: string }, b: { id: string }) => byCodePoint(a.id, b.id);
  valued.sort((a, b) => (direction === "ASC" ? 1 : -1) * compareKeys(a.key, b.key) || byId(a, b));
  return [...valued, ...unvalued.sort(byId)].map((row) => row.id);
}

/** The root lists and what they can be ordered by (contract §7 part 2). */
const LISTS = [
  {
    type: "Decision",
    label: "Decision",
    list: "decisions",
    default: "DESC",
    fields: {
      DECIDED_AT: ["decidedAt", "instant"],
      REGRET_SCORE: ["regretScore", "number"],
      EXECUTION_GAP_DAYS: ["executionGapDays", "number"],
      TITLE: ["title", "text"],
    },
  },
  {
    type: "Feature",
    label: "Feature",
    list: "features",
    default: "ASC",
    fields: { NAME: ["name", "text"], SHIPPED_ON: ["shippedOn", "date"] },
  },
  {
    type: "Disagreement",
    label: "Disagreement",
    list: "disagreements",
    default: "DESC",
    fields: { RAISED_AT: ["raisedAt", "instant"], RESOLVED_AT: ["resolvedAt", "instant"] },
  },
  { type: "Topic", label: "Topic", list: "topics", default: "ASC", fields: { NAME: ["name", "text"] } },
  {
    type: "Customer",
    label: "Customer",
    list: "customers",
    default: "ASC",
    fields: { NAME: ["name", "text"] },
  },
  { type: "Person", label: "Person", list: "people", default: "ASC", fields: { NAME: ["name", "text"] } },
] as const;

/** Every list, field and direction (the direction left out too: the input's default). */
const CASES = LISTS.flatMap((list) =>
  Object.entries(list.fields).flatMap(([field, [property, kind]]) =>
    (["ASC", "DESC", undefined] as const).map((direction) => ({
      list,
      field,
      property,
      kind: kind as Kind,
      direction: direction ?? list.default,
      orderBy: `{field: ${field}${direction === undefined ? "" : `, direction: ${direction}`}}`,
    })),
  ),
);

describe("orderBy (contract §7, v1 additions part 2) on the ingest-style fixture", () => {
  let service: RunningService;
  /** The oracle's raw rows, by label and property. */
  const raw = new Map<string, { id: string; key: Key; parents: string[] }[]>();

  before(async () => {
    await loadFixtures();
    await ingest(MORE_ROWS);
    service = await startService();
    for (const { list, property, kind } of CASES) {
      const name = `${list.label}.${property}`;
      if (raw.has(name)) continue;
      // The parent a nested list hangs from: a decision's topics, a disagreement's topics, a
      // feature's requesters, a customer's or person's features or disagreements.
      const parents = {
        Decision: "[(n)-[:ABOUT]->(t:Topic) | t.id]",
        Disagreement: "[(n)-[:ABOUT]->(t:Topic) | t.id]",
        Feature: "[(c:Customer)-[:REQUESTED]->(n) | c.id]",
        Topic: "[]",
        Customer: "[(n)-[:REQUESTED]->(f:Feature) | f.id]",
        Person: "[(n)-[:PARTICIPATED_IN]->(g:Disagreement) | g.id]",
      }[list.label];
      const { records } = await testDriver().executeQuery(
        `MATCH (n:${list.label}) RETURN n.id AS id, ${rawRead("n", property, kind)} AS key, ${parents} AS parents`,
        {},
        { database: testDatabase },
      );
      raw.set(
        name,
        records.map((record) => {
          const read = record.get("key") as Key | unknown[];
          let key: Key = Array.isArray(read) ? [Number(read[0]), Number(read[1])] : read;
          // Servable only: instants and dates of the years 0000–9999, finite numbers.
          if (Array.isArray(key) && (key[0] < -62167219200 || key[0] >= 253402300800)) key = null;
          if (typeof key === "number" && !Number.isFinite(key)) key = null;
          return {
            id: record.get("id") as string,
            key,
            parents: [...new Set(record.get("parents") as string[])],
          };
        }),
      );
    }
  });
  after(async () => {
    await service.close();
    await loadFixtures();
  });

  const ids = async (query: string, path: string[], variables?: Record<string, unknown>) => {
    const { status, body } = await service.graphql(query, variables);
    expect(body.errors, `${query}\n${JSON.stringify(body.errors)}`).to.equal(undefined);
    expect(status).to.equal(200);
    let value: unknown = body.data;
    for (const key of path) value = (value as Record<string, unknown>)[key];
    return (value as { id: string }[]).map((row) => row.id);
  };

  /** Walks a connection two rows at a time, checking edges, nodes and cursors agree; the ids in order. */
  const walk = async (field: string, args: string, wrap = (s: string) => s, path: string[] = []) => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const all = [args, "first: 2", ...(after === null ? [] : [`after: "${after}"`])].join(", ");
      const query = `{ ${wrap(`${field}(${all}) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id } }`)} }`;
      const { status, body } = await service.graphql(query);
      expect(body.errors, `${query}\n${JSON.stringify(body.errors)}`).to.equal(undefined);
      expect(status).to.equal(200);
      let value: unknown = body.data;
      for (const key of [...path, field]) value = (value as Record<string, unknown>)[key];
      const connection = value as {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        edges: { cursor: string; node: { id: string } }[];
        nodes: { id: string }[];
      };
      expect(connection.edges.map((edge) => edge.node.id)).to.deep.equal(connection.nodes.map((n) => n.id));
      expect(connection.pageInfo.endCursor).to.equal(connection.edges.at(-1)?.cursor ?? null);
      seen.push(...connection.nodes.map((n) => n.id));
      if (!connection.pageInfo.hasNextPage) return seen;
      after = connection.pageInfo.endCursor;
    }
    throw new Error(`${field}(${args}) did not end`);
  };

  describe("root lists and connections, every field and direction", () => {
    for (const { list, field, property, direction, orderBy } of CASES) {
      it(`${list.list}(orderBy: ${orderBy}): the oracle's order, the connection walked to its end`, async () => {
        const expected = inOrder(raw.get(`${list.label}.${property}`) ?? [], direction);
        expect(
          await ids(`{ ${list.list}(orderBy: ${orderBy}, limit: 100) { id } }`, [list.list]),
        ).to.deep.equal(expected);
        expect(
          await ids(`{ ${list.list}(orderBy: ${orderBy}, limit: 3) { id } }`, [list.list]),
        ).to.deep.equal(expected.slice(0, 3));
        expect(await walk(`${list.list}Connection`, `orderBy: ${orderBy}`), field).to.deep.equal(expected);
      });
    }
  });

  describe("lists under a parent, and root lists starting from one", () => {
    const nested = [
      { type: "Decision", parent: 'topic(id: "t1")', field: "decisions", parentId: "t1" },
      { type: "Disagreement", parent: 'topic(id: "t1")', field: "disagreements", parentId: "t1" },
      { type: "Customer", parent: "features(limit: 1)", field: "requestedBy", parentId: "f1" },
      { type: "Feature", parent: "customers(limit: 1)", field: "requestedFeatures", parentId: "c2" },
      {
        type: "Person",
        parent: 'disagreements(topicId: "t1", limit: 1)',
        field: "participants",
        parentId: "g2",
      },
    ];
    for (const { type, parent, field, parentId } of nested) {
      it(`${parent} { ${field} } in every order, as a list and as a connection`, async () => {
        for (const c of CASES.filter((c) => c.list.type === type)) {
          const rows = (raw.get(`${c.list.label}.${c.property}`) ?? []).filter((row) =>
            row.parents.includes(parentId),
          );
          const expected = inOrder(rows, c.direction);
          const parentField = parent.replace(/\(.*/, "");
          const wrap = (s: string) => `${parent} { ${s} }`;
          const data = await service.graphql(`{ ${wrap(`${field}(orderBy: ${c.orderBy}) { id }`)} }`);
          expect(data.body.errors, JSON.stringify(data.body.errors)).to.equal(undefined);
          const at = data.body.data[parentField];
          const holder = (Array.isArray(at) ? at[0] : at) as Record<string, { id: string }[]>;
          expect(
            (holder[field] ?? []).map((row) => row.id),
            `${field}(orderBy: ${c.orderBy})`,
          ).to.deep.equal(expected);
          if (!Array.isArray(at)) {
            expect(
              await walk(`${field}Connection`, `orderBy: ${c.orderBy}`, wrap, [parentField]),
            ).to.deep.equal(expected);
          }
        }
      });
    }

    it("decisions(topicId) and disagreementsConnection(topicId) order the topic's rows", async () => {
      for (const c of CASES.filter((c) => c.list.type === "Decision" || c.list.type === "Disagreement")) {
        const rows = (raw.get(`${c.list.label}.${c.property}`) ?? []).filter((row) =>
          row.parents.includes("t1"),
        );
        const expected = inOrder(rows, c.direction);
        expect(
          await ids(`{ ${c.list.list}(topicId: "t1", orderBy: ${c.orderBy}) { id } }`, [c.list.list]),
        ).to.deep.equal(expected);
        expect(await walk(`${c.list.list}Connection`, `topicId: "t1", orderBy: ${c.orderBy}`)).to.deep.equal(
          expected,
        );
      }
    });

    it("combines an order with filters (status, a date range) and takes it from variables", async () => {
      const decided = ["d1", "d5", "d7", "d8", "d10", "dx1", "dx2"];
      const byTitle = inOrder(
        (raw.get("Decision.title") ?? []).filter((row) => decided.includes(row.id)),
        "ASC",
      );
      expect(
        await ids(`{ decisions(status: DECIDED, orderBy: {field: TITLE, direction: ASC}) { id } }`, [
          "decisions",
        ]),
      ).to.deep.equal(byTitle);
      expect(
        await ids(
          "query ($o: DecisionOrder) { decisions(status: DECIDED, orderBy: $o) { id } }",
          ["decisions"],
          { o: { field: "TITLE", direction: "ASC" } },
        ),
      ).to.deep.equal(byTitle);
      expect(
        await ids(
          "query ($f: DecisionOrderField!, $d: OrderDirection!) { decisions(status: DECIDED, orderBy: {field: $f, direction: $d}) { id } }",
          ["decisions"],
          { f: "TITLE", d: "ASC" },
        ),
      ).to.deep.equal(byTitle);
      // The same document, another order through its variables: never the first one's Cypher.
      expect(
        await ids(
          "query ($f: DecisionOrderField!, $d: OrderDirection!) { decisions(status: DECIDED, orderBy: {field: $f, direction: $d}) { id } }",
          ["decisions"],
          { f: "TITLE", d: "DESC" },
        ),
      ).to.deep.equal(
        inOrder(
          (raw.get("Decision.title") ?? []).filter((row) => decided.includes(row.id)),
          "DESC",
        ),
      );
      // Decided on 2025-03-31 in UTC, whatever zone the instant was written in: oldest first.
      const day = [Date.UTC(2025, 2, 31) / 1000, Date.UTC(2025, 3, 1) / 1000];
      const onTheDay = (raw.get("Decision.decidedAt") ?? []).filter(
        (row) => Array.isArray(row.key) && row.key[0] >= (day[0] ?? 0) && row.key[0] < (day[1] ?? 0),
      );
      expect(onTheDay.length).to.equal(8);
      expect(
        await ids(
          '{ decisions(since: "2025-03-31", until: "2025-03-31", orderBy: {field: DECIDED_AT, direction: ASC}) { id } }',
          ["decisions"],
        ),
      ).to.deep.equal(inOrder(onTheDay, "ASC"));
    });

    it("orderBy naming a list's own order answers it, with the same cursors", async () => {
      const own = await ids("{ decisions(limit: 100) { id } }", ["decisions"]);
      expect(
        await ids("{ decisions(orderBy: {field: DECIDED_AT}, limit: 100) { id } }", ["decisions"]),
      ).to.deep.equal(own);
      const plain = await service.graphql("{ decisionsConnection(first: 2) { pageInfo { endCursor } } }");
      const named = await service.graphql(
        "{ decisionsConnection(first: 2, orderBy: {field: DECIDED_AT, direction: DESC}) { pageInfo { endCursor } } }",
      );
      expect(named.body.data).to.deep.equal(plain.body.data);
      expect(await ids("{ topics(orderBy: null, limit: 100) { id } }", ["topics"])).to.deep.equal(
        await ids("{ topics(limit: 100) { id } }", ["topics"]),
      );
    });
  });

  describe("cursors belong to their order (422 validation_failed)", () => {
    const refused = async (query: string) => {
      const { status, body } = await service.graphql(query);
      expect(status, JSON.stringify(body)).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
      return body.errors[0].message as string;
    };

    it("refuses a cursor of another order or of none, and takes one of its own", async () => {
      const { body } = await service.graphql(
        "{ decisionsConnection(first: 1, orderBy: {field: REGRET_SCORE}) { pageInfo { endCursor } } }",
      );
      const regret = body.data.decisionsConnection.pageInfo.endCursor as string;
      expect(await refused(`{ decisionsConnection(after: "${regret}") { totalCount } }`)).to.equal(
        'Argument "after" on field "Query.decisionsConnection" is a cursor of the order REGRET_SCORE DESC, not of DECIDED_AT DESC (contract §7: a cursor names a position in its own order).',
      );
      expect(
        await refused(
          `{ decisionsConnection(after: "${regret}", orderBy: {field: REGRET_SCORE, direction: ASC}) { totalCount } }`,
        ),
      ).to.match(/is a cursor of the order REGRET_SCORE DESC, not of REGRET_SCORE ASC/);
      const own = encodeCursor(["Topic", "Hiring", "t2"]);
      expect(
        await refused(`{ topicsConnection(after: "${own}", orderBy: {direction: DESC}) { totalCount } }`),
      ).to.match(/is a cursor of the order NAME ASC, not of NAME DESC/);
      // Through a variable, and nested.
      const viaVariable = await service.graphql(
        'query ($o: DecisionOrder, $a: String) { topic(id: "t1") { decisionsConnection(orderBy: $o, after: $a) { totalCount } } }',
        { o: { field: "TITLE" }, a: regret },
      );
      expect(viaVariable.status).to.equal(422);
      const accepted = await service.graphql(
        `{ decisionsConnection(after: "${regret}", orderBy: {field: REGRET_SCORE}, first: 100) { nodes { id } } }`,
      );
      expect(accepted.status).to.equal(200);
      const expected = inOrder(raw.get("Decision.regretScore") ?? [], "DESC");
      expect(accepted.body.data.decisionsConnection.nodes.map((n: { id: string }) => n.id)).to.deep.equal(
        expected.slice(1),
      );
    });
  });

  it("costs nothing of its own (§5)", async () => {
    const { body } = await service.graphql(
      "{ decisions(limit: 10, orderBy: {field: TITLE}) { id } topicsConnection(first: 5, orderBy: {direction: DESC}) { nodes { id } } }",
    );
    expect(body.extensions.cost).to.deep.equal({ requested: 16, limit: 50000 });
  });
});
