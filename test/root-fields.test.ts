import { expect } from "chai";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService, withoutCost } from "./support/service.js";

/** The ids of a root list field's answer, asserting a 200 without errors first. */
async function ids(service: RunningService, query: string, variables?: Record<string, unknown>) {
  const { status, body } = await service.graphql(query, variables);
  expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
  expect(status).to.equal(200);
  const [list] = Object.values(body.data as Record<string, { id: string }[]>);
  return list?.map((row) => row.id);
}

describe("root fields on the fixture graph", () => {
  let service: RunningService;
  before(async () => {
    await loadFixtures();
    service = await startService();
  });
  after(() => service.close());

  describe("decisions", () => {
    it("orders newest decidedAt first, ties by id, undated last", async () => {
      expect(await ids(service, "{ decisions { id } }")).to.deep.equal([
        "d5",
        "d1",
        "d6",
        "d2",
        "d3",
        "d4",
        "d7",
      ]);
    });

    it("keeps decisions on or after 00:00 UTC of `since` (a millisecond before is out)", async () => {
      expect(await ids(service, '{ decisions(since: "2025-03-31") { id } }')).to.deep.equal([
        "d5",
        "d1",
        "d6",
        "d2",
      ]);
      expect(await ids(service, '{ decisions(since: "2025-04-02") { id } }')).to.deep.equal([]);
    });

    it("takes `since` as a variable", async () => {
      expect(
        await ids(service, "query ($since: Date) { decisions(since: $since) { id } }", {
          since: "2025-04-01",
        }),
      ).to.deep.equal(["d5"]);
    });

    it("filters by regretScoreMin inclusively and never matches a null score", async () => {
      expect(await ids(service, "{ decisions(regretScoreMin: 0.5) { id } }")).to.deep.equal([
        "d5",
        "d1",
        "d3",
      ]);
      expect(await ids(service, "{ decisions(regretScoreMin: 0) { id } }")).to.deep.equal([
        "d5",
        "d1",
        "d2",
        "d3",
      ]);
    });

    it("filters by executionGapDaysMin inclusively and never matches a null gap", async () => {
      expect(await ids(service, "{ decisions(executionGapDaysMin: 10) { id } }")).to.deep.equal(["d2", "d3"]);
      expect(await ids(service, "{ decisions(executionGapDaysMin: 0) { id } }")).to.deep.equal([
        "d5",
        "d2",
        "d3",
      ]);
    });

    it("filters by status and by topicId, and combines filters", async () => {
      expect(await ids(service, "{ decisions(status: DECIDED) { id } }")).to.deep.equal(["d5", "d1", "d7"]);
      expect(await ids(service, '{ decisions(topicId: "t1") { id } }')).to.deep.equal(["d1", "d2", "d4"]);
      expect(
        await ids(service, '{ decisions(topicId: "t1", since: "2025-03-31", regretScoreMin: 0.3) { id } }'),
      ).to.deep.equal(["d1"]);
      expect(await ids(service, '{ decisions(topicId: "T1") { id } }')).to.deep.equal([]);
    });

    it("returns every scalar in the contract's formats", async () => {
      const { body } = await service.graphql(
        '{ decisions(topicId: "t1", limit: 1) { id title status decidedAt regretScore executionGapDays } }',
      );
      expect(withoutCost(body)).to.deep.equal({
        data: {
          decisions: [
            {
              id: "d1",
              title: "Adopt usage-based pricing",
              status: "DECIDED",
              // Stored with nanoseconds: truncated to exactly three fractional digits.
              decidedAt: "2025-03-31T14:05:00.123Z",
              regretScore: 0.5,
              executionGapDays: null,
            },
          ],
        },
      });
    });

    it("converts a DateTime stored with an offset to UTC", async () => {
      const { body } = await service.graphql('{ decision(id: "d5") { decidedAt } }');
      expect(withoutCost(body)).to.deep.equal({
        data: { decision: { decidedAt: "2025-04-01T00:00:00.000Z" } },
      });
    });

    it("refuses a malformed Date and an unknown enum value", async () => {
      for (const query of [
        '{ decisions(since: "31/03/2025") { id } }',
        "{ decisions(status: MAYBE) { id } }",
      ]) {
        const { body } = await service.graphql(query);
        expect(body.data).to.equal(undefined);
        expect(body.errors).to.have.length(1);
      }
    });
  });

  describe("decision, topic", () => {
    it("finds one by id", async () => {
      const { status, body } = await service.graphql('{ topic(id: "t1") { id name canonicalAnswer } }');
      expect(status).to.equal(200);
      expect(withoutCost(body)).to.deep.equal({
        data: { topic: { id: "t1", name: "Pricing", canonicalAnswer: "Usage-based, billed monthly" } },
      });
    });

    it("answers null with 200 for an id that does not exist", async () => {
      const { status, body } = await service.graphql(
        '{ decision(id: "nope") { id } topic(id: "d1") { id } }',
      );
      expect(status).to.equal(200);
      expect(withoutCost(body)).to.deep.equal({ data: { decision: null, topic: null } });
    });
  });

  describe("features", () => {
    // Neo4j orders stored string properties by code point (U+E000 before U+1F600); only strings
    // computed in the query compare by UTF-16 code units. See the README's graph-model notes.
    it("orders by name in Neo4j's ORDER BY order for stored strings, then id", async () => {
      expect(await ids(service, "{ features { id } }")).to.deep.equal(["f1", "f2", "f3", "f4", "f5"]);
    });

    it("filters by stage, exact case-sensitive team, ownerId and shipped", async () => {
      expect(await ids(service, "{ features(stage: IDEA) { id } }")).to.deep.equal(["f3", "f4"]);
      expect(await ids(service, "{ features(stage: SUNSET) { id } }")).to.deep.equal([]);
      expect(await ids(service, '{ features(team: "Platform") { id } }')).to.deep.equal(["f1"]);
      expect(await ids(service, '{ features(team: "platform") { id } }')).to.deep.equal(["f4"]);
      expect(await ids(service, '{ features(ownerId: "p3") { id } }')).to.deep.equal(["f2"]);
      expect(await ids(service, "{ features(shipped: false) { id } }")).to.deep.equal(["f3", "f4", "f5"]);
      expect(await ids(service, '{ features(shipped: true, team: "Data") { id } }')).to.deep.equal(["f2"]);
    });

    it("returns Date fields as calendar dates and null where unset", async () => {
      const { body } = await service.graphql("{ features(shipped: true) { id shippedOn } }");
      expect(body.data.features).to.deep.equal([
        { id: "f1", shippedOn: "2025-01-15" },
        { id: "f2", shippedOn: null },
      ]);
    });
  });

  describe("topics, customers, people", () => {
    it("orders topics by name", async () => {
      expect(await ids(service, "{ topics { id } }")).to.deep.equal(["t2", "t3", "t1"]);
    });

    it("orders customers by name and filters by health", async () => {
      expect(await ids(service, "{ customers { id } }")).to.deep.equal(["c2", "c3", "c1"]);
      expect(await ids(service, "{ customers(health: AT_RISK) { id } }")).to.deep.equal(["c3"]);
      expect(await ids(service, "{ customers(health: CRITICAL) { id } }")).to.deep.equal([]);
    });

    it("orders people by name and returns null for a missing email or team", async () => {
      const { body } = await service.graphql("{ people { id name email team } }");
      expect(body.data.people).to.deep.equal([
        { id: "p1", name: "Ada Lovelace", email: "ada@example.com", team: "Platform" },
        { id: "p3", name: "Alan Turing", email: "alan@example.com", team: "Data" },
        { id: "p2", name: "Brian Kernighan", email: null, team: "Data" },
      ]);
    });
  });

  describe("disagreements", () => {
    it("orders newest raisedAt first with undated last, and filters by topicId and resolved", async () => {
      expect(await ids(service, "{ disagreements { id } }")).to.deep.equal(["g2", "g1", "g3"]);
      expect(await ids(service, '{ disagreements(topicId: "t1") { id } }')).to.deep.equal(["g2", "g1"]);
      expect(await ids(service, "{ disagreements(resolved: false) { id } }")).to.deep.equal(["g1", "g3"]);
      expect(await ids(service, '{ disagreements(topicId: "t1", resolved: true) { id } }')).to.deep.equal([
        "g2",
      ]);
    });

    it("returns raisedAt and resolvedAt in UTC with milliseconds", async () => {
      const { body } = await service.graphql(
        '{ disagreements(topicId: "t1", resolved: true) { raisedAt resolvedAt } }',
      );
      expect(body.data.disagreements).to.deep.equal([
        { raisedAt: "2025-02-01T09:30:00.000Z", resolvedAt: "2025-02-10T17:00:00.000Z" },
      ]);
    });
  });

  it("answers identical requests identically", async () => {
    const query = "{ decisions(limit: 100) { id decidedBy { id } } features { id requestedBy { id } } }";
    const first = await service.graphql(query);
    const second = await service.graphql(query);
    expect(second.body).to.deep.equal(first.body);
  });

  it("serves the same answers on /v1/graphql", async () => {
    const query = "{ topics { id } }";
    expect((await service.graphql(query, undefined, "/v1/graphql")).body).to.deep.equal(
      (await service.graphql(query)).body,
    );
  });
});
