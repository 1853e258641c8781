// `npm run bench -- --size 10k|100k|1m [--duration 2] [--rounds 2]`: every contender answers the
// same questions on the same Neo4j and data, in one run; prints a table and writes
// bench/results/<size>.json. Figures are ratios to http-driver measured in the same run.
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import type { Driver } from "neo4j-driver";
import { graphSizes } from "../src/demo-data/sizes.js";
import { NEO4J_VERSION, APOC_VERSION } from "../src/local-neo4j/install.js";
import { projectRoot } from "../src/project-root.js";
import {
  BENCH_QUOTA,
  log,
  openBenchGraph,
  parseSize,
  PRODUCT_ARGS,
  productEnv,
  startChild,
  tsxArgs,
} from "./harness.js";
import {
  canonical,
  questions,
  toJson,
  unwrapSingular,
  type BenchSubjects,
  type GraphQLRequest,
  type Question,
} from "./questions.js";
import { formatRatio, updateReadme } from "./readme.js";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "10k" },
    duration: { type: "string", default: "2" },
    rounds: { type: "string", default: "2" },
  },
});
const size = parseSize(values.size);
/** Seconds of load per contender, question and concurrency, split over the rounds. */
const secondsPerCell = Number(values.duration);
const rounds = Number(values.rounds);
const secondsPerRound = secondsPerCell / rounds;
const CONCURRENCIES = [1, 16] as const;
const resultsDir = join(projectRoot, "bench", "results");

interface Cell {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}
type Results = Record<string, Record<string, Record<number, Cell>>>;

/** A contender served over HTTP: where to POST each question, and how. */
interface HttpContender {
  name: string;
  port: number;
  path: (question: Question) => string;
  body: (question: Question) => string;
  headers: Record<string, string>;
  /** Its answer's `data` in the contract's shape. */
  data: (body: { data?: unknown }, question: Question) => unknown;
  process: ChildProcess;
  /** The exact response body of each question, checked on every request under load. */
  expected: Map<string, string>;
}

const graphqlBody = (request: GraphQLRequest) =>
  JSON.stringify({ query: request.query, variables: request.variables });

async function main(): Promise<void> {
  const started = Date.now();
  const graph = await openBenchGraph(size);
  const { driver, subjects } = graph;
  const children: ChildProcess[] = [];
  try {
    const asked = questions(subjects);
    log("Starting the contenders…");
    const start = async (name: string, args: string[], env: NodeJS.ProcessEnv = graph.env) => {
      const started = await startChild(name, args, env);
      children.push(started.process);
      return started;
    };
    const httpDriver = await start("http-driver", tsxArgs("bench/contenders/http-driver.ts"), {
      ...graph.env,
      SUBJECTS: JSON.stringify(subjects),
    });
    const naive = await start("naive", tsxArgs("bench/contenders/naive.ts"));
    const stock = await start("stock", tsxArgs("bench/contenders/stock.ts"));
    const product = await start("kg-graphql", PRODUCT_ARGS, await productEnv(graph));
    const json = { "content-type": "application/json" };
    const contenders: HttpContender[] = [
      {
        name: "http-driver",
        ...httpDriver,
        path: (q) => `/q/${q.name}`,
        body: () => "{}",
        headers: json,
        data: (body) => body.data,
        expected: new Map(),
      },
      {
        name: "naive",
        ...naive,
        path: () => "/graphql",
        body: (q) => graphqlBody(q.graphql),
        headers: json,
        data: (body) => body.data,
        expected: new Map(),
      },
      {
        name: "stock",
        ...stock,
        path: () => "/graphql",
        body: (q) => graphqlBody(q.stock),
        headers: json,
        data: (body, q) => unwrapSingular(body.data, q.stock.singular),
        expected: new Map(),
      },
      {
        name: "kg-graphql",
        ...product,
        path: () => "/api/v1/graphql",
        body: (q) => graphqlBody(q.graphql),
        headers: { ...json, authorization: `Bearer ${graph.key}` },
        data: (body) => body.data,
        expected: new Map(),
      },
    ];

    log("Checking that every contender gives the same JSON, and warming up…");
    for (const question of asked) await expectSameAnswers(driver, question, contenders);

    const results: Results = {};
    let productRss = 0;
    let productRequests = 0;
    const productCpuBefore = await cpuSeconds(product.process);
    for (const question of asked) {
      for (const concurrency of CONCURRENCIES) {
        const perContender = new Map<string, Cell[]>();
        const record = (name: string, cell: Cell) => {
          perContender.set(name, [...(perContender.get(name) ?? []), cell]);
        };
        for (let round = 1; round <= rounds; round++) {
          // Alternate the order each round, so machine noise hits every contender alike.
          const order = round % 2 === 0 ? [...contenders].reverse() : contenders;
          for (const contender of order) {
            const isProduct = contender === contenders[3];
            const sampler = concurrency === 16 && isProduct ? sampleRss(product.process) : undefined;
            const cell =
              concurrency === 1
                ? await sequentialLoad(contender, question, secondsPerRound)
                : await concurrentLoad(contender, question, concurrency, secondsPerRound);
            if (sampler !== undefined) productRss = Math.max(productRss, sampler.stop());
            await settle(driver);
            if (isProduct) productRequests += cell.requestsPerSecond * secondsPerRound;
            record(contender.name, cell);
          }
          record("raw-driver", await rawDriverLoad(driver, question, concurrency, secondsPerRound));
          log(
            `  ${question.name.padEnd(16)} c=${String(concurrency).padEnd(2)} round ${round}/${rounds} done`,
          );
        }
        for (const [name, cells] of perContender) {
          ((results[question.name] ??= {})[name] ??= {})[concurrency] = medianCell(cells);
        }
      }
    }
    const productCpuMs = ((await cpuSeconds(product.process)) - productCpuBefore) * 1000;
    await report(results, {
      productRssMb: productRss / 1024,
      cpuPerRequestMs: productCpuMs / productRequests,
      subjects,
      elapsed: Date.now() - started,
    });
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await graph.close();
  }
}

