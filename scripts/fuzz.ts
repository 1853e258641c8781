// `npm run fuzz -- [--runs 10000] [--seed N] [--concurrency 8] [--query-timeout-ms 10000]`: the
// suite's fuzz test alone, as long as asked; with several callers, the same generator's requests
// are sent as a burst of new documents.
// A failure prints fast-check's seed and path; `--seed` replays the same requests.
import { spawnSync } from "node:child_process";
import { projectRoot } from "../src/project-root.js";
import { readCommandLine } from "./command-line.js";

const USAGE = `Usage: npm run fuzz -- [--runs 10000] [--seed <n>] [--concurrency 1] [--query-timeout-ms 10000]

Sends the suite's fuzz test's random requests to the real service and checks every answer
(docs/development.md); --seed replays a failure's requests.`;

const { values, count } = readCommandLine(USAGE, {
  options: {
    runs: { type: "string", default: "10000" },
    seed: { type: "string" },
    concurrency: { type: "string", default: "1" },
    // The service's default (NEO4J_QUERY_TIMEOUT_MS); the suite's run uses 2 s to stay short.
    "query-timeout-ms": { type: "string", default: "10000" },
  },
});
const runs = count("runs");
const concurrency = count("concurrency");
const queryTimeoutMs = count("query-timeout-ms");
const seed = String(values.seed === undefined ? Date.now() % 2 ** 31 : count("seed", 0));
process.stdout.write(
  `Fuzzing ${String(runs)} requests from ${String(concurrency)} caller(s) with seed ${seed}.\n`,
);
const run = spawnSync(
  process.execPath,
  [
    "node_modules/mocha/bin/mocha.js",
    "--no-config",
    "--node-option",
    "import=tsx",
    "--require",
    "test/support/root-hooks.ts",
    "--timeout",
    "0",
    "--exit",
    "test/fuzz.test.ts",
  ],
  {
    cwd: projectRoot,
    stdio: "inherit",
    env: {
      ...process.env,
      FUZZ_RUNS: String(runs),
      FUZZ_SEED: seed,
      FUZZ_CONCURRENCY: String(concurrency),
      FUZZ_QUERY_TIMEOUT_MS: String(queryTimeoutMs),
    },
  },
);
process.exit(run.status ?? 1);
