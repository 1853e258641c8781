import type { Driver } from "neo4j-driver";
import type { Config } from "../config.js";
import { createDriver } from "./driver.js";

/** The local development server's instance name (`npm run db -- … --instance dev`). */
export const LOCAL_INSTANCE = "dev";

/** How long the driver retries a transaction whose connection failed. */
export const MAX_RETRY_TIME_MS = 500;

export interface Neo4jHandle {
  driver: Driver;
  /** True when no NEO4J_URI was configured and a local development server is used. */
  local: boolean;
  /** Where the driver connects (the local server's when `local`), without any credentials in it. */
  uri: string;
}

/**
 * The service's Neo4j: the configured `NEO4J_URI` (production: connect only), or else a local
 * server of the project's own, started (or reused) on demand.
 */
export async function connectNeo4j(config: Config, log: (line: string) => void): Promise<Neo4jHandle> {
  let uri = config.neo4j.uri;
  if (uri === undefined) {
    // Loaded only here: production images never start a database of their own.
    const { startLocalNeo4j } = await import("../local-neo4j/server.js");
    const server = await startLocalNeo4j({
      name: LOCAL_INSTANCE,
      version: config.localNeo4j.version,
      boltPort: config.localNeo4j.boltPort,
      password: config.neo4j.password,
      heap: config.localNeo4j.heap,
      pageCache: config.localNeo4j.pageCache,
      log,
    });
    log(
      `${server.reused ? "Using the running" : "Started a"} local Neo4j at ${server.uri} (pid ${server.pid})`,
    );
    uri = server.uri;
  }
  const driver = createDriver(
    { uri, user: config.neo4j.user, password: config.neo4j.password, database: config.neo4j.database },
    {
      connectionTimeoutMs: config.neo4j.connectionTimeoutMs,
      acquisitionTimeoutMs: config.neo4j.connectionTimeoutMs,
      // Short: a request against a database that just went away answers 503 within about
      // one connection timeout, not after 30 s of retries (contract §3).
      maxRetryTimeMs: MAX_RETRY_TIME_MS,
    },
  );
  return { driver, local: config.neo4j.uri === undefined, uri: withoutCredentials(uri) };
}

/** A URI fit for a log line: any `user:password@` it carries is dropped. */
export function withoutCredentials(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.username === "" && url.password === "") return uri;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return "(an unparsable NEO4J_URI)";
  }
}
