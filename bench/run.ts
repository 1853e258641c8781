// `npm run bench -- --size 10k|100k|1m [--duration 6] [--rounds 3]`: every contender answers the
// same questions on the same Neo4j and data, in one run; prints a table and writes
// bench/results/<size>.json. Figures are ratios to http-driver measured in the same run.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import neo4j, { type Driver } from "neo4j-driver";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import type { DemoDataSize } from "../src/config.js";
import { seedDemoData } from "../src/demo-data/seed.js";
import { graphSizes } from "../src/demo-data/sizes.js";
import { NEO4J_VERSION, APOC_VERSION } from "../src/local-neo4j/install.js";
import { startLocalNeo4j } from "../src/local-neo4j/server.js";
import { projectRoot } from "../src/project-root.js";
import { canonical, questions, toJson, type BenchSubjects, type Question } from "./questions.js";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "10k" },
    duration: { type: "string", default: "6" },
    rounds: { type: "string", default: "3" },
  },
});
const size = values.size as DemoDataSize;
if (!["10k", "100k", "1m"].includes(size)) throw new Error("--size is 10k, 100k or 1m");
const secondsPerCell = Number(values.duration);
const rounds = Number(values.rounds);
const CONCURRENCIES = [1, 16] as const;
const PASSWORD = "kg-graphql-bench";
const log = (line: string) => {
  process.stdout.write(`${line}\n`);
};

interface Cell {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** An HTTP contender: where to POST each question, and how. */
interface HttpContender {
  name: string;
  url: (question: Question) => string;
  body: (question: Question) => string;
  headers: Record<string, string>;
  process: ChildProcess;
}

async function main(): Promise<void> {
  const started = Date.now();
  const neo = await startLocalNeo4j({
    name: "bench",
    boltPort: 7688,
    password: PASSWORD,
    heap: size === "1m" ? "3g" : "1g",
    pageCache: size === "1m" ? "2g" : "512m",
    log,
  });
  const driver = neo4j.driver(neo.uri, neo4j.auth.basic(neo.user, neo.password));
  const database = "neo4j";
  if (!(await holdsDemoSize(driver, size))) await seedDemoData(driver, database, size, 42, log);
  const subjects = await chooseSubjects(driver);
  const asked = questions(subjects);
  const { key } = await new ApiKeyStore(driver, database).create(`bench ${new Date().toISOString()}`, [
    "read",
  ]);

  log("Starting the contenders…");
  const env = {
    ...process.env,
    NEO4J_URI: neo.uri,
    NEO4J_PASSWORD: PASSWORD,
    SUBJECTS: JSON.stringify(subjects),
  };
  const httpDriver = await startChild(
    "http-driver",
    ["--import", "tsx", "bench/contenders/http-driver.ts"],
    env,
  );
  const product = await startChild("kg-graphql", ["dist/src/main.js"], {
    ...env,
    PORT: String(await freePort()),
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    // The contract's quotas (100 a minute) would refuse a benchmark: raised for this run only.
    QUOTA_REQUESTS_PER_MINUTE: "1000000000",
    QUOTA_REQUESTS_PER_DAY: "1000000000",
    QUOTA_GRAPHQL_QUERIES_PER_DAY: "1000000000",
  });
  const contenders: HttpContender[] = [
    {
      name: "http-driver",
      url: (q) => `http://127.0.0.1:${httpDriver.port}/q/${q.name}`,
      body: () => "{}",
      headers: { "content-type": "application/json" },
      process: httpDriver.child,
    },
    {
      name: "kg-graphql",
      url: () => `http://127.0.0.1:${product.port}/api/v1/graphql`,
      body: (q) => JSON.stringify(q.graphql),
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      process: product.child,
    },
  ];

  try {
    log("Checking that every contender gives the same JSON…");
    for (const question of asked) await expectSameAnswers(driver, question, contenders);

    const results: Record<string, Record<string, Record<number, Cell>>> = {};
    let productRss = 0;
    const cpuBefore = await cpuSeconds(product.child);
    let productRequests = 0;
    for (const question of asked) {
      for (const concurrency of CONCURRENCIES) {
        const perContender = new Map<string, Cell[]>();
        for (let round = 1; round <= rounds; round++) {
          // Alternate the order each round, so machine noise hits every contender alike.
          const order = round % 2 === 0 ? [...contenders].reverse() : contenders;
          for (const contender of order) {
            const sampler =
              concurrency === 16 && contender.name === "kg-graphql" ? sampleRss(product.child) : undefined;
            const cell = await load(contender, question, concurrency, secondsPerCell / rounds);
            if (sampler !== undefined) productRss = Math.max(productRss, await sampler.stop());
            if (contender.name === "kg-graphql")
              productRequests += cell.requestsPerSecond * (secondsPerCell / rounds);
            perContender.set(contender.name, [...(perContender.get(contender.name) ?? []), cell]);
          }
          const raw = await rawDriverLoad(driver, question, concurrency, secondsPerCell / rounds);
          perContender.set("raw-driver", [...(perContender.get("raw-driver") ?? []), raw]);
          log(`  ${question.name} c=${concurrency} round ${round}/${rounds} done`);
        }
        for (const [name, cells] of perContender) {
          ((results[question.name] ??= {})[name] ??= {})[concurrency] = medianCell(cells);
        }
      }
    }
    const cpuPerRequestMs = (((await cpuSeconds(product.child)) - cpuBefore) * 1000) / productRequests;
    await report(results, {
      productRssMb: productRss / 1024,
      cpuPerRequestMs,
      subjects,
      elapsed: Date.now() - started,
    });
  } finally {
    for (const contender of contenders) contender.process.kill("SIGTERM");
    await driver.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
    probe.once("error", reject);
  });
}

