import { expect } from "chai";
import { encodeCursor } from "../src/cypher/cursor.js";
import { DECISIONS_IN_ORDER, ingest, loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";

interface Page {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: { id: string } }[];
  nodes: { id: string }[];
}

/** What `path` leads to in a query's data (`["topic", "decisionsConnection"]`), asserting a 200 first. */
async function dataAt(service: RunningService, query: string, path: string[]): Promise<unknown> {
  const { status, body } = await service.graphql(query);
  expect(body.errors, `${query}\n${JSON.stringify(body.errors)}`).to.equal(undefined);
  expect(status).to.equal(200);
  let value: unknown = body.data;
  for (const key of path) value = (value as Record<string, unknown>)[key];
  return value;
}

/** The connection `path` leads to (a root field, or `topic.decisionsConnection`). */
async function connection(service: RunningService, query: string, path: string[]): Promise<Page> {
  return (await dataAt(service, query, path)) as Page;
}

const PAGE = "totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id }";

/** `field(args, first, after)`, wrapped by `wrap` (a parent lookup for a nested connection). */
function pageQuery(
  field: string,
  args: string,
  first: number | null,
  after: string | null,
  wrap = (s: string) => s,
) {
  const all = [
    args,
    first === null ? "" : `first: ${String(first)}`,
    after === null ? "" : `after: "${after}"`,
  ]
    .filter((a) => a !== "")
    .join(", ");
  return `{ ${wrap(`${field}${all === "" ? "" : `(${all})`} { ${PAGE} }`)} }`;
}

/**
 * Pages through a connection `first` rows at a time, checking each page's own consistency
 * (`edges` and `nodes` agree, `endCursor` is the last edge's cursor, `totalCount` stays), and
 * returns the ids in order with the total.
 */
async function walk(
  service: RunningService,
  field: string,
  args: string,
  first: number,
  wrap?: { around: (s: string) => string; path: string[] },
): Promise<{ ids: string[]; totalCount: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let totalCount: number | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await connection(service, pageQuery(field, args, first, after, wrap?.around), [
      ...(wrap?.path ?? []),
      field,
    ]);
    expect(page.nodes.map((n) => n.id)).to.deep.equal(page.edges.map((e) => e.node.id));
    expect(page.edges.length).to.be.at.most(first);
    expect(page.pageInfo.endCursor).to.equal(page.edges.at(-1)?.cursor ?? null);
    totalCount ??= page.totalCount;
    expect(page.totalCount).to.equal(totalCount);
    ids.push(...page.nodes.map((n) => n.id));
    if (!page.pageInfo.hasNextPage) {
      return { ids, totalCount };
    }
    expect(page.edges.length).to.equal(first);
    after = page.pageInfo.endCursor;
  }
  throw new Error(`${field}(${args}) did not end`);
}

/** The ids of a list field, asked with `limit: 100` (the fixture's lists are shorter). */
async function listIds(service: RunningService, query: string, path: string[]): Promise<string[]> {
  return ((await dataAt(service, query, path)) as { id: string }[]).map((row) => row.id);
}

const ROOT_CASES: Record<string, string[]> = {
  decisions: [
    "",
    "status: DECIDED",
    'topicId: "t1"',
    'topicId: "t2", status: EXECUTED',
    'since: "2025-03-31"',
    'until: "2025-03-31"',
    'since: "2025-03-31", until: "2025-03-31"',
    'until: "2025-03-30"',
    "regretScoreMin: 0.5",
    "executionGapDaysMin: 10",
    "status: DECIDED, regretScoreMin: 0.2",
    'topicId: "nope"',
  ],
  features: [
    "",
    "stage: IDEA",
    'team: "Data"',
    'ownerId: "p1"',
    "shipped: false",
    'team: "Data", shipped: false',
  ],
  topics: [""],
  customers: ["", "health: HEALTHY"],
  people: [""],
  disagreements: ["", 'topicId: "t2"', "resolved: false", 'topicId: "t1", resolved: true'],
};

