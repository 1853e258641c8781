// `npm run fuzz -- [--runs 10000] [--seed N] [--concurrency 8] [--query-timeout-ms 10000]`: the
// suite's fuzz test alone, as long as asked; with several callers, the same generator's requests
// are sent as a burst of new documents.
// A failure prints fast-check's seed and path; `--seed` replays the same requests.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { projectRoot } from "../src/project-root.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10000" },
    seed: { type: "string" },
    concurrency: { type: "string", default: "1" },
    // The service's default (NEO4J_QUERY_TIMEOUT_MS); the suite's run uses 2 s to stay short.
    "query-timeout-ms": { type: "string", default: "10000" },
  },
});
const seed = values.seed ?? String(Date.now() % 2 ** 31);
process.stdout.write(
  `Fuzzing ${values.runs} requests from ${values.concurrency} caller(s) with seed ${seed}.\n`,
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
      FUZZ_RUNS: values.runs,
      FUZZ_SEED: seed,
      FUZZ_CONCURRENCY: values.concurrency,
      FUZZ_QUERY_TIMEOUT_MS: values["query-timeout-ms"],
    },
  },
);
process.exit(run.status ?? 1);