async function holdsDemoSize(driver: Driver, wanted: DemoDataSize): Promise<boolean> {
  const { records } = await driver.executeQuery(
    "MATCH (d:Decision) RETURN count(d) AS decisions, count(d.decidedAtSortKey) AS keyed",
  );
  const decisions = Number(records[0]?.get("decisions"));
  return decisions === graphSizes[wanted].decisions && Number(records[0]?.get("keyed")) === decisions;
}

/** A topic with a typical number of decisions, and a date with well over 100 decisions after it. */
async function chooseSubjects(driver: Driver): Promise<BenchSubjects> {
  const topic = await driver.executeQuery(
    "MATCH (t:Topic)<-[:ABOUT]-(d:Decision) WITH t, count(d) AS n ORDER BY n DESC, t.id SKIP 10 LIMIT 1 RETURN t.id AS id",
  );
  const date = await driver.executeQuery(
    "MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL WITH d ORDER BY d.decidedAtSortKey DESC SKIP 1000 LIMIT 1 RETURN toString(date(d.decidedAt)) AS day",
  );
  return { topicId: String(topic.records[0]?.get("id")), since: String(date.records[0]?.get("day")) };
}

async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)|serving http:\/\/[\d.]+:(\d+)/.exec(output);
      if (match !== null) resolve(Number(match[1] ?? match[2]));
    });
    child.once("exit", (code) => {
      reject(new Error(`${name} exited with ${String(code)}: ${output}`));
    });
  });
  log(`  ${name} on port ${port} (pid ${String(child.pid)})`);
  return { child, port };
}

async function expectSameAnswers(driver: Driver, question: Question, contenders: HttpContender[]) {
  const { records } = await driver.executeQuery(question.cypher, question.graphql.variables);
  const expected = canonical(toJson(records[0]?.get("data")));
  for (const contender of contenders) {
    const response = await fetch(contender.url(question), {
      method: "POST",
      headers: contender.headers,
      body: contender.body(question),
    });
    const body = (await response.json()) as { data?: unknown };
    if (canonical(body.data) !== expected) {
      throw new Error(
        `${contender.name} answers ${question.name} differently:\n${canonical(body.data)}\n${expected}`,
      );
    }
  }
}

function load(
  contender: HttpContender,
  question: Question,
  connections: number,
  seconds: number,
): Promise<Cell> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: contender.url(question),
        method: "POST",
        headers: contender.headers,
        body: contender.body(question),
        connections,
        duration: seconds,
      },
      (error, result) => {
        if (error !== null && error !== undefined) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const errors = result.errors + result.non2xx;
        if (errors > 0)
          reject(new Error(`${contender.name} had ${errors} failed requests on ${question.name}`));
        resolve({
          requestsPerSecond: result.requests.total / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors,
        });
      },
    );
  });
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
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors: 0 };
}

