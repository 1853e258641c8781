// `npm run bench:graph-check -- --size 10k|1m`: times `npm run graph:check`'s reading of a bench
// graph (seeded on first use), in its default batches, and writes bench/results/graph-check-<size>.json.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkGraph, formatReport } from "../src/graph-check/check.js";
import { graphModel } from "../src/graph-check/model.js";
import { projectRoot } from "../src/project-root.js";
import { log, openBenchGraph, parseSize } from "./harness.js";
import { measuredCommit } from "./report.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, refuse } = readCommandLine(
  "Usage: npm run bench:graph-check -- --size 10k|1m\n\nWhat it measures: the comment at the top of bench/graph-check.ts.",
  { options: { size: { type: "string", default: "1m" } } },
);
const size = parseSize(values.size, refuse);
const graph = await openBenchGraph(size);
try {
  const models = graphModel();
  const runs = [];
  for (let run = 0; run < 2; run++) {
    const report = await checkGraph(graph.driver, models, { database: "neo4j", progress: log });
    log(formatReport(report));
    runs.push({
      nodes: report.nodes,
      problems: report.findings.length,
      seconds: Math.round(report.ms / 100) / 10,
    });
  }
  const result = {
    command: `npm run bench:graph-check -- --size ${size}`,
    commit: measuredCommit(),
    measuredAt: new Date().toISOString(),
    note: "Two runs one after the other: the first reads the store from disk as the check would after a restart.",
    runs,
  };
  const file = join(projectRoot, "bench", "results", `graph-check-${size}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`Wrote ${file}`);
} finally {
  await graph.close();
}
