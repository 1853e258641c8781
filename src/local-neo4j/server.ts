import { spawn } from "node:child_process";
import { existsSync, openSync, closeSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import neo4j, { Neo4jError } from "neo4j-driver";
import { projectRoot } from "../project-root.js";
import { DEFAULT_NEO4J_VERSION, type Neo4jVersion } from "../config.js";
import { ensureNeo4jInstalled, NEO4J_RELEASES } from "./install.js";
import { findJava } from "./java.js";

/** A Neo4j server of our own on 127.0.0.1, with its data in `.neo4j/instances/<name>`. */
export interface LocalNeo4jOptions {
  /** Instance name: separate data folders let the test suite run beside a developer's server. */
  name: string;
  /** The release to run (default {@link DEFAULT_NEO4J_VERSION}); each keeps its own data folder. */
  version?: Neo4jVersion;
  boltPort: number;
  /** Password set on first start (Neo4j requires 8+ characters). */
  password: string;
  heap: string;
  pageCache: string;
  log?: (line: string) => void;
}

export interface LocalNeo4j {
  uri: string;
  user: string;
  password: string;
  pid: number;
  /** The Java it runs on (its feature release; of a reused server, the Java it would be started with). */
  javaMajor: number;
  /** True when a server of this instance was already running and is reused. */
  reused: boolean;
}

const USER = "neo4j";
const INITIAL_PASSWORD = "neo4j";
const READY_TIMEOUT_MS = 180_000;
const POLL_INTERVAL_MS = 250;
const STOP_TIMEOUT_MS = 60_000;

/**
 * An instance's folder. Each release has its own: a store that a newer release has opened cannot
 * be opened by an older one again.
 */
export function instanceDir(name: string, version: Neo4jVersion = DEFAULT_NEO4J_VERSION): string {
  return join(projectRoot, ".neo4j", "instances", `${name}-${version}`);
}

const pidFile = (dir: string) => join(dir, "run", "kg-neo4j.pid");
const passwordMarker = (dir: string) => join(dir, "password-set");
const consoleLog = (dir: string) => join(dir, "logs", "console.log");

/**
 * Starts the instance, or reuses it when its server is already running, and resolves once Bolt
 * answers a query with the instance's password. The server runs detached: it outlives the command
 * that started it until {@link stopLocalNeo4j}.
 */
export async function startLocalNeo4j(options: LocalNeo4jOptions): Promise<LocalNeo4j> {
  const log = options.log ?? (() => undefined);
  const version = options.version ?? DEFAULT_NEO4J_VERSION;
  const dir = instanceDir(options.name, version);
  const uri = `bolt://127.0.0.1:${options.boltPort}`;
  const running = await runningServer(options.name, version);
  if (running !== undefined) {
    if (running.boltPort !== options.boltPort) {
      throw new Error(
        `Neo4j instance "${options.name}" already runs on port ${running.boltPort}, not ${options.boltPort}; stop it first.`,
      );
    }
    await waitUntilReady(options, dir, uri, running.pid);
    return {
      uri,
      user: USER,
      password: options.password,
      pid: running.pid,
      javaMajor: running.javaMajor,
      reused: true,
    };
  }
  // Readiness is judged by Bolt answering on the port: another server already there would pass
  // for ours.
  if (await isListening(options.boltPort)) {
    throw new Error(`Port ${options.boltPort} is already in use; set LOCAL_NEO4J_BOLT_PORT to a free port.`);
  }

  const release = NEO4J_RELEASES[version];
  const java = await findJava(release.minimumJava);
  const home = await ensureNeo4jInstalled(version, log);
  for (const sub of ["conf", "data", "logs", "run", "import", "plugins"])
    await mkdir(join(dir, sub), { recursive: true });
  await writeFile(join(dir, "conf", "neo4j.conf"), neo4jConf(options, dir));

  const started = Date.now();
  log(`Starting Neo4j ${version} (instance "${options.name}") on ${uri}, Java ${String(java.major)}…`);
  const out = openSync(consoleLog(dir), "a");
  const child = spawn(
    java.java,
    [
      `-Xms${options.heap}`,
      `-Xmx${options.heap}`,
      "-XX:+UseG1GC",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      // Java 24 and later warn of Neo4j's native access (JNA) at every start without it; 17 knows it too.
      "--enable-native-access=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true",
      "-cp",
      `${join(home, "lib")}/*`,
      release.entryPoint,
      `--home-dir=${dir}`,
      `--config-dir=${join(dir, "conf")}`,
      "--console-mode",
    ],
    { detached: true, stdio: ["ignore", out, out] },
  );
  closeSync(out);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${java.java}`);
  child.unref();
  await writeFile(
    pidFile(dir),
    JSON.stringify({ pid, boltPort: options.boltPort, javaMajor: java.major } satisfies RunningServer),
  );

  await waitUntilReady(options, dir, uri, pid);
  log(`Neo4j ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { uri, user: USER, password: options.password, pid, javaMajor: java.major, reused: false };
}

/** Stops the instance's server (SIGTERM, then waits for a clean shutdown). */
export async function stopLocalNeo4j(
  name: string,
  version: Neo4jVersion = DEFAULT_NEO4J_VERSION,
): Promise<boolean> {
  const pid = (await runningServer(name, version))?.pid;
  if (pid === undefined) return false;
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) process.kill(pid, "SIGKILL");
    await sleep(POLL_INTERVAL_MS);
  }
  await rm(pidFile(instanceDir(name, version)), { force: true });
  return true;
}

