import { expect } from "chai";
import { DECISIONS_IN_ORDER, ingest, loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService, type WireResponse, withoutCost } from "./support/service.js";

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
    it("orders newest instant first whatever the zone, ties by id, undated last", async () => {
      expect(await ids(service, "{ decisions { id } }")).to.deep.equal(DECISIONS_IN_ORDER);
    });

    it("answers every page size with a prefix of that order (the tie and undated reads)", async () => {
      for (let limit = 1; limit <= DECISIONS_IN_ORDER.length + 1; limit++) {
        expect(await ids(service, `{ decisions(limit: ${limit}) { id } }`), `limit ${limit}`).to.deep.equal(
          DECISIONS_IN_ORDER.slice(0, limit),
        );
      }
    });

    it("keeps decisions on or after 00:00 UTC of `since`, whatever offset they were written with", async () => {
      // d8 is 2025-03-31T00:00Z written as 19:00-05:00 the day before; d3 is a millisecond early.
      expect(await ids(service, '{ decisions(since: "2025-03-31") { id } }')).to.deep.equal([
        "d5",
        "d10",
        "d66",
        "d1",
        "d6",
        "d9",
        "d2",
        "d8",
      ]);
      // d10 is 2025-03-31T23:59:59.999Z, written as 01:59:59.999+02:00 on April 1st.
      expect(await ids(service, '{ decisions(since: "2025-04-01") { id } }')).to.deep.equal(["d5"]);
      expect(await ids(service, '{ decisions(since: "2025-04-02") { id } }')).to.deep.equal([]);
      for (let limit = 1; limit <= 9; limit++) {
        expect(
          await ids(service, `{ decisions(since: "2025-03-31", limit: ${limit}) { id } }`),
        ).to.deep.equal(["d5", "d10", "d66", "d1", "d6", "d9", "d2", "d8"].slice(0, limit));
      }
    });

    it("keeps decisions before 00:00 UTC of the day after `until`, whatever offset they were written with", async () => {
      // d5 is 2025-04-01T00:00Z written as 02:00+02:00; d10 a millisecond before, written on April 1st.
      expect(await ids(service, '{ decisions(until: "2025-03-31") { id } }')).to.deep.equal([
        "d10",
        "d66",
        "d1",
        "d6",
        "d9",
        "d2",
        "d8",
        "d3",
      ]);
      // d2 and d8 are 2025-03-31T00:00Z (d8 written as 19:00-05:00 on the 30th); d3 a millisecond before.
      expect(await ids(service, '{ decisions(until: "2025-03-30") { id } }')).to.deep.equal(["d3"]);
      expect(await ids(service, '{ decisions(until: "2025-03-29") { id } }')).to.deep.equal([]);
      expect(
        await ids(service, '{ decisions(since: "2025-03-31", until: "2025-03-31", limit: 3) { id } }'),
      ).to.deep.equal(["d10", "d66", "d1"]);
      expect(
        await ids(service, '{ decisions(since: "2025-04-01", until: "2025-03-31") { id } }'),
      ).to.deep.equal([]);
      expect(
        await ids(service, "query ($until: Date) { decisions(until: $until) { id } }", {
          until: "2025-03-30",
        }),
      ).to.deep.equal(["d3"]);
    });

    it("refuses an `until` that is not a calendar date with 422", async () => {
      const { status, body } = await service.graphql('{ decisions(until: "2025-02-30") { id } }');
      expect(status).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
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
        "d8",
        "d3",
      ]);
      expect(await ids(service, "{ decisions(regretScoreMin: 1) { id } }")).to.deep.equal(["d5"]);
      expect(await ids(service, "{ decisions(regretScoreMin: 1.000001) { id } }")).to.deep.equal([]);
    });

    it("filters by executionGapDaysMin inclusively and never matches a null gap", async () => {
      expect(await ids(service, "{ decisions(executionGapDaysMin: 10) { id } }")).to.deep.equal([
        "d9",
        "d2",
        "d3",
      ]);
      expect(await ids(service, "{ decisions(executionGapDaysMin: 0) { id } }")).to.deep.equal([
        "d5",
        "d9",
        "d2",
        "d3",
      ]);
      expect(await ids(service, "{ decisions(executionGapDaysMin: 31) { id } }")).to.deep.equal([]);
    });

    it("filters by status and by topicId, and combines filters", async () => {
      expect(await ids(service, "{ decisions(status: DECIDED) { id } }")).to.deep.equal([
        "d5",
        "d10",
        "d1",
        "d8",
        "d7",
      ]);
      expect(await ids(service, "{ decisions(status: PROPOSED) { id } }")).to.deep.equal(["d4"]);
      // d8 is about t3 and t1: it belongs to both lists.
      expect(await ids(service, '{ decisions(topicId: "t1") { id } }')).to.deep.equal([
        "d1",
        "d2",
        "d8",
        "d4",
      ]);
      expect(await ids(service, '{ decisions(topicId: "t3") { id } }')).to.deep.equal(["d5", "d8"]);
      expect(await ids(service, '{ decisions(topicId: "t2", limit: 2) { id } }')).to.deep.equal(["d6", "d9"]);
      expect(
        await ids(service, '{ decisions(topicId: "t1", since: "2025-03-31", regretScoreMin: 0.3) { id } }'),
      ).to.deep.equal(["d1"]);
      expect(
        await ids(service, '{ decisions(status: DECIDED, since: "2025-03-31", limit: 3) { id } }'),
      ).to.deep.equal(["d5", "d10", "d1"]);
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

    it("converts a DateTime stored with an offset or a named zone to UTC", async () => {
      const { body } = await service.graphql(
        '{ d5: decision(id: "d5") { decidedAt } d8: decision(id: "d8") { decidedAt } d9: decision(id: "d9") { decidedAt } }',
      );
      expect(withoutCost(body)).to.deep.equal({
        data: {
          d5: { decidedAt: "2025-04-01T00:00:00.000Z" },
          d8: { decidedAt: "2025-03-31T00:00:00.000Z" },
          d9: { decidedAt: "2025-03-31T14:05:00.123Z" },
        },
      });
    });

    it("refuses an unknown enum value", async () => {
      const { status, body } = await service.graphql("{ decisions(status: MAYBE) { id } }");
      expect(status).to.equal(422);
      expect(body.data).to.equal(undefined);
      expect(body.errors).to.have.length(1);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
    });
  });

  describe("strict Date (contract §3)", () => {
    const refused: [string, RegExp][] = [
      ["2024-02-30", /"2024-02-30" names no calendar day: February 2024 has 29 days\./],
      ["2023-02-29", /"2023-02-29" names no calendar day: February 2023 has 28 days\./],
      ["1900-02-29", /February 1900 has 28 days/],
      ["2025-04-31", /April 2025 has 30 days/],
      ["2025-13-01", /"2025-13-01" names no calendar day: there is no month 13\./],
      ["2025-00-10", /there is no month 0\./],
      ["2025-03-00", /March 2025 has 31 days/],
      [" 2025-03-31", /" 2025-03-31" is not of the form YYYY-MM-DD/],
      ["2025-03-31 ", /is not of the form YYYY-MM-DD/],
      ["2025-03-31\u0000", /"2025-03-31\\u0000" is not of the form YYYY-MM-DD/],
      ["2025-03-31T00:00:00Z", /is not of the form YYYY-MM-DD \(a calendar date: no spaces, no time part\)/],
      ["2025-3-31", /is not of the form YYYY-MM-DD/],
      ["31/03/2025", /is not of the form YYYY-MM-DD/],
      ["", /"" is not of the form YYYY-MM-DD/],
    ];

    const expectRefused = (response: WireResponse, message: RegExp) => {
      expect(response.status, JSON.stringify(response.body)).to.equal(422);
      expect(response.body.data).to.equal(undefined);
      expect(response.body.errors).to.have.length(1);
      expect(response.body.errors[0].extensions.code).to.equal("validation_failed");
      expect(response.body.errors[0].message).to.match(message);
    };

    for (const [value, message] of refused) {
      it(`refuses ${JSON.stringify(value)} as a literal and as a variable with 422 validation_failed`, async () => {
        expectRefused(
          await service.graphql(`{ decisions(since: ${JSON.stringify(value)}) { id } }`),
          message,
        );
        expectRefused(
          await service.graphql("query ($since: Date) { decisions(since: $since) { id } }", { since: value }),
          message,
        );
      });
    }

    it("refuses a Date that is not a string, literal or variable", async () => {
      expectRefused(await service.graphql("{ decisions(since: 20250331) { id } }"), /must be a string/);
      expectRefused(
        await service.graphql("query ($since: Date) { decisions(since: $since) { id } }", {
          since: 20250331,
        }),
        /must be a string of the form YYYY-MM-DD; got 20250331/,
      );
      const huge = await service.graphql("query ($since: Date) { decisions(since: $since) { id } }", {
        since: Array.from({ length: 5_000 }, (_, i) => i),
      });
      expectRefused(huge, /must be a string of the form YYYY-MM-DD; got \[0,1,2,/);
      expect(huge.body.errors[0].message.length).to.be.below(200);
    });

    it("accepts real days, 29 February of leap years included", async () => {
      for (const since of ["2024-02-29", "2000-02-29", "2025-12-31", "0001-01-01"]) {
        await ids(service, "query ($since: Date) { decisions(since: $since) { id } }", { since });
        await ids(service, `{ decisions(since: "${since}") { id } }`);
      }
      expect(await ids(service, '{ decisions(since: "0001-01-01") { id } }')).to.deep.equal(
        DECISIONS_IN_ORDER.slice(0, 9),
      );
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
    // computed in the query compare by UTF-16 code units. See docs/graph-model.md.
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
    it("orders newest raisedAt first whatever the zone, ties by id, undated last, and filters", async () => {
      // g4 is g1's instant written as 01:00+01:00.
      expect(await ids(service, "{ disagreements { id } }")).to.deep.equal(["g2", "g1", "g4", "g3"]);
      for (let limit = 1; limit <= 4; limit++) {
        expect(await ids(service, `{ disagreements(limit: ${limit}) { id } }`)).to.deep.equal(
          ["g2", "g1", "g4", "g3"].slice(0, limit),
        );
      }
      expect(await ids(service, '{ disagreements(topicId: "t1") { id } }')).to.deep.equal(["g2", "g1"]);
      expect(await ids(service, '{ disagreements(topicId: "t2") { id } }')).to.deep.equal(["g4", "g3"]);
      expect(await ids(service, "{ disagreements(resolved: false) { id } }")).to.deep.equal([
        "g1",
        "g4",
        "g3",
      ]);
      expect(await ids(service, "{ disagreements(resolved: false, limit: 1) { id } }")).to.deep.equal(["g1"]);
      expect(await ids(service, '{ disagreements(topicId: "t1", resolved: true) { id } }')).to.deep.equal([
        "g2",
      ]);
      expect(await ids(service, '{ disagreements(topicId: "t3") { id } }')).to.deep.equal([]);
    });

    it("returns raisedAt and resolvedAt in UTC with milliseconds", async () => {
      const { body } = await service.graphql(
        '{ disagreements(topicId: "t1", resolved: true) { raisedAt resolvedAt } t2: disagreements(topicId: "t2", limit: 1) { raisedAt } }',
      );
      expect(body.data).to.deep.equal({
        disagreements: [{ raisedAt: "2025-02-01T09:30:00.000Z", resolvedAt: "2025-02-10T17:00:00.000Z" }],
        t2: [{ raisedAt: "2025-01-01T00:00:00.000Z" }],
      });
    });
  });

  it("answers identical requests identically", async () => {
    const query = "{ decisions(limit: 100) { id decidedBy { id } } features { id requestedBy { id } } }";
    const first = await service.graphql(query);
    const second = await service.graphql(query);
    expect(second.body).to.deep.equal(first.body);
  });

  it("answers a field selected under two names with the same value twice, on every list", async () => {
    // Found by the fuzz test: Neo4j 5.26 read the second alias of a property as null on the
    // newest-first root lists (an untyped empty list in their Cypher), a 500 for the caller.
    const lists = ["decisions", "disagreements", "features", "topics", "customers", "people"];
    const query = `{ ${lists.map((list) => `${list}(limit: 100) { id again: id }`).join(" ")} topic(id: "t1") { decisions { id again: id } } }`;
    const response = await service.graphql(query);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const { data } = response.body as {
      data: Record<string, { id: string; again: string }[]> & {
        topic: { decisions: { id: string; again: string }[] };
      };
    };
    const rows = [...lists.flatMap((list) => data[list] ?? []), ...data.topic.decisions];
    expect(rows.length).to.be.above(20);
    for (const row of rows) expect(row.again).to.equal(row.id);
  });

  it("serves the same answers on /v1/graphql", async () => {
    const query = "{ topics { id } }";
    expect((await service.graphql(query, undefined, "/v1/graphql")).body).to.deep.equal(
      (await service.graphql(query)).body,
    );
  });

  describe("on rows the ingest job wrote a moment ago", () => {
    after(() => ingest("MATCH (n) WHERE n.id IN ['d0', 'd11', 'd12', 'g0', 'g5'] DETACH DELETE n"));

    it("lists them at once, in order, with every filter", async () => {
      await ingest(`
        MATCH (t1:Topic {id: 't1'}), (p2:Person {id: 'p2'})
        CREATE (:Decision {id: 'd11', title: 'Written just now', status: 'DECIDED',
                           decidedAt: datetime('2025-04-01T00:00:00-01:00'), regretScore: 0.7})-[:ABOUT]->(t1)
        CREATE (d0:Decision {id: 'd0', title: 'Undated, just now', status: 'PROPOSED'})-[:ABOUT]->(t1)
        CREATE (d0)-[:DECIDED_BY]->(p2)
        CREATE (:Decision {id: 'd12', title: 'Same instant as d5', status: 'DECIDED',
                           decidedAt: datetime('2025-03-31T19:00:00-05:00')})
        CREATE (:Disagreement {id: 'g5', summary: 'Newest', resolved: false, raisedAt: datetime('2026-01-01T00:00:00+14:00')})-[:ABOUT]->(t1)
        CREATE (:Disagreement {id: 'g0', summary: 'Undated', resolved: true})`);
      // d11 is 2025-04-01T01:00Z; d12 is d5's instant (2025-04-01T00:00Z) in another zone.
      const decisions = [
        "d11",
        "d12",
        "d5",
        "d10",
        "d66",
        "d1",
        "d6",
        "d9",
        "d2",
        "d8",
        "d3",
        "d0",
        "d4",
        "d7",
      ];
      expect(await ids(service, "{ decisions { id } }")).to.deep.equal(decisions);
      expect(await ids(service, "{ decisions(limit: 2) { id } }")).to.deep.equal(["d11", "d12"]);
      expect(await ids(service, '{ decisions(since: "2025-04-01", limit: 100) { id } }')).to.deep.equal([
        "d11",
        "d12",
        "d5",
      ]);
      expect(await ids(service, "{ decisions(regretScoreMin: 0.6) { id } }")).to.deep.equal([
        "d11",
        "d5",
        "d3",
      ]);
      expect(await ids(service, '{ decisions(topicId: "t1") { id } }')).to.deep.equal([
        "d11",
        "d1",
        "d2",
        "d8",
        "d0",
        "d4",
      ]);
      expect(await ids(service, "{ decisions(status: PROPOSED) { id } }")).to.deep.equal(["d0", "d4"]);
      expect(await ids(service, "{ disagreements { id } }")).to.deep.equal([
        "g5",
        "g2",
        "g1",
        "g4",
        "g0",
        "g3",
      ]);
      expect(await ids(service, "{ disagreements(resolved: true) { id } }")).to.deep.equal(["g2", "g0"]);
      const { body } = await service.graphql(
        '{ topic(id: "t1") { decisions(limit: 1) { id decidedAt } } person: people(limit: 3) { id decisionsMade { id } } }',
      );
      expect(body.data.topic.decisions).to.deep.equal([{ id: "d11", decidedAt: "2025-04-01T01:00:00.000Z" }]);
      expect(body.data.person.find((p: { id: string }) => p.id === "p2").decisionsMade).to.deep.equal([
        { id: "d9" },
        { id: "d2" },
        { id: "d0" },
      ]);
    });
  });
});
