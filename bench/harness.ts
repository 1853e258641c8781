// What the benchmark commands share: a local Neo4j per size holding the demo graph, the subjects
// the questions ask about, an API key, and child processes that report the port they listen on.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { open, readFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import neo4j, { type Driver } from "neo4j-driver";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { loadConfig, type DemoDataSize, type Neo4jVersion } from "../src/config.js";
import { seedDemoData } from "../src/demo-data/seed.js";
import { graphSizes } from "../src/demo-data/sizes.js";
import { startLocalNeo4j, stopLocalNeo4j } from "../src/local-neo4j/server.js";
import { projectRoot } from "../src/project-root.js";
import { listeningPort } from "./contenders/listening.js";
import type { BenchSubjects } from "./questions.js";
import type { ShapeSubjects } from "./cold-shapes.js";
import { removeBusyTopic } from "./graph-questions.js";

/** One instance per size, so that switching sizes does not reload a million decisions. */
export const BENCH_SIZES = {
  "10k": { boltPort: 7688, heap: "1g", pageCache: "512m" },
  "100k": { boltPort: 7689, heap: "1g", pageCache: "1g" },
  "1m": { boltPort: 7690, heap: "3g", pageCache: "3g" },
} as const;
export type BenchSize = keyof typeof BENCH_SIZES & DemoDataSize;

/** `--size`'s graph; anything else is refused by the tool's `refuse` (scripts/command-line.ts). */
export function parseSize(value: string | undefined, refuse: (why: string) => never): BenchSize {
  return value !== undefined && Object.hasOwn(BENCH_SIZES, value)
    ? (value as BenchSize)
    : refuse(`--size is 10k, 100k or 1m, not ${JSON.stringify(value)}.`);
}

const PASSWORD = "kg-graphql-bench";
/** The contract's quotas (100 a minute) would refuse a benchmark: raised for bench runs only. */
export const BENCH_QUOTA = "1000000000";

export const log = (line: string) => {
  process.stdout.write(`${line}\n`);
};

export interface BenchGraph {
  driver: Driver;
  /** The release the instance runs (`LOCAL_NEO4J_VERSION`) and the Java it runs on (`JAVA_HOME`, else the newest). */
  neo4jVersion: Neo4jVersion;
  javaMajor: number;
  /** The Neo4j server's process, for its CPU time (the first one's: `restart` starts another). */
  neo4jPid: number;
  uri: string;
  subjects: BenchSubjects;
  /** A fresh API key with the read scope. */
  key: string;
  /** Environment for a child that connects to this Neo4j. */
  env: NodeJS.ProcessEnv;
  /** Stops the instance and starts it again, as `npm run db -- stop` and `start` do (its plan caches start empty). */
  restart: () => Promise<void>;
  /** Closes the driver and stops the instance (its data stays for the next run). */
  close: () => Promise<void>;
}

/** Starts the size's instance, loads the demo graph unless it is already there. */
export async function openBenchGraph(size: BenchSize): Promise<BenchGraph> {
  const instance = `bench-${size}`;
  const version = loadConfig(process.env).localNeo4j.version;
  const options = { name: instance, version, password: PASSWORD, log, ...BENCH_SIZES[size] };
  const neo = await startLocalNeo4j(options);
  const driver = neo4j.driver(neo.uri, neo4j.auth.basic(neo.user, neo.password));
  const database = "neo4j";
  // A graph-questions run that stopped before it took its busy topic out.
  await removeBusyTopic(driver);
  if (!(await holdsDemoSize(driver, size))) await seedDemoData(driver, database, size, 42, log);
  const { key } = await new ApiKeyStore(driver, database).create(`bench ${new Date().toISOString()}`, [
    "read",
  ]);
  return {
    driver,
    neo4jVersion: version,
    javaMajor: neo.javaMajor,
    neo4jPid: neo.pid,
    uri: neo.uri,
    subjects: await chooseSubjects(driver),
    key,
    // Every contender runs as the Dockerfile deploys the service: with NODE_ENV=production,
    // graphql-js skips its development checks (a second look at every failed `instanceof`).
    env: { ...process.env, NODE_ENV: "production", NEO4J_URI: neo.uri, NEO4J_PASSWORD: PASSWORD },
    restart: async () => {
      await stopLocalNeo4j(instance, version);
      await startLocalNeo4j(options);
    },
    close: async () => {
      await driver.close();
      await stopLocalNeo4j(instance, version);
    },
  };
}

