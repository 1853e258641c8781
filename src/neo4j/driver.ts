import neo4j, { type Driver } from "neo4j-driver";

export interface Neo4jConnection {
  uri: string;
  user: string;
  password: string;
  database: string;
}

export interface DriverTimeouts {
  /** Time to open one connection (TCP + Bolt handshake). */
  connectionTimeoutMs: number;
  /** Time to get a connection from the pool, including opening it. */
  acquisitionTimeoutMs: number;
  /** Retries of a transaction function stop after this long. */
  maxRetryTimeMs: number;
}

/**
 * Creates the one driver the service uses. The driver's defaults (30 s to connect, 30 s of
 * retries) make a request against a stopped database hang for half a minute; callers need a fast
 * answer, so every timeout is an explicit setting.
 */
export function createDriver(connection: Neo4jConnection, timeouts: DriverTimeouts): Driver {
  return neo4j.driver(connection.uri, neo4j.auth.basic(connection.user, connection.password), {
    connectionTimeout: timeouts.connectionTimeoutMs,
    connectionAcquisitionTimeout: timeouts.acquisitionTimeoutMs,
    maxTransactionRetryTime: timeouts.maxRetryTimeMs,
    userAgent: "kg-graphql",
  });
}