/** Asks every contender once (plus a warm-up), and fails unless all give the driver's data. */
async function expectSameAnswers(driver: Driver, question: Question, contenders: HttpContender[]) {
  const { records } = await driver.executeQuery(question.cypher, question.graphql.variables);
  const expected = canonical(toJson(records[0]?.get("data")));
  for (const contender of contenders) {
    const { status, body } = await post(contender, question);
    const data = canonical(contender.data(JSON.parse(body) as { data?: unknown }, question));
    if (status !== 200 || data !== expected) {
      throw new Error(
        `${contender.name} answers ${question.name} differently (${status}):\n${body}\n${expected}`,
      );
    }
    contender.expected.set(question.name, body);
    await concurrentLoad(contender, question, 4, 0.5);
    await settle(driver);
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(contender: HttpContender, question: Question): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: contender.port,
        path: contender.path(question),
        method: "POST",
        headers: contender.headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(contender.body(question));
  });
}

/**
 * Concurrency 1: one keep-alive connection, one request after another, each timed with
 * performance.now() (autocannon's latencies are whole milliseconds, too coarse at this scale).
 */
async function sequentialLoad(contender: HttpContender, question: Question, seconds: number): Promise<Cell> {
  const latencies: number[] = [];
  const expected = contender.expected.get(question.name);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const { status, body } = await post(contender, question);
    latencies.push(performance.now() - start);
    if (status !== 200 || body !== expected)
      throw new Error(`${contender.name} answered ${question.name} with ${status}: ${body.slice(0, 300)}`);
  }
  return summarise(latencies, seconds);
}

