// `npm test`'s two runs of the suite: with the translation cache checking every reuse against a
// fresh translation (TRANSLATION_CACHE=verify, test/support/service.ts's default), then with the
// cache off. Both run against one test Neo4j started here: the second run's Cypher is the first
// run's, so Neo4j answers it from plans already made (planning a new statement is most of what a
// wire test waits for on a 2-core machine: docs/performance.md), and the JVM is already warm. The
// root hooks find the instance running and leave it to this script to stop.
import { spawnSync } from "node:child_process";
import { startTestNeo4j, stopTestNeo4j } from "./test-neo4j.js";

const RUNS: Readonly<Record<string, string>>[] = [{}, { TRANSLATION_CACHE: "off" }];

await startTestNeo4j();
let status = 0;
try {
  for (const env of RUNS) {
    const label = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    console.log(`\n> mocha${label.length === 0 ? "" : ` (${label.join(" ")})`}`);
    // `mocha` from node_modules/.bin, which npm puts on the PATH of `npm test`.
    const run = spawnSync("mocha", process.argv.slice(2), {
      stdio: "inherit",
      env: { ...process.env, ...env },
    });
    if (run.error !== undefined) console.error(`mocha did not start: ${run.error.message}`);
    status = run.status ?? 1;
    if (status !== 0) break;
  }
} finally {
  await stopTestNeo4j();
}
process.exit(status);
