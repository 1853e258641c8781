import type { Driver } from "neo4j-driver";
import { loadConfig } from "../../src/config.js";
import { startLocalNeo4j, stopLocalNeo4j } from "../../src/local-neo4j/server.js";
import { createDriver } from "../../src/neo4j/driver.js";

/**
 * The suite's own Neo4j: instance "test" on its own port and data folder, so a developer's
 * `npm start` server is never touched. A running test instance is reused (and left running).
 */
const INSTANCE = "test";
const config = loadConfig({
  ...process.env,
  NEO4J_URI: undefined,
  LOCAL_NEO4J_BOLT_PORT: process.env.TEST_NEO4J_BOLT_PORT ?? "7697",
});
export const testDatabase = config.neo4j.database;
/** The release the suite runs against (`LOCAL_NEO4J_VERSION`; README: the suite on Neo4j 5.26). */
export const testNeo4jVersion = config.localNeo4j.version;
export const testPassword = config.neo4j.password;

let driver: Driver | undefined;
let startedHere = false;

export async function startTestNeo4j(): Promise<void> {
  const server = await startLocalNeo4j({
    name: INSTANCE,
    version: config.localNeo4j.version,
    boltPort: config.localNeo4j.boltPort,
    password: config.neo4j.password,
    heap: "1g",
    pageCache: "256m",
    log: (line) => {
      console.log(`      ${line}`);
    },
  });
  startedHere = !server.reused;
  driver = createDriver(
    { uri: server.uri, user: server.user, password: server.password, database: testDatabase },
    { connectionTimeoutMs: 5_000, acquisitionTimeoutMs: 5_000, maxRetryTimeMs: 5_000 },
  );
}

export async function stopTestNeo4j(): Promise<void> {
  await driver?.close();
  if (startedHere) await stopLocalNeo4j(INSTANCE, config.localNeo4j.version);
}

/** The Bolt URI of the suite's Neo4j, for commands run as child processes. */
export function testBoltUri(): string {
  return `bolt://127.0.0.1:${config.localNeo4j.boltPort}`;
}

/** The driver connected to the suite's Neo4j. */
export function testDriver(): Driver {
  if (driver === undefined) throw new Error("the test Neo4j is not started (root hooks)");
  return driver;
}