interface RunningServer {
  pid: number;
  boltPort: number;
  /** The Java it was started with. */
  javaMajor: number;
}

/** The instance's running server, if any. */
export async function runningServer(
  name: string,
  version: Neo4jVersion = DEFAULT_NEO4J_VERSION,
): Promise<RunningServer | undefined> {
  const file = pidFile(instanceDir(name, version));
  if (!existsSync(file)) return undefined;
  try {
    const server = JSON.parse(await readFile(file, "utf8")) as RunningServer;
    return Number.isInteger(server.pid) && server.pid > 0 && isAlive(server.pid) ? server : undefined;
  } catch {
    return undefined;
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      resolve(false);
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function neo4jConf(options: LocalNeo4jOptions, dir: string): string {
  return [
    "server.default_listen_address=127.0.0.1",
    `server.bolt.listen_address=127.0.0.1:${options.boltPort}`,
    `server.bolt.advertised_address=127.0.0.1:${options.boltPort}`,
    "server.http.enabled=false",
    "server.https.enabled=false",
    "dbms.security.auth_enabled=true",
    // The machine reaches no telemetry endpoint; do not try.
    "dbms.usage_report.enabled=false",
    `server.directories.data=${join(dir, "data")}`,
    `server.directories.logs=${join(dir, "logs")}`,
    `server.directories.run=${join(dir, "run")}`,
    `server.directories.import=${join(dir, "import")}`,
    `server.directories.plugins=${join(dir, "plugins")}`,
    `server.memory.pagecache.size=${options.pageCache}`,
    // Plans cached per database (Neo4j's default is 1,000 texts): ad-hoc questions each bring new
    // Cypher texts, and the pre-planned known documents (src/planning/) must not be evicted by a
    // morning of them. Plans are small next to the heap; 1 GB holds this many with room. (5.26's
    // and 2026.x's name for what was `server.db.query_cache_size`.)
    "server.memory.query_cache.per_db_cache_num_entries=2000",
    // Bulk demo loads write large transaction logs; keep only what recovery needs.
    "db.tx_log.rotation.retention_policy=2 files",
    "",
  ].join("\n");
}

/**
 * Polls Bolt until the server answers a query as `neo4j` with the instance's password. A fresh
 * database has the expired password `neo4j`; it is changed once, as an operator would.
 */
async function waitUntilReady(
  options: LocalNeo4jOptions,
  dir: string,
  uri: string,
  pid: number,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isAlive(pid)) {
      throw new Error(`Neo4j exited during start-up; see ${consoleLog(dir)}\n${await logTail(dir)}`);
    }
    const state = await probe(uri, dir, options);
    if (state === "ready") return;
    if (state === "unauthorized") {
      throw new Error(
        `Neo4j on ${uri} refuses the configured password. Stop it and delete ${dir} ` +
          `to start afresh, or set NEO4J_PASSWORD to its password.`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`Neo4j did not answer on ${uri} within ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_INTERVAL_MS);
  }
}

type ProbeResult = "ready" | "unavailable" | "unauthorized";

async function probe(uri: string, dir: string, options: LocalNeo4jOptions): Promise<ProbeResult> {
  if (!existsSync(passwordMarker(dir))) {
    const initial = await tryQuery(uri, INITIAL_PASSWORD, async (driver) => {
      await driver.executeQuery(
        `ALTER CURRENT USER SET PASSWORD FROM $old TO $new`,
        {
          old: INITIAL_PASSWORD,
          new: options.password,
        },
        { database: "system" },
      );
    });
    if (initial === "unavailable") return initial;
    await writeFile(passwordMarker(dir), "");
  }
  return tryQuery(uri, options.password, async (driver) => {
    await driver.executeQuery("RETURN 1");
  });
}

async function tryQuery(
  uri: string,
  password: string,
  work: (driver: neo4j.Driver) => Promise<void>,
): Promise<ProbeResult> {
  const driver = neo4j.driver(uri, neo4j.auth.basic(USER, password), {
    connectionTimeout: 2_000,
    maxTransactionRetryTime: 0,
    maxConnectionPoolSize: 1,
  });
  try {
    await work(driver);
    return "ready";
  } catch (error) {
    if (error instanceof Neo4jError && error.code === "Neo.ClientError.Security.Unauthorized")
      return "unauthorized";
    return "unavailable";
  } finally {
    await driver.close();
  }
}

async function logTail(dir: string): Promise<string> {
  try {
    return (await readFile(consoleLog(dir), "utf8")).split("\n").slice(-30).join("\n");
  } catch {
    return "";
  }
}