/** Concurrency 16 (and warm-up): autocannon, every response checked against the expected body. */
function concurrentLoad(
  contender: HttpContender,
  question: Question,
  connections: number,
  seconds: number,
): Promise<Cell> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${contender.port}${contender.path(question)}`,
        method: "POST",
        headers: contender.headers,
        body: contender.body(question),
        expectBody: contender.expected.get(question.name),
        connections,
        duration: seconds,
        // A label scan at 1M decisions under 16 connections can take seconds: slow is a result here.
        timeout: 120,
      },
      (error, result) => {
        if (error !== null && error !== undefined) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const failed = result.errors + result.non2xx + result.mismatches;
        if (failed > 0) {
          reject(
            new Error(
              `${contender.name} had ${failed} failed or wrong answers to ${question.name} (${JSON.stringify(result.statusCodeStats)})`,
            ),
          );
          return;
        }
        resolve({
          requestsPerSecond: result.requests.total / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
        });
      },
    );
  });
}

/**
 * Ends the transactions a finished cell left behind. autocannon stops at the deadline and drops
 * its connections, but Neo4j goes on running what they asked (a label scan at 1M decisions takes
 * seconds), which would slow whichever contender comes next.
 */
async function settle(driver: Driver): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { records } = await driver.executeQuery(
      `SHOW TRANSACTIONS YIELD transactionId, currentQuery
       WHERE NOT currentQuery STARTS WITH 'SHOW TRANSACTIONS' RETURN collect(transactionId) AS ids`,
    );
    const ids = records[0]?.get("ids") as string[] | undefined;
    if (ids === undefined || ids.length === 0) return;
    await driver.executeQuery("TERMINATE TRANSACTIONS $ids", { ids }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** raw-driver: the hand-written Cypher through the driver, in-process, `concurrency` at a time. */
async function rawDriverLoad(
  driver: Driver,
  question: Question,
  concurrency: number,
  seconds: number,
): Promise<Cell> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      const { records } = await driver.executeQuery(question.cypher, question.graphql.variables, {
        routing: "READ",
      });
      JSON.stringify({ data: toJson(records[0]?.get("data")) });
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarise(latencies, seconds);
}

function summarise(latencies: number[], seconds: number): Cell {
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

/** The median of each figure over the rounds (the mean of the middle two for an even count). */
function medianCell(cells: Cell[]): Cell {
  const median = (pick: (cell: Cell) => number) => {
    const sorted = cells.map(pick).sort((a, b) => a - b);
    const middle = sorted.length / 2;
    return Number.isInteger(middle)
      ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
      : (sorted[Math.floor(middle)] ?? 0);
  };
  return {
    requestsPerSecond: median((c) => c.requestsPerSecond),
    p50: median((c) => c.p50),
    p99: median((c) => c.p99),
  };
}

/** CPU seconds (user + system) a process has used, from /proc. */
async function cpuSeconds(child: ChildProcess): Promise<number> {
  const stat = await readFile(`/proc/${String(child.pid)}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Samples a process's resident set (KiB) every 100 ms until stopped; returns the largest. */
