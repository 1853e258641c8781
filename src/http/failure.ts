import { ApiError, errorBody, type ErrorCode } from "../errors/catalogue.js";
import { findNeo4jError, isDatabaseUnavailable, isOutOfMemory, isQueryTimeout } from "../neo4j/errors.js";
import { RETRY_AFTER_SECONDS } from "../contract.js";

/** A failure as the caller receives it, and the log line when it is not the caller's doing. */
export interface FailureResponse {
  status: number;
  code: ErrorCode;
  headers: Readonly<Record<string, string>>;
  body: ReturnType<typeof errorBody>;
  /** Set for failures that are not a refusal: the database, a timeout, a bug. */
  logLine?: string;
}

/**
 * The one mapping from a failure to its response, for Express's error handler and for Apollo's
 * (contract §3): a refusal ({@link ApiError}) as raised; otherwise 503 when the database cannot be
 * reached, 504 when the query ran past the transaction timeout and a masked 500 for anything else,
 * with a log line naming the request. The caller sees only the catalogue's message.
 */
export function failureResponse(failure: unknown, requestId: string): FailureResponse {
  const error = failure instanceof ApiError ? failure : classify(failure);
  return {
    status: error.status,
    code: error.code,
    headers: error.headers,
    body: errorBody(error, requestId),
    ...(!(failure instanceof ApiError) && {
      logLine: `request ${requestId} failed with ${error.code}: ${describeFailure(failure)}`,
    }),
  };
}

function classify(error: unknown): ApiError {
  const retryAfter = { "Retry-After": String(RETRY_AFTER_SECONDS.unavailable) };
  // Neo4j answers, but not this query: the message says so, and what the caller can do.
  if (isOutOfMemory(error))
    return new ApiError(
      "service_unavailable",
      "The database ran out of memory for this query. Ask for less (a smaller limit, depth or maxLength), or try again shortly.",
      retryAfter,
    );
  if (isDatabaseUnavailable(error)) return new ApiError("service_unavailable", undefined, retryAfter);
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