function medianCell(cells: Cell[]): Cell {
  const median = (pick: (cell: Cell) => number) => {
    const sorted = cells.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  return {
    requestsPerSecond: median((c) => c.requestsPerSecond),
    p50: median((c) => c.p50),
    p99: median((c) => c.p99),
    errors: cells.reduce((sum, c) => sum + c.errors, 0),
  };
}

/** CPU seconds (user + system) a process has used, from /proc. */
async function cpuSeconds(child: ChildProcess): Promise<number> {
  const stat = await readFile(`/proc/${String(child.pid)}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Samples a process's resident set (KiB) until stopped; resolves with the largest. */
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
      return Promise.resolve(peak);
    },
  };
}

async function report(
  results: Record<string, Record<string, Record<number, Cell>>>,
  run: { productRssMb: number; cpuPerRequestMs: number; subjects: BenchSubjects; elapsed: number },
) {
  const rows: string[] = [];
  const table: unknown[] = [];
  rows.push("question           contender     c=1 p50 ms  p99 ms  ×http p50 | c=16 req/s  ×http req/s");
  for (const [question, byContender] of Object.entries(results)) {
    const base = byContender["http-driver"];
    for (const [contender, cells] of Object.entries(byContender)) {
      const one = cells[1];
      const sixteen = cells[16];
      if (one === undefined || sixteen === undefined || base?.[1] === undefined || base[16] === undefined)
        continue;
      const p50Ratio = one.p50 / base[1].p50;
      const rpsRatio = sixteen.requestsPerSecond / base[16].requestsPerSecond;
      table.push({
        question,
        contender,
        c1: one,
        c16: sixteen,
        ratioToHttpDriver: { p50: p50Ratio, requestsPerSecond: rpsRatio },
      });
      rows.push(
        `${question.padEnd(18)} ${contender.padEnd(12)} ${one.p50.toFixed(2).padStart(10)} ${one.p99.toFixed(2).padStart(7)} ${p50Ratio.toFixed(2).padStart(10)} | ${sixteen.requestsPerSecond.toFixed(0).padStart(10)} ${rpsRatio.toFixed(2).padStart(12)}`,
      );
    }
  }
  const dashboard = results.dashboard;
  const dashboardRatio =
    (dashboard?.["kg-graphql"]?.[16]?.requestsPerSecond ?? 0) /
    (dashboard?.["http-driver"]?.[16]?.requestsPerSecond ?? 1);
  const targets = {
    "dashboard throughput ≥ 0.8× http-driver at c=16": { value: dashboardRatio, met: dashboardRatio >= 0.8 },
    "service RSS ≤ 300 MB under c=16": { value: run.productRssMb, met: run.productRssMb <= 300 },
  };
  rows.push("");
  rows.push(
    `kg-graphql: peak RSS ${run.productRssMb.toFixed(0)} MB under c=16, CPU ${run.cpuPerRequestMs.toFixed(2)} ms per request`,
  );
  for (const [name, target] of Object.entries(targets))
    rows.push(`target ${name}: ${target.value.toFixed(2)} ${target.met ? "met" : "MISSED"}`);
  log(`\n${rows.join("\n")}`);
  const packageJson = JSON.parse(await readFile(join(projectRoot, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const file = join(projectRoot, "bench", "results", `${size}.json`);
  await writeFile(
    file,
    `${JSON.stringify(
      {
        size,
        command: `npm run bench -- --size ${size} --duration ${secondsPerCell} --rounds ${rounds}`,
        measuredAt: new Date().toISOString(),
        machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
        versions: { neo4j: NEO4J_VERSION, apoc: APOC_VERSION, ...packageJson.dependencies },
        quotas:
          "raised to 1,000,000,000 per window for this run (operator settings); any 429 makes the run fail",
        secondsPerCell,
        rounds,
        subjects: run.subjects,
        contenders: ["raw-driver", "http-driver", "kg-graphql"],
        results: table,
        service: { peakRssMb: run.productRssMb, cpuPerRequestMs: run.cpuPerRequestMs },
        targets,
        elapsedSeconds: run.elapsed / 1000,
      },
      null,
      2,
    )}\n`,
  );
  log(`Wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
