// `npm run bench:first-askings -- --size 10k [--shapes 3000] [--concurrency 8] [--seed 32]`: issue 32's
// burst of new questions. `--concurrency` callers send `--shapes` distinct documents (the cold
// bench's generator, bench/cold-shapes.ts), each once, after Neo4j's plan caches were cleared, so
// nearly every request asks Neo4j to plan a new statement. Prints how many were answered with
// what status, the latencies, and whether every request was answered within its deadline (the
// query timeout plus the runner's margin); a 5xx other than overload shedding (503 with
// Retry-After) is a failure. Meanwhile another key, a bystander, sends a new document of its own
// every 250 ms, one at a time: what it gets says whether one key's burst of new questions holds
// back another key's (contract §12). Writes bench/results/first-askings-<size>.json.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { loadConfig } from "../src/config.js";
import { DEADLINE_MARGIN_MS } from "../src/neo4j/deadline.js";
import { projectRoot } from "../src/project-root.js";
import { documentArbitrary } from "./cold-shapes.js";
import {
  log,
  openBenchGraph,
  parseSize,
  PRODUCT_ARGS,
  productAsker,
  productEnv,
  shapeSubjects,
  startChild,
  type ProductAnswer,
} from "./harness.js";
import { median } from "./load.js";
import { measuredCommit } from "./report.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:first-askings -- --size 10k [--shapes 3000] [--concurrency 8] [--seed 32]\n\nWhat it measures: the comment at the top of bench/first-askings.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      shapes: { type: "string", default: "3000" },
      concurrency: { type: "string", default: "8" },
      seed: { type: "string", default: "32" },
    },
  },
);
const size = parseSize(values.size, refuse);
const SHAPES = count("shapes");
const CONCURRENCY = count("concurrency");
const SEED = count("seed", 0);

const graph = await openBenchGraph(size);
const env = await productEnv(graph);
const product = await startChild("kg-graphql", PRODUCT_ARGS, env);
try {
  const subjects = await shapeSubjects(graph.driver);
  const documents = [
    ...new Set(fc.sample(documentArbitrary(subjects), { seed: SEED, numRuns: SHAPES * 2 })),
  ].slice(0, SHAPES);
  // The bystander's documents: new ones too, none of the burst's.
  const burst = new Set(documents);
  const ownDocuments = fc
    .sample(documentArbitrary(subjects), { seed: SEED + 1, numRuns: SHAPES })
    .filter((document) => !burst.has(document));
  const { ask, close } = productAsker(product.port, graph.key, CONCURRENCY);
  const { key: bystanderKey } = await new ApiKeyStore(graph.driver, "neo4j").create("bench bystander", [
    "read",
  ]);
  const bystander = productAsker(product.port, bystanderKey);
  for (let i = 0; i < 20; i++) await ask("{ topics(limit: 1) { id } }");
  await bystander.ask("{ topics(limit: 1) { id } }");
  await graph.driver.executeQuery("CALL db.clearQueryCaches()");

  log(
    `${String(documents.length)} distinct documents, ${String(CONCURRENCY)} callers, plan caches cleared; a bystander key sends its own every 250 ms`,
  );
  const answers: ProductAnswer[] = [];
  const bystanderAnswers: ProductAnswer[] = [];
  let next = 0;
  let burstOver = false;
  const started = performance.now();
  const asking = async () => {
    for (const document of ownDocuments) {
      if (burstOver) return;
      bystanderAnswers.push(await bystander.ask(document));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const byStanding = asking();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < documents.length; i = next++) answers.push(await ask(documents[i] ?? ""));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  burstOver = true;
  await byStanding;
  close();
  bystander.close();

  const deadlineMs = loadConfig(env).neo4j.queryTimeoutMs + DEADLINE_MARGIN_MS;
  const statusesOf = (of: ProductAnswer[]) => {
    const counted: Record<string, number> = {};
    for (const answer of of) counted[answer.status] = (counted[answer.status] ?? 0) + 1;
    return counted;
  };
  const statuses = statusesOf(answers);
  const bystanderTimes = bystanderAnswers.map((answer) => answer.ms).sort((a, b) => a - b);
  const shed = answers.filter((answer) => answer.status === 503 && answer.retryAfter !== undefined).length;
  const otherServerErrors = answers.filter(
    (answer) => answer.status >= 500 && !(answer.status === 503 && answer.retryAfter !== undefined),
  ).length;
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  const at = (p: number) =>
    times[Math.min(times.length - 1, Math.ceil((times.length * p) / 100) - 1)] ?? Number.NaN;
  const late = answers.filter((answer) => answer.ms > deadlineMs).length;
  const results = {
    size,
    command: `npm run bench:first-askings -- --size ${size} --shapes ${String(SHAPES)} --concurrency ${String(CONCURRENCY)} --seed ${String(SEED)}`,
    measuredAt: new Date().toISOString(),
    commit: measuredCommit(),
    neo4j: graph.neo4jVersion,
    java: graph.javaMajor,
    documents: documents.length,
    seconds: Math.round(seconds * 10) / 10,
    statuses,
    shedWithRetryAfter: shed,
    otherServerErrors,
    answersWithFieldErrors: answers.filter(
      (answer) => answer.status === 200 && answer.body.includes('"errors"'),
    ).length,
    latencyMs: { p50: median(times), p90: at(90), p99: at(99), max: times.at(-1) ?? Number.NaN },
    deadlineMs,
    pastDeadline: late,
    bystander: {
      statuses: statusesOf(bystanderAnswers),
      latencyMs: { p50: median(bystanderTimes), max: bystanderTimes.at(-1) ?? Number.NaN },
    },
  };
  log(
    `${String(answers.length)} answered in ${results.seconds.toFixed(1)} s: ${Object.entries(statuses)
      .map(([status, count]) => `${String(count)} × ${status}`)
      .join(", ")} (${String(shed)} shed with Retry-After)`,
  );
  log(
    `latency p50 ${results.latencyMs.p50.toFixed(0)} ms, p90 ${results.latencyMs.p90.toFixed(0)}, p99 ${results.latencyMs.p99.toFixed(0)}, max ${results.latencyMs.max.toFixed(0)}; deadline ${String(deadlineMs)} ms`,
  );
  log(
    `the bystander: ${Object.entries(results.bystander.statuses)
      .map(([status, count]) => `${String(count)} × ${status}`)
      .join(
        ", ",
      )}, latency p50 ${results.bystander.latencyMs.p50.toFixed(0)} ms, max ${results.bystander.latencyMs.max.toFixed(0)}`,
  );
  log(`${late === 0 ? "PASS" : "FAIL"} every request answered within its deadline (${String(late)} late)`);
  log(
    `${otherServerErrors === 0 ? "PASS" : "FAIL"} 5xx only as overload shedding (${String(otherServerErrors)} others)`,
  );
  const file = join(projectRoot, "bench", "results", `first-askings-${size}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`Wrote ${file}`);
} finally {
  product.process.kill("SIGTERM");
  await graph.close();
}