/** Environment for kg-graphql itself: quotas raised, counted in Redis like a deployment. */
export async function productEnv(graph: BenchGraph): Promise<NodeJS.ProcessEnv> {
  return {
    ...graph.env,
    PORT: String(await freePort()),
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    QUOTA_REQUESTS_PER_MINUTE: BENCH_QUOTA,
    QUOTA_REQUESTS_PER_DAY: BENCH_QUOTA,
    QUOTA_GRAPHQL_QUERIES_PER_DAY: BENCH_QUOTA,
    LOG_FORMAT: "json",
    // One key sends 16 requests at once; contract §12's per-key cap (8) is raised like the quotas.
    QUOTA_CONCURRENT_REQUESTS_PER_KEY: BENCH_QUOTA,
  };
}

export const PRODUCT_ARGS = ["dist/src/main.js"];
export const tsxArgs = (file: string) => ["--import", "tsx", file];

export function freePort(): Promise<number> {
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
  const { records } = await driver.executeQuery("MATCH (d:Decision) RETURN count(d) AS decisions");
  return Number(records[0]?.get("decisions")) === graphSizes[wanted].decisions;
}

/**
 * Subjects with the same shape at every size: a topic ranked 11th by decisions, a date with 1,000
 * decisions after it, and the person owning the most features (with their commonest stage).
 */
async function chooseSubjects(driver: Driver): Promise<BenchSubjects> {
  const one = async (cypher: string) => (await driver.executeQuery(cypher)).records[0];
  const topic = await one(
    "MATCH (t:Topic)<-[:ABOUT]-(d:Decision) WITH t, count(d) AS n ORDER BY n DESC, t.id SKIP 10 LIMIT 1 RETURN t.id AS id",
  );
  const date = await one(
    "MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL WITH d ORDER BY d.decidedAt DESC SKIP 1000 LIMIT 1 RETURN toString(date(d.decidedAt)) AS day",
  );
  const owner = await one(
    "MATCH (p:Person)-[:OWNS]->(f:Feature) WITH p, f.stage AS stage, count(*) AS n ORDER BY n DESC, p.id, stage LIMIT 1 RETURN p.id AS id, stage",
  );
  return {
    topicId: String(topic?.get("id")),
    since: String(date?.get("day")),
    ownerId: String(owner?.get("id")),
    stage: String(owner?.get("stage")),
  };
}

/**
 * Starts a bench child with its stdout in a file (kg-graphql logs a line per request; a pipe read
 * by the load generator's process would cost it CPU) and waits for its start-up line,
 * `{"event":"listening","port":…}`.
 */
export async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv) {
  const file = join(tmpdir(), `kg-graphql-bench-${name}-${String(process.pid)}.log`);
  const output = await open(file, "w");
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env,
    stdio: ["ignore", output.fd, "inherit"],
  });
  await output.close();
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  for (;;) {
    const port = (await readFile(file, "utf8"))
      .split("\n")
      .map(listeningPort)
      .find((p) => p !== undefined);
    if (port !== undefined) {
      log(`  ${name} on port ${String(port)} (pid ${String(child.pid)}, output in ${file})`);
      return { process: child, port, output: file };
    }
    if (exited !== undefined)
      throw new Error(`${name} exited with ${String(exited)}; its output is in ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One answer of the product over HTTP: its time, status, `Retry-After` and body. */
export interface ProductAnswer {
  ms: number;
  status: number;
  retryAfter?: string;
  body: string;
}

/**
 * Sends documents to the product on `port` with `key`, over at most `sockets` keep-alive
 * connections, each answer timed from the request to its last byte. `close` ends the connections.
 */
export function productAsker(port: number, key: string, sockets = 1) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const ask = (query: string) =>
    new Promise<ProductAnswer>((resolve, reject) => {
      const started = performance.now();
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/v1/graphql",
          method: "POST",
          agent,
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const retryAfter = res.headers["retry-after"];
            resolve({
              ms: performance.now() - started,
              status: res.statusCode ?? 0,
              ...(typeof retryAfter === "string" && { retryAfter }),
              body: Buffer.concat(chunks).toString("utf8"),
            });
          });
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ query }));
    });
  return {
    ask,
    close: () => {
      agent.destroy();
    },
  };
}

/** The ids and teams the generated shapes ask about (bench/cold-shapes.ts): nodes with links to read. */
export async function shapeSubjects(driver: Driver): Promise<ShapeSubjects> {
  const column = async (cypher: string) =>
    (await driver.executeQuery(cypher)).records.map((record) => String(record.get(0)));
  return {
    topicIds: await column(
      "MATCH (t:Topic)<-[:ABOUT]-(:Decision) WITH DISTINCT t ORDER BY t.id LIMIT 50 RETURN t.id",
    ),
    ownerIds: await column(
      "MATCH (p:Person)-[:OWNS]->(:Feature) WITH DISTINCT p ORDER BY p.id LIMIT 50 RETURN p.id",
    ),
    teams: await column("MATCH (f:Feature) WHERE f.team IS NOT NULL RETURN DISTINCT f.team LIMIT 20"),
  };
}
