import { Neo4jError } from "neo4j-driver";
import { Neo4jDidNotAnswer } from "./deadline.js";

/** Driver codes for "the database cannot be reached" (as opposed to a query that failed). */
const UNAVAILABLE_CODES = new Set(["ServiceUnavailable", "SessionExpired"]);

/** Server codes for a transaction that ran past its timeout. */
const TIMEOUT_CODES = new Set([
  "Neo.ClientError.Transaction.TransactionTimedOut",
  "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
]);

/** `error` and the errors it wraps, through GraphQL's `originalError` and `cause` (10 at most). */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < 10;) {
    chain.push(current);
    const wrapper = current as Error & { originalError?: unknown };
    current = wrapper.originalError ?? wrapper.cause;
  }
  return chain;
}

/** The driver error behind `error`, through GraphQL's `originalError` and `cause` wrappers. */
export function findNeo4jError(error: unknown): Neo4jError | undefined {
  return causes(error).find((cause): cause is Neo4jError => cause instanceof Neo4jError);
}

/**
 * The driver's own failures to get a connection carry no code ("N/A"), only these words: its
 * timeouts, where a database that accepts TCP but does not answer (starting up, hung) ends, and
 * its pool closed under a request as the service shuts down.
 */
const CONNECTION_WAIT_TIMEOUTS =
  /^(Connection acquisition timed out|Failed to establish connection in|Pool is closed, it is no more able to serve requests)/;

/**
 * Server codes refusing the service itself, not the request: its credentials (a password rotated
 * under a running service, too many failed logins, an expired password) or its database (dropped,
 * renamed). The caller can do nothing about them but try again later; the operator finds the code
 * in the log line.
 */
const SERVICE_REFUSED_CODES = new Set([
  "Neo.ClientError.Security.Unauthorized",
  "Neo.ClientError.Security.AuthenticationRateLimit",
  "Neo.ClientError.Security.CredentialsExpired",
  "Neo.ClientError.Security.TokenExpired",
  "Neo.ClientError.Security.AuthorizationExpired",
  // The service's user lost its right to read: an operator's to restore, not the caller's doing.
  "Neo.ClientError.Security.Forbidden",
  "Neo.ClientError.Database.DatabaseNotFound",
]);

/** True when the error says Neo4j cannot be reached right now, or refuses the service itself (503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (causes(error).some((cause) => cause instanceof Neo4jDidNotAnswer)) return true;
  const found = findNeo4jError(error);
  if (found === undefined) return false;
  return (
    UNAVAILABLE_CODES.has(found.code) ||
    SERVICE_REFUSED_CODES.has(found.code) ||
    // The server's "try again" errors (a database starting or stopping, a leader switching): each
    // query runs once, as an auto-commit query, so they reach the caller as 503 with Retry-After.
    found.code.startsWith("Neo.TransientError.") ||
    CONNECTION_WAIT_TIMEOUTS.test(found.message)
  );
}

/**
 * Server codes for a query that needed more memory than Neo4j has left in its pools or gives one
 * transaction (`db.memory.transaction.max`, a client error): 503 either way, as the database at
 * its limit, though the same question may meet it again.
 */
const OUT_OF_MEMORY_CODES = new Set([
  "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
  "Neo.TransientError.General.OutOfMemoryError",
  "Neo.ClientError.General.TransactionOutOfMemoryError",
]);

/** True when Neo4j refused the query for the memory it needed (503, said as such). */
export function isOutOfMemory(error: unknown): boolean {
  const code = findNeo4jError(error)?.code;
  return code !== undefined && OUT_OF_MEMORY_CODES.has(code);
}

/** True when Neo4j aborted the query at the transaction timeout (504). */
export function isQueryTimeout(error: unknown): boolean {
  const code = findNeo4jError(error)?.code;
  return code !== undefined && TIMEOUT_CODES.has(code);
}

/** A start-up failure the operator can fix, said in one line (no stack). */
export class StartupError extends Error {
  override name = "StartupError";
}

/**
 * What went wrong connecting to Neo4j at start-up, in words that name the setting to check; the
 * error itself when it is none of the known cases.
 */
export function explainStartupFailure(
  error: unknown,
  { uri, user, database }: { uri: string; user: string; database: string },
): Error {
  const driverError = findNeo4jError(error);
  const code = driverError?.code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (UNAVAILABLE_CODES.has(code)) {
    return new StartupError(
      `Neo4j is not reachable at ${uri} (${firstSentence(driverError?.message ?? message)}). ` +
        "Check NEO4J_URI and that the database is running.",
    );
  }
  if (code.startsWith("Neo.ClientError.Security.")) {
    return new StartupError(
      `Neo4j at ${uri} refused user "${user}" (${code}). Check NEO4J_USER and NEO4J_PASSWORD.`,
    );
  }
  if (code === "Neo.ClientError.Database.DatabaseNotFound") {
    return new StartupError(`Neo4j at ${uri} has no database "${database}". Check NEO4J_DATABASE.`);
  }
  // Reached, but not answering: starting up, restarting, hung, or its database not yet online.
  if (isDatabaseUnavailable(error)) {
    return new StartupError(
      `Neo4j at ${uri} did not answer in time (${firstSentence(driverError?.message ?? message)}). ` +
        "Check that the database has finished starting, then start kg-graphql again.",
    );
  }
  return error instanceof Error ? error : new Error(message);
}

const firstSentence = (text: string) => /^[^.]*/.exec(text)?.[0].trim() ?? text;
