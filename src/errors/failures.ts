import { findNeo4jError, isDatabaseUnavailable, isQueryTimeout } from "../neo4j/errors.js";
import { ApiError } from "./catalogue.js";

/** Seconds a caller should wait before retrying when the database is down. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/**
 * What an unexpected failure is in contract terms: 503 when the database cannot be reached, 504
 * when the query ran past the transaction timeout, 500 for anything else (a bug). The caller sees
 * only the catalogue's message; {@link describeFailure} is for the log.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError("service_unavailable", undefined, {
      "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS),
    });
  }
  if (isQueryTimeout(error)) return new ApiError("query_timeout");
  return new ApiError("internal_error");
}

/**
 * A failure for the log: its class and, for a driver error, only its code — a driver message
 * can quote Cypher, parameters or the routing table. Never a stack (contract §3 keeps internals
 * out of responses; the logs keep them out too, and the request id ties the two together).
 */
export function describeFailure(error: unknown): string {
  const driverError = findNeo4jError(error);
  if (driverError !== undefined) return `Neo4jError ${driverError.code}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `non-error value thrown (${typeof error})`;
}