function sampleRss(child: ChildProcess) {
  let peak = 0;
  const timer = setInterval(() => {
    void readFile(`/proc/${String(child.pid)}/status`, "utf8").then((status) => {
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    });
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

interface Target {
  target: string;
  value: number;
  met: boolean;
}

/** The targets, from this run (and, for flatness, the committed 10k results). */
async function targets(results: Results, rssMb: number): Promise<Target[]> {
  const c16 = (question: string, contender: string) =>
    results[question]?.[contender]?.[16]?.requestsPerSecond ?? Number.NaN;
  const list: Target[] = [];
  const add = (target: string, value: number, met: boolean) => list.push({ target, value, met });
  const dashboardVsHttp = c16("dashboard", "kg-graphql") / c16("dashboard", "http-driver");
  add("dashboard: kg-graphql ≥ 0.8× http-driver req/s at c=16", dashboardVsHttp, dashboardVsHttp >= 0.8);
  const dashboardVsNaive = c16("dashboard", "kg-graphql") / c16("dashboard", "naive");
  add("dashboard: kg-graphql ≥ 10× naive req/s at c=16", dashboardVsNaive, dashboardVsNaive >= 10);
  for (const question of Object.keys(results)) {
    const vsStock = c16(question, "kg-graphql") / c16(question, "stock");
    add(`${question}: kg-graphql ≥ 1.0× stock req/s at c=16`, vsStock, vsStock >= 1);
  }
  const baseline = join(resultsDir, "10k.json");
  if (size !== "10k" && existsSync(baseline)) {
    const small = JSON.parse(await readFile(baseline, "utf8")) as { results: ResultRow[] };
    for (const question of Object.keys(results)) {
      const before = small.results.find((r) => r.question === question && r.contender === "kg-graphql");
      const now = results[question]?.["kg-graphql"]?.[1]?.p50;
      if (before === undefined || now === undefined) continue;
      const growth = now / before.c1.p50;
      add(`${question}: kg-graphql p50 at ${size} ≤ 1.5× p50 at 10k`, growth, growth <= 1.5);
    }
  }
  add("kg-graphql RSS ≤ 300 MB under c=16 (MB)", rssMb, rssMb <= 300);
  return list;
}

interface ResultRow {
  question: string;
  contender: string;
  c1: Cell;
  c16: Cell;
  ratioToHttpDriver: { p50: number; requestsPerSecond: number };
}

async function installedVersion(name: string): Promise<string> {
  const file = join(projectRoot, "node_modules", name, "package.json");
  return (JSON.parse(await readFile(file, "utf8")) as { version: string }).version;
}

async function report(
  results: Results,
  run: { productRssMb: number; cpuPerRequestMs: number; subjects: BenchSubjects; elapsed: number },
) {
  const rows: ResultRow[] = [];
  const lines = ["question         contender    c=1 p50 ms  p99 ms  ×http | c=16 req/s  ×http"];
  for (const [question, byContender] of Object.entries(results)) {
    const base = byContender["http-driver"];
    for (const contender of ["raw-driver", "http-driver", "naive", "stock", "kg-graphql"]) {
      const c1 = byContender[contender]?.[1];
      const c16 = byContender[contender]?.[16];
      if (c1 === undefined || c16 === undefined || base?.[1] === undefined || base[16] === undefined)
        continue;
      const ratioToHttpDriver = {
        p50: c1.p50 / base[1].p50,
        requestsPerSecond: c16.requestsPerSecond / base[16].requestsPerSecond,
      };
      rows.push({ question, contender, c1, c16, ratioToHttpDriver });
      lines.push(
        [
          question.padEnd(16),
          contender.padEnd(11),
          c1.p50.toFixed(2).padStart(11),
          c1.p99.toFixed(2).padStart(7),
          ratioToHttpDriver.p50.toFixed(2).padStart(6),
          "|",
          c16.requestsPerSecond.toFixed(0).padStart(10),
          ratioToHttpDriver.requestsPerSecond.toFixed(2).padStart(6),
        ].join(" "),
      );
    }
  }
  const checked = await targets(results, run.productRssMb);
  lines.push(
    "",
    `kg-graphql: peak RSS ${run.productRssMb.toFixed(0)} MB under c=16, CPU ${run.cpuPerRequestMs.toFixed(2)} ms per request`,
    ...checked.map((t) => `${t.met ? "met   " : "MISSED"} ${t.target}: ${formatRatio(t.value)}`),
  );
  log(`\n${lines.join("\n")}`);

  const dependencies = [
    "@apollo/server",
    "@neo4j/graphql",
    "neo4j-driver",
    "graphql",
    "express",
    "@escape.tech/graphql-armor",
    "ioredis",
    "autocannon",
  ];
  const versions: Record<string, string> = {
    neo4j: NEO4J_VERSION,
    apoc: APOC_VERSION,
    node: process.version,
  };
  for (const name of dependencies) versions[name] = await installedVersion(name);
  const file = join(resultsDir, `${size}.json`);
  const document = {
    size,
    command: `npm run bench -- --size ${size} --duration ${secondsPerCell} --rounds ${rounds}`,
    measuredAt: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model },
    versions,
    graph: graphSizes[size],
    quotas: `raised to ${BENCH_QUOTA} per window for this run (operator settings); any 429 fails the run`,
    method:
      "c=1: sequential keep-alive requests timed with performance.now(); c=16: autocannon. Every response " +
      "is checked against the answer all contenders agreed on. Each figure is the median over rounds " +
      "run in alternating contender order; raw-driver runs in the bench process itself.",
    secondsPerCell,
    rounds,
    subjects: run.subjects,
    contenders: ["raw-driver", "http-driver", "naive", "stock", "kg-graphql"],
    results: rows,
    service: { peakRssMb: run.productRssMb, cpuPerRequestMs: run.cpuPerRequestMs },
    targets: checked,
    elapsedSeconds: run.elapsed / 1000,
  };
  // A contender that completed no request in its window gives an infinite ratio: written as text.
  const finite = (_key: string, value: unknown) =>
    typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
  await writeFile(file, `${JSON.stringify(document, finite, 2)}\n`);
  await updateReadme(document);
  log(`Wrote ${file} and its table in README.md (${(run.elapsed / 1000).toFixed(0)} s)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
