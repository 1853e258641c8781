import { Neo4jError } from "neo4j-driver";

/** Driver codes for "the database cannot be reached" (as opposed to a query that failed). */
const UNAVAILABLE_CODES = new Set(["ServiceUnavailable", "SessionExpired"]);

/** Server codes for a transaction that ran past its timeout. */
const TIMEOUT_CODES = new Set([
  "Neo.ClientError.Transaction.TransactionTimedOut",
  "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
]);

/** The driver error behind `error`, through GraphQL's `originalError` and `cause` wrappers. */
export function findNeo4jError(error: unknown): Neo4jError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    if (current instanceof Neo4jError) return current;
    const wrapper = current as Error & { originalError?: unknown };
    current = wrapper.originalError ?? wrapper.cause;
  }
  return undefined;
}

/** True when the error says Neo4j cannot be reached right now (503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = findNeo4jError(error)?.code;
  return code !== undefined && UNAVAILABLE_CODES.has(code);
}

/** True when Neo4j aborted the query at the transaction timeout (504). */
export function isQueryTimeout(error: unknown): boolean {
  const code = findNeo4jError(error)?.code;
  return code !== undefined && TIMEOUT_CODES.has(code);
}
