// `npm run bench:overload -- [--size 10k] [--duration 10]`: 16 clients on 4 keys send heavy
// queries (the cost limit's order of magnitude) while one other key sends the dashboard query and
// a probe asks /healthz; prints the dashboard's and the probe's latencies with the caps of
// contract §12 at their defaults and with them lifted. A benchmark, not a test: it measures.
import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import autocannon from "autocannon";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { loadConfig } from "../src/config.js";
import {
  log,
  openBenchGraph,
  parseSize,
  PRODUCT_ARGS,
  productEnv,
  startChild,
  type BenchGraph,
} from "./harness.js";
import { questions } from "./questions.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:overload -- [--size 10k] [--duration 10]\n\nWhat it measures: the comment at the top of bench/overload.ts.",
  {
    options: { size: { type: "string", default: "10k" }, duration: { type: "string", default: "10" } },
  },
);
const size = parseSize(values.size, refuse);
const seconds = count("duration");

/** 100 topics × (1 + 100 decisions × (1 + decider + topic)) = 30,100 of the 50,000 allowed. */
const HEAVY = `{ topics(limit: 100) { name decisions(limit: 100) {
  id title status decidedAt decidedBy { name } topic { name } } } }`;
const HEAVY_KEYS = 4;
const CLIENTS_PER_KEY = 4;

const defaults = loadConfig({});
const SETUPS = {
  "caps at their defaults": {
    QUOTA_CONCURRENT_REQUESTS_PER_KEY: String(defaults.admission.perKey),
    MAX_CONCURRENT_EXECUTIONS: String(defaults.admission.executions),
    EXECUTION_QUEUE_LENGTH: String(defaults.admission.queueLength),
    EXECUTION_QUEUE_TIMEOUT_MS: String(defaults.admission.queueTimeoutMs),
  },
  "caps lifted": {
    QUOTA_CONCURRENT_REQUESTS_PER_KEY: "100000",
    MAX_CONCURRENT_EXECUTIONS: "100000",
    EXECUTION_QUEUE_LENGTH: "0",
    EXECUTION_QUEUE_TIMEOUT_MS: "250",
  },
};

interface Timed {
  ms: number;
  status: number;
}

const agent = new Agent({ keepAlive: true });

function timedPost(
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: body === undefined ? "GET" : "POST", headers, agent },
      (res) => {
        res.resume();
        res.on("end", () => {
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One client asking again as soon as it has its answer, until `until`. */
async function loop(until: number, ask: () => Promise<Timed>, pauseMs = 0): Promise<Timed[]> {
  const answers: Timed[] = [];
  while (performance.now() < until) {
    answers.push(await ask());
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return answers;
}

function heavyLoad(port: number, key: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/api/v1/graphql`,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: HEAVY }),
        connections: CLIENTS_PER_KEY,
        duration: seconds,
        timeout: 60,
      },
      (error, result) => {
        if (error !== null && error !== undefined)
          reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN);

function summary(answers: Timed[]): string {
  const ok = answers
    .filter((answer) => answer.status === 200)
    .map((answer) => answer.ms)
    .sort((a, b) => a - b);
  const statuses = new Map<number, number>();
  for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const counts = [...statuses].map(([status, n]) => `${n}×${status}`).join(" ");
  return `p50 ${percentile(ok, 50).toFixed(1)} ms, p99 ${percentile(ok, 99).toFixed(1)} ms (${counts})`;
}

async function measure(graph: BenchGraph, setup: keyof typeof SETUPS): Promise<void> {
  let product: ChildProcess | undefined;
  try {
    const env = { ...(await productEnv(graph)), ...SETUPS[setup] };
    const started = await startChild("kg-graphql", PRODUCT_ARGS, env);
    product = started.process;
    const { port } = started;
    const store = new ApiKeyStore(graph.driver, "neo4j");
    const heavyKeys = await Promise.all(
      Array.from(
        { length: HEAVY_KEYS },
        async (_, i) => (await store.create(`overload heavy ${i}`, ["read"])).key,
      ),
    );
    const dashboard = questions(graph.subjects).find((question) => question.name === "dashboard");
    if (dashboard === undefined) throw new Error("no dashboard question");
    const dashboardBody = JSON.stringify({
      query: dashboard.graphql.query,
      variables: dashboard.graphql.variables,
    });
    const headers = { "content-type": "application/json", authorization: `Bearer ${graph.key}` };
    const askDashboard = () => timedPost(port, "/api/v1/graphql", headers, dashboardBody);
    const askHealth = () => timedPost(port, "/healthz", {});

    // Warm up (the first requests of a process compile and cache), then the dashboard alone: what
    // it costs on a quiet instance.
    await loop(performance.now() + 1_000, askDashboard);
    await timedPost(
      port,
      "/api/v1/graphql",
      { ...headers, authorization: `Bearer ${heavyKeys[0] ?? ""}` },
      JSON.stringify({ query: HEAVY }),
    );
    const quiet = await loop(performance.now() + 2_000, askDashboard);
    const until = performance.now() + seconds * 1000;
    const [heavy, loaded, health] = await Promise.all([
      Promise.all(heavyKeys.map((key) => heavyLoad(port, key))),
      loop(until, askDashboard),
      loop(until, askHealth, 100),
    ]);
    const heavyStatuses = new Map<string, number>();
    for (const result of heavy) {
      for (const [status, { count = 0 }] of Object.entries(result.statusCodeStats ?? {})) {
        heavyStatuses.set(status, (heavyStatuses.get(status) ?? 0) + count);
      }
    }
    const served = heavyStatuses.get("200") ?? 0;
    log(
      `\n${setup} (${Object.entries(SETUPS[setup])
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}):`,
    );
    log(`  dashboard alone:           ${summary(quiet)}`);
    log(`  dashboard under load:      ${summary(loaded)}`);
    log(`  /healthz under load:       ${summary(health)}`);
    log(
      `  heavy (${HEAVY_KEYS * CLIENTS_PER_KEY} clients):       ${(served / seconds).toFixed(1)} answers/s served (${[...heavyStatuses].map(([s, n]) => `${n}×${s}`).join(" ")})`,
    );
  } finally {
    product?.kill("SIGTERM");
  }
}

async function main(): Promise<void> {
  const graph = await openBenchGraph(size);
  try {
    log(`Overload benchmark on the ${size} graph, ${seconds} s per setup.`);
    await measure(graph, "caps at their defaults");
    await measure(graph, "caps lifted");
  } finally {
    await graph.close();
    agent.destroy();
  }
}

await main();
