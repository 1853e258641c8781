// `npm run fuzz -- [--runs 10000] [--seed N]`: the suite's fuzz test alone, as long as asked.
// A failure prints fast-check's seed and path; `--seed` replays the same requests.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { projectRoot } from "../src/project-root.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "10000" }, seed: { type: "string" } },
});
const seed = values.seed ?? String(Date.now() % 2 ** 31);
process.stdout.write(`Fuzzing ${values.runs} requests with seed ${seed}.\n`);
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
  { cwd: projectRoot, stdio: "inherit", env: { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SEED: seed } },
);
process.exit(run.status ?? 1);