/** Nested connections: the parent lookup, the list field and its connection. */
const NESTED_CASES = [
  { parent: 'topic(id: "t1")', path: ["topic"], list: "decisions", field: "decisionsConnection" },
  { parent: 'topic(id: "t2")', path: ["topic"], list: "disagreements", field: "disagreementsConnection" },
  {
    parent: 'decision(id: "d7")',
    path: ["decision", "decidedBy"],
    list: "decisionsMade",
    field: "decisionsMadeConnection",
    inner: "decidedBy",
  },
  {
    parent: 'decision(id: "d1")',
    path: ["decision", "decidedBy"],
    list: "openCommitments",
    field: "openCommitmentsConnection",
    inner: "decidedBy",
  },
  {
    parent: 'features(team: "Platform")',
    path: ["features", "0"],
    list: "requestedBy",
    field: "requestedByConnection",
  },
  {
    parent: "customers(health: HEALTHY)",
    path: ["customers", "0"],
    list: "requestedFeatures",
    field: "requestedFeaturesConnection",
  },
  {
    parent: "disagreements(resolved: false)",
    path: ["disagreements", "0"],
    list: "participants",
    field: "participantsConnection",
  },
];

describe("connections (contract §7, v1 additions) on the fixture graph", () => {
  let service: RunningService;
  before(async () => {
    await loadFixtures();
    service = await startService();
  });
  after(() => service.close());

  describe("root connections page through exactly their list field's rows", () => {
    for (const [list, cases] of Object.entries(ROOT_CASES)) {
      for (const args of cases) {
        it(`${list}Connection(${args})`, async () => {
          const expected = await listIds(
            service,
            `{ ${list}(${[args, "limit: 100"].filter((a) => a !== "").join(", ")}) { id } }`,
            [list],
          );
          for (const first of [1, 2, 3, 100]) {
            const { ids, totalCount } = await walk(service, `${list}Connection`, args, first);
            expect(ids, `first: ${String(first)}`).to.deep.equal(expected);
            expect(totalCount).to.equal(expected.length);
          }
          // Counted alone, without a page read (src/cypher/connections.ts).
          const alone = await dataAt(
            service,
            `{ ${list}Connection${args === "" ? "" : `(${args})`} { totalCount } }`,
            [`${list}Connection`, "totalCount"],
          );
          expect(alone, "totalCount alone").to.equal(expected.length);
        });
      }
    }
  });

  describe("nested connections page through exactly their list field's rows, duplicates once", () => {
    for (const { parent, path, list, field, inner } of NESTED_CASES) {
      it(`${parent} { ${inner === undefined ? "" : `${inner} { `}${field} }`, async () => {
        const around = (s: string) => `${parent} { ${inner === undefined ? s : `${inner} { ${s} }`} }`;
        const expected = await listIds(service, `{ ${around(`${list}(limit: 100) { id }`)} }`, [
          ...path,
          list,
        ]);
        expect(expected.length).to.be.at.least(2);
        for (const first of [1, 2, 100]) {
          const { ids, totalCount } = await walk(service, field, "", first, { around, path });
          expect(ids, `first: ${String(first)}`).to.deep.equal(expected);
          expect(totalCount).to.equal(expected.length);
        }
      });
    }
  });

  describe("a nested connection in a text order, past U+E000 and U+1F600 (stored strings compare by code point)", () => {
    // Written as the ingest side writes them (§8); removed after, so the other tests see the fixture.
    before(() =>
      ingest(`
        CREATE (f:Feature {id: 'f-text', name: 'Text order', stage: 'IDEA', team: 'text-order', shipped: false})
        CREATE (:Customer {id: 'c-emoji', name: 'Zebra \\uD83D\\uDE00', health: 'HEALTHY'})-[:REQUESTED]->(f)
        CREATE (:Customer {id: 'c-pua', name: 'Zebra \\uE000', health: 'HEALTHY'})-[:REQUESTED]->(f)
        CREATE (:Customer {id: 'c-plain', name: 'Zebra', health: 'HEALTHY'})-[:REQUESTED]->(f)
      `),
    );
    after(() => ingest("MATCH (n) WHERE n.id IN ['f-text', 'c-emoji', 'c-pua', 'c-plain'] DETACH DELETE n"));

    it("pages feature.requestedByConnection(orderBy: NAME) in both directions, every row once", async () => {
      const around = (s: string) => `features(team: "text-order") { ${s} }`;
      for (const [direction, expected] of [
        ["ASC", ["c-plain", "c-pua", "c-emoji"]],
        ["DESC", ["c-emoji", "c-pua", "c-plain"]],
      ] as const) {
        for (const first of [1, 2]) {
          const args = `orderBy: {field: NAME, direction: ${direction}}`;
          const { ids } = await walk(service, "requestedByConnection", args, first, {
            around,
            path: ["features", "0"],
          });
          expect(ids, `${direction}, first: ${String(first)}`).to.deep.equal(expected);
        }
      }
    });
  });

  it("answers the last page, an empty page after the last row, and the default page of 20", async () => {
    const all = await connection(service, pageQuery("decisionsConnection", "", null, null), [
      "decisionsConnection",
    ]);
    expect(all.nodes.map((n) => n.id)).to.deep.equal(DECISIONS_IN_ORDER);
    expect(all.pageInfo.hasNextPage).to.equal(false);
    const last = all.edges.at(-1)?.cursor ?? "";
    const empty = await connection(service, pageQuery("decisionsConnection", "", 5, last), [
      "decisionsConnection",
    ]);
    expect(empty).to.deep.equal({
      totalCount: DECISIONS_IN_ORDER.length,
      pageInfo: { hasNextPage: false, endCursor: null },
      edges: [],
      nodes: [],
    });
    const { body } = await service.graphql(
      "query ($first: Int) { decisionsConnection(first: $first) { nodes { id } } }",
      { first: null },
    );
    expect(body.data.decisionsConnection.nodes).to.have.length(DECISIONS_IN_ORDER.length);
  });

  it("answers a field selected under two aliases in nodes, edges and pageInfo (found by the fuzz test)", async () => {
    const { status, body } = await service.graphql(`{ topicsConnection(first: 2) {
      a: nodes { id again: id name } edges { cursor c: cursor node { id x: id } } pageInfo { endCursor e: endCursor }
    } }`);
    expect(status, JSON.stringify(body)).to.equal(200);
    const page = body.data.topicsConnection;
    expect(page.a).to.deep.equal([
      { id: "t2", again: "t2", name: "Hiring" },
      { id: "t3", again: "t3", name: "Observability" },
    ]);
    for (const edge of page.edges) {
      expect(edge.c).to.equal(edge.cursor);
      expect(edge.node.x).to.equal(edge.node.id);
    }
    expect(page.pageInfo.e).to.equal(page.pageInfo.endCursor).and.to.equal(page.edges[1].cursor);
  });

  it("takes a cursor from another list of the same element type (a topic's decisions at the root)", async () => {
    const nested = await connection(
      service,
      `{ topic(id: "t1") { decisionsConnection(first: 1) { ${PAGE} } } }`,
      ["topic", "decisionsConnection"],
    );
    const [first] = nested.edges;
    expect(first?.node.id).to.equal("d1");
    const root = await connection(service, pageQuery("decisionsConnection", "", 3, first?.cursor ?? null), [
      "decisionsConnection",
    ]);
    expect(root.nodes.map((n) => n.id)).to.deep.equal(["d6", "d9", "d2"]);
  });

  it("keeps a cursor's position while rows are added before it and its own row is deleted", async () => {
    const page = await connection(service, pageQuery("decisionsConnection", "", 3, null), [
      "decisionsConnection",
    ]);
    expect(page.nodes.map((n) => n.id)).to.deep.equal(["d5", "d10", "d66"]);
    const cursor = page.pageInfo.endCursor;
    try {
      await ingest(
        `CREATE (:Decision {id: 'd0', title: 'Newest', status: 'DECIDED', decidedAt: datetime('2026-01-01T00:00:00Z')})`,
      );
      await ingest("MATCH (d:Decision {id: 'd66'}) DETACH DELETE d");
      const next = await connection(service, pageQuery("decisionsConnection", "", 3, cursor), [
        "decisionsConnection",
      ]);
      expect(next.nodes.map((n) => n.id)).to.deep.equal(["d1", "d6", "d9"]);
      expect(next.totalCount).to.equal(DECISIONS_IN_ORDER.length);
    } finally {
      await loadFixtures();
    }
  });

  describe("refusals (422 validation_failed), on both sides of each limit", () => {
    const refused = async (query: string, variables?: Record<string, unknown>) => {
      const { status, body } = await service.graphql(query, variables);
      expect(status, JSON.stringify(body)).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
      return body.errors[0].message as string;
    };

    it("takes first 1 and 100, refuses 0 and 101, as literals and variables", async () => {
      for (const first of [1, 100]) {
        const page = await connection(service, pageQuery("topicsConnection", "", first, null), [
          "topicsConnection",
        ]);
        expect(page.edges.length).to.equal(Math.min(first, 3));
      }
      for (const first of [0, 101, -1]) {
        expect(await refused(`{ topicsConnection(first: ${String(first)}) { totalCount } }`)).to.equal(
          `Argument "first" on field "Query.topicsConnection" must be an integer from 1 to 100; got ${String(first)}.`,
        );
        await refused(
          'query ($n: Int) { topic(id: "t1") { decisionsConnection(first: $n) { totalCount } } }',
          {
            n: first,
          },
        );
      }
    });

    it("refuses a damaged cursor, one character changed, and another element type's cursor", async () => {
      const page = await connection(service, pageQuery("decisionsConnection", "", 1, null), [
        "decisionsConnection",
      ]);
      const cursor = page.pageInfo.endCursor ?? "";
      const changed = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`;
      const topics = await connection(service, pageQuery("topicsConnection", "", 1, null), [
        "topicsConnection",
      ]);
      // A well-formed position whose base64 needs padding, written without it.
      const padded = encodeCursor(["Decision", "1743465600", 0, "d"]);
      expect(padded).to.match(/=$/);
      const unpadded = padded.replace(/=+$/, "");
      for (const after of [
        changed,
        "",
        "not a cursor",
        `${cursor}=`,
        unpadded,
        encodeCursor(["Decision", "1", 2]),
        // Well-formed, but beyond any instant the service writes: Neo4j would fail on it (a 500).
        encodeCursor(["Decision", "999999999999", 0, "d"]),
      ]) {
        const message = await refused(
          "query ($a: String) { decisionsConnection(after: $a) { totalCount } }",
          {
            a: after,
          },
        );
        expect(message).to.match(
          /^Argument "after" on field "Query.decisionsConnection" is not a cursor of this list/,
        );
      }
      // A date no calendar has, in a date's order.
      expect(
        await refused(
          "query ($a: String) { featuresConnection(orderBy: {field: SHIPPED_ON}, after: $a) { totalCount } }",
          { a: encodeCursor(["Feature/SHIPPED_ON/ASC", "2025-02-30", "f1"]) },
        ),
      ).to.match(/^Argument "after" on field "Query.featuresConnection" is not a cursor of this list/);
      expect(
        await refused(`{ decisionsConnection(after: "${topics.pageInfo.endCursor ?? ""}") { totalCount } }`),
      ).to.equal(
        'Argument "after" on field "Query.decisionsConnection" is a cursor of a list of Topic, not of Decision.',
      );
      // The padded form passes: d5 is at that instant, with a higher id.
      const atInstant = await connection(service, pageQuery("decisionsConnection", "", 1, padded), [
        "decisionsConnection",
      ]);
      expect(atInstant.nodes.map((n) => n.id)).to.deep.equal(["d5"]);
      // The unchanged cursor passes.
      const next = await connection(service, pageQuery("decisionsConnection", "", 1, cursor), [
        "decisionsConnection",
      ]);
      expect(next.nodes.map((n) => n.id)).to.deep.equal([DECISIONS_IN_ORDER[1]]);
    });
  });

  it("costs a connection as one object whose edges and nodes are lists of its `first` (§5)", async () => {
    const { body } = await service.graphql(
      "{ decisionsConnection(first: 50) { totalCount edges { cursor node { title } } } }",
    );
    expect(body.extensions.cost).to.deep.equal({ requested: 101, limit: 50000 });
    const nested = await service.graphql(
      "{ topics(limit: 10) { decisionsConnection(first: 5) { nodes { decidedBy { name } } pageInfo { hasNextPage } } } }",
    );
    // 10 × (1 + (1 + 5 × (1 + 1) + 1)) = 130
    expect(nested.body.extensions.cost).to.deep.equal({ requested: 130, limit: 50000 });
  });
});
