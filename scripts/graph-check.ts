// `npm run graph:check`: reports every node that breaks the graph model (docs/api.md §8), exits 1
// when it finds one. Reads the same Neo4j settings as the service (NEO4J_URI, or the local server).
import { checkGraph, formatReport } from "../src/graph-check/check.js";
import { graphModel } from "../src/graph-check/model.js";
import { connectNeo4j } from "../src/neo4j/connect.js";
import { readCommandLine } from "./command-line.js";

const USAGE = `Usage: npm run graph:check [-- --batch <nodes>]

Reads every Decision, Person, Topic, Feature, Customer, Disagreement and Commitment node in
batches (default 20000 per read) and reports each one that breaks the graph model of docs/api.md §8:
a required property missing, an enum value outside its enum, a property of another type, a date
beyond the years 0000-9999, a single-valued link with several targets, an id missing or not a
string. Prints a summary by label and problem with the first ids; exits 1 when it finds any.
Neo4j: NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE (without NEO4J_URI, the local server).`;

const { count, config: readConfig } = readCommandLine(USAGE, {
  options: { batch: { type: "string", default: "20000" } },
});
const batchSize = count("batch");

const config = readConfig();
const { driver, uri } = await connectNeo4j(config, (line) => {
  console.error(line);
});
let lastProgress = 0;
try {
  console.error(`Checking ${uri}, database ${config.neo4j.database}…`);
  const report = await checkGraph(driver, graphModel(), {
    database: config.neo4j.database,
    batchSize,
    progress(line) {
      // A line every few seconds: enough to see it move, few enough for a log.
      if (performance.now() - lastProgress < 2_000) return;
      lastProgress = performance.now();
      console.error(line);
    },
  });
  console.log(formatReport(report));
  process.exitCode = report.findings.length === 0 ? 0 : 1;
} finally {
  await driver.close();
}
