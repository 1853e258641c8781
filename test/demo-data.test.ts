import { expect } from "chai";
import { generateDemoGraph, type DemoGraph } from "../src/demo-data/generate.js";
import { DEMO_LABELS, isDomainEmpty } from "../src/demo-data/load.js";
import { seedDemoData } from "../src/demo-data/seed.js";
import { graphSizes } from "../src/demo-data/sizes.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

const labels = DEMO_LABELS;
const rows = (graph: DemoGraph) => Object.fromEntries(labels.map((label) => [label, [...graph[label]()]]));

describe("demo data", () => {
  describe("generator", () => {
    it("gives identical rows for the same seed, whatever order labels are read in", () => {
      const first = rows(generateDemoGraph(graphSizes.small, 7));
      const graph = generateDemoGraph(graphSizes.small, 7);
      const reversed = Object.fromEntries([...labels].reverse().map((label) => [label, [...graph[label]()]]));
      expect(reversed).to.deep.equal(first);
    });

    it("gives different rows for another seed", () => {
      const a = [...generateDemoGraph(graphSizes.small, 1).decisions()];
      const b = [...generateDemoGraph(graphSizes.small, 2).decisions()];
      expect(a.map((d) => d.title)).not.to.deep.equal(b.map((d) => d.title));
    });

    it("has the size's node counts and links only to existing ids", () => {
      const graph = rows(generateDemoGraph(graphSizes.small));
      for (const label of labels) expect(graph[label], label).to.have.length(graphSizes.small[label]);
      const people = new Set(graph.people?.map((p) => p.id));
      for (const decision of [...generateDemoGraph(graphSizes.small).decisions()]) {
        if (decision.decidedBy !== null) expect(people.has(decision.decidedBy)).to.equal(true);
      }
    });

    it("leaves nulls where the contract allows them, consistently with status", () => {
      const decisions = [...generateDemoGraph(graphSizes.small).decisions()];
      expect(decisions.some((d) => d.decidedAt === null && d.status !== "PROPOSED")).to.equal(true);
      expect(decisions.filter((d) => d.status === "PROPOSED").every((d) => d.decidedAt === null)).to.equal(
        true,
      );
      expect(
        decisions
          .filter((d) => d.executionGapDays !== null)
          .every((d) => ["EXECUTED", "REVERSED"].includes(d.status)),
      ).to.equal(true);
      expect(decisions.some((d) => d.regretScore === null)).to.equal(true);
      const people = [...generateDemoGraph(graphSizes.small).people()];
      expect(people.some((p) => p.email === null)).to.equal(true);
    });
  });

  describe("loaded into Neo4j", () => {
    let service: RunningService;
    before(async function () {
      this.timeout(120_000);
      await seedDemoData(testDriver(), testDatabase, "small", 42, () => undefined);
      service = await startService();
    });
    after(async () => {
      await service.close();
      await loadFixtures();
    });

    it("holds every node and link the generator made", async () => {
      const { records } = await testDriver().executeQuery(
        `MATCH (n) WHERE NOT n:ApiKey RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label`,
        {},
        { database: testDatabase },
      );
      const counts = Object.fromEntries(
        records.map((r) => [r.get("label") as string, (r.get("n") as { toNumber(): number }).toNumber()]),
      );
      const size = graphSizes.small;
      expect(counts).to.deep.equal({
        Commitment: size.commitments,
        Customer: size.customers,
        Decision: size.decisions,
        Disagreement: size.disagreements,
        Feature: size.features,
        Person: size.people,
        Topic: size.topics,
      });
      expect(await isDomainEmpty(testDriver(), testDatabase)).to.equal(false);
    });

    it("writes exactly the labels, properties and relationships of contract §8, as an ingest job", async () => {
      const { records } = await testDriver().executeQuery(
        `MATCH (n) WHERE NOT n:ApiKey UNWIND keys(n) AS key
         RETURN labels(n) AS labels, collect(DISTINCT key) AS keys ORDER BY labels[0]`,
        {},
        { database: testDatabase },
      );
      const written = Object.fromEntries(
        records.map((r) => [(r.get("labels") as string[]).join(":"), (r.get("keys") as string[]).sort()]),
      );
      expect(written).to.deep.equal({
        Commitment: ["description", "dueOn", "id", "status"],
        Customer: ["health", "id", "name"],
        Decision: ["decidedAt", "executionGapDays", "id", "regretScore", "status", "title"],
        Disagreement: ["id", "raisedAt", "resolved", "resolvedAt", "summary"],
        Feature: ["id", "name", "shipped", "shippedOn", "stage", "team"],
        Person: ["email", "id", "name", "team"],
        Topic: ["canonicalAnswer", "id", "name"],
      });
      const relationships = await testDriver().executeQuery(
        `MATCH (a)-[r]->(b) WHERE NOT a:ApiKey
         RETURN DISTINCT labels(a)[0] + ' ' + type(r) + ' ' + labels(b)[0] AS link ORDER BY link`,
        {},
        { database: testDatabase },
      );
      expect(relationships.records.map((r) => r.get("link") as string)).to.deep.equal([
        "Commitment FOLLOWS_FROM Decision",
        "Customer REQUESTED Feature",
        "Decision ABOUT Topic",
        "Decision DECIDED_BY Person",
        "Disagreement ABOUT Topic",
        "Person COMMITTED_TO Commitment",
        "Person OWNS Feature",
        "Person PARTICIPATED_IN Disagreement",
      ]);
    });

    it("answers the dashboard query through the service", async () => {
      const { status, body } = await service.graphql(
        "{ topics(limit: 3) { name decisions(limit: 5) { id title decidedAt decidedBy { name email } topic { name } } } }",
      );
      expect(status).to.equal(200);
      expect(body.data.topics).to.have.length(3);
      const decisions = body.data.topics.flatMap((t: { decisions: unknown[] }) => t.decisions);
      expect(decisions.length).to.be.greaterThan(0);
    });
  });
});
