// `npm test`'s two runs of the suite: on the Neo4j release the project runs (LOCAL_NEO4J_VERSION,
// 2026.09 unless set), then on Neo4j 5.26 LTS, the release operators may still run (issue 32), on
// a port of its own. The first
// run's instance is started here and stays up for both; the second run's root hooks start and
// stop their own, as they do for a plain `mocha`.
import { spawnSync } from "node:child_process";
import { startTestNeo4j, stopTestNeo4j } from "./test-neo4j.js";

/**
 * The suites whose answers do not depend on the Neo4j release: HTTP, Redis, browsers and clients,
 * pure logic, and the key store (every other suite's requests pass through it). The 5.26 run
 * leaves them out, which keeps both runs within CI's time; every plan, Cypher and wire test of the
 * graph runs on both.
 */
const RELEASE_INDEPENDENT = [
  "auth",
  "canonical",
  "last-values",
  "clients",
  "command-line",
  "cors",
  "explorer",
  "metrics",
  "operation-plan",
  "quota",
  "redis-production",
  "shutdown",
];

const RUNS: { env: Readonly<Record<string, string>>; args: string[] }[] = [
  { env: {}, args: [] },
  {
    env: { LOCAL_NEO4J_VERSION: "5.26.30", TEST_NEO4J_BOLT_PORT: "7698" },
    args: RELEASE_INDEPENDENT.flatMap((name) => ["--ignore", `test/${name}.test.ts`]),
  },
];

await startTestNeo4j();
let status = 0;
try {
  for (const { env, args } of RUNS) {
    const label = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    console.log(`\n> mocha${label.length === 0 ? "" : ` (${label.join(" ")})`}`);
    // `mocha` from node_modules/.bin, which npm puts on the PATH of `npm test`.
    const run = spawnSync("mocha", [...process.argv.slice(2), ...args], {
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
