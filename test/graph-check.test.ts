import { expect } from "chai";
import { deleteDomainData } from "../src/demo-data/load.js";
import { seedDemoData } from "../src/demo-data/seed.js";
import { checkGraph, formatReport, type Finding } from "../src/graph-check/check.js";
import { graphModel } from "../src/graph-check/model.js";
import { loadBadValues } from "./support/fixtures.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

/** `npm run graph:check`'s finding: every node that breaks contract §8's model, by label and problem. */
describe("graph:check (contract §8: the nodes the ingest got wrong)", function () {
  const check = async (batchSize: number) =>
    checkGraph(testDriver(), graphModel(), { database: testDatabase, batchSize });
  const summary = (findings: Finding[]) =>
    findings.map(
      ({ label, problem, count, examples }) => `${label} ${problem}: ${count} ${examples.join(",")}`,
    );

  it("finds each kind of bad value of the ingest-style fixture, in batches smaller than a label", async function () {
    await loadBadValues();
    const report = await check(2);
    expect(summary(report.findings)).to.deep.equal([
      "Commitment dueOn: another type: 1 m2",
      "Commitment dueOn: beyond the years 0000-9999: 1 m1",
      "Customer health: outside CustomerHealth: 1 c1",
      "Customer id: missing: 1 " +
        (report.findings.find((f) => f.problem === "id: missing")?.examples[0] ?? "?"),
      "Decision decidedAt: another type: 1 d4",
      "Decision decidedAt: beyond the years 0000-9999: 3 d5,d6,d7",
      "Decision decidedBy: several targets: 1 d3",
      "Decision regretScore: another type: 1 d7",
      "Decision status: outside DecisionStatus: 1 d3",
      "Decision title: missing: 1 d2",
      "Feature shipped: another type: 1 f1",
      "Person name: another type: 1 p2",
      "Topic id: another type: 1 " +
        (report.findings.find((f) => f.problem === "id: another type")?.examples[0] ?? "?"),
      "Topic name: missing: 1 t2",
    ]);
    // The nodes without a string id are named by Neo4j's element id.
    expect(report.findings.find((f) => f.problem === "id: missing")?.examples[0]).to.match(/^\(node .+\)$/);
    expect(report.nodes).to.equal(19);
    const printed = formatReport(report);
    expect(printed).to.include("16 problems:");
    expect(printed).to.match(/Decision decidedAt: beyond the years 0000-9999 +3 {2}d5, d6, d7/);
  });

  it("finds nothing on the demo graph", async function () {
    await deleteDomainData(testDriver(), testDatabase);
    await seedDemoData(testDriver(), testDatabase, "small", 42, () => undefined);
    const report = await check(500);
    expect(report.findings).to.deep.equal([]);
    expect(report.nodes).to.be.greaterThan(500);
    expect(formatReport(report)).to.match(/^Checked [\d,]+ nodes in [\d.]+ s .*\nNo problems found\.$/);
  });
});
