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
