// `npm run bench:profile -- [--size 10k] [--question dashboard] [--seconds 10]`: where kg-graphql's
// CPU time goes. Runs the service under V8's sampling profiler (--cpu-prof) while autocannon asks
// one question at concurrency 16, then sorts the samples by stage: the package or part of Node a
// sampled function belongs to. Writes the .cpuprofile (open it in Chrome DevTools for the flame
// graph) and prints CPU milliseconds per request for each stage.
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import autocannon from "autocannon";
import { log, openBenchGraph, parseSize, PRODUCT_ARGS, productEnv, startChild } from "./harness.js";
import { questions } from "./questions.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:profile -- [--size 10k] [--question dashboard] [--seconds 10]\n\nWhat it measures: the comment at the top of bench/profile.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      question: { type: "string", default: "dashboard" },
      seconds: { type: "string", default: "10" },
    },
  },
);

/** Stages by where the sampled function's code lives; the first match wins. */
const STAGES: [stage: string, pattern: RegExp][] = [
  [
    "translate to Cypher (@neo4j/graphql, cypher-builder)",
    /node_modules\/@neo4j\/(graphql|cypher-builder)\//,
  ],
  ["Neo4j driver (Bolt, records)", /node_modules\/neo4j-driver/],
  ["graphql-js (parse, validate, execute)", /node_modules\/graphql\//],
  ["Apollo Server", /node_modules\/@apollo\/|node_modules\/@as-integrations\//],
  ["limits (Armor, cost estimator)", /node_modules\/(@escape\.tech|graphql-query-complexity)\//],
  ["quota (ioredis)", /node_modules\/(ioredis|@ioredis|redis-)/],
  ["Express", /node_modules\/(express|router|body-parser|finalhandler|send|on-finished|qs)\//],
  ["kg-graphql's own code", /\/dist\/src\//],
  ["other packages", /node_modules\//],
  ["Node (HTTP, streams, crypto, timers)", /^node:|^internal\//],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  /** When the profile started, in µs of the system's monotonic clock (process.hrtime's). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the monotonic clock V8's profiler stamps its samples with, in µs. */
const monotonicMicroseconds = () => Number(process.hrtime.bigint() / 1000n);

/**
 * A node's stage by where its code lives. Built-ins (JSON.parse, regexps, array methods) have no
 * URL: they count for the nearest caller that has one, so JSON work lands on whoever asked for it.
 */
function stagesOf(nodes: ProfileNode[]): Map<number, string> {
  const parent = new Map<number, ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node);
  const stage = (node: ProfileNode): string => {
    const { url, functionName } = node.callFrame;
    if (url !== "") return STAGES.find(([, pattern]) => pattern.test(url))?.[0] ?? "other";
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(garbage collector)") return "garbage collector";
    if (functionName === "(program)") return "V8 (compile, runtime)";
    const caller = parent.get(node.id);
    return caller === undefined ? "native, no JavaScript caller" : stage(caller);
  };
  return new Map(nodes.map((node) => [node.id, stage(node)]));
}

async function main(): Promise<void> {
  const size = parseSize(values.size, refuse);
  const seconds = count("seconds");
  const graph = await openBenchGraph(size);
  const question =
    questions(graph.subjects).find((q) => q.name === values.question) ??
    refuse(`No question is named ${JSON.stringify(values.question)}.`);
  const profileDir = await mkdtemp(join(tmpdir(), "kg-graphql-profile-"));
  const product = await startChild(
    "kg-graphql",
    ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, ...PRODUCT_ARGS],
    await productEnv(graph),
  );
  try {
    const options = {
      url: `http://127.0.0.1:${product.port}/api/v1/graphql`,
      method: "POST" as const,
      headers: { "content-type": "application/json", authorization: `Bearer ${graph.key}` },
      body: JSON.stringify(question.graphql),
      connections: 16,
    };
    log(`Warming up, then ${seconds} s of ${question.name} at c=16 on ${size}…`);
    // Asked once alone first: a new document waits while the service pre-plans its known ones at
    // start-up, and 16 callers that give up on it at the warm-up's end hold its slots until it is
    // answered, which would shed the measured run's first requests.
    const first = await fetch(options.url, options);
    if (first.status !== 200) throw new Error(`the question answered ${String(first.status)}`);
    await autocannon({ ...options, duration: 2 });
    const from = monotonicMicroseconds();
    const result = await autocannon({ ...options, duration: seconds });
    const to = monotonicMicroseconds();
    if (result.non2xx + result.errors > 0)
      throw new Error(`${result.non2xx + result.errors} failed requests`);
    const exited = once(product.process, "exit");
    product.process.kill("SIGTERM");
    await exited;

    const [file] = (await readdir(profileDir)).filter((name) => name.endsWith(".cpuprofile"));
    if (file === undefined) throw new Error("the service wrote no profile");
    const profile = JSON.parse(await readFile(join(profileDir, file), "utf8")) as CpuProfile;
    const stageById = stagesOf(profile.nodes);
    const microseconds = new Map<string, number>();
    // Only the samples of the measured seconds: the profile spans start-up (loading modules,
    // building the schema: about a second of CPU), the warm-up and shutdown too.
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (at < from || at > to) return;
      const stage = stageById.get(id) ?? "other";
      microseconds.set(stage, (microseconds.get(stage) ?? 0) + delta);
    });
    const requests = result.requests.total;
    const busy = [...microseconds].filter(([stage]) => stage !== "(idle)");
    const busyTotal = busy.reduce((sum, [, us]) => sum + us, 0);
    log(
      `\n${result.requests.total} requests measured (${(result.requests.total / seconds).toFixed(0)}/s), p50 ${result.latency.p50} ms`,
    );
    log("stage                                                  CPU ms/request   share of busy");
    for (const [stage, us] of busy.sort((a, b) => b[1] - a[1])) {
      log(
        `${stage.padEnd(54)} ${(us / 1000 / requests).toFixed(3).padStart(10)} ${((100 * us) / busyTotal).toFixed(1).padStart(12)} %`,
      );
    }
    log(`idle: ${((microseconds.get("(idle)") ?? 0) / 1e6).toFixed(1)} s of the profile`);
    log(`Profile: ${join(profileDir, file)}`);
  } finally {
    product.process.kill("SIGTERM");
    await graph.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
