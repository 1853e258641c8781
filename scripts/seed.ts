// Loads the demo organisation: `npm run seed -- [--size small|10k|100k|1m] [--seed <n>]`.
// Replaces every domain node (API keys are kept). Connects like the service: NEO4J_URI, or the
// local instance when it is unset (started if needed).
import { seedDemoData } from "../src/demo-data/seed.js";
import { connectNeo4j } from "../src/neo4j/connect.js";
import { readCommandLine } from "./command-line.js";

const USAGE = `Usage: npm run seed -- [--size small|10k|100k|1m] [--seed <n>]

Replaces every domain node with the demo organisation of that size (DEMO_DATA_SIZE's by default;
API keys are kept), generated from the seed (42 by default).`;

const {
  values,
  count,
  config: readConfig,
} = readCommandLine(USAGE, {
  options: { size: { type: "string" }, seed: { type: "string", default: "42" } },
});
const seed = count("seed", 0);
const config = readConfig(
  values.size === undefined ? process.env : { ...process.env, DEMO_DATA_SIZE: values.size },
);
const log = (line: string) => {
  console.log(line);
};
const { driver } = await connectNeo4j(config, log);
try {
  await seedDemoData(driver, config.neo4j.database, config.localNeo4j.demoDataSize, seed, log);
} finally {
  await driver.close();
}
