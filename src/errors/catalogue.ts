/**
 * Every failure code of the contract (§2, §3) with its HTTP status and default message — the only
 * place a code or its status is written. The stages that refuse a request say what was wrong and
 * what the limit in force is (a raised quota or a shorter body timeout is what their message
 * says); the defaults here name no number, so none can disagree with a setting. This module
 * imports nothing of the service's.
 */
export const ERROR_CATALOGUE = {
  unauthorized: { status: 401, message: "A valid API key is required: send Authorization: Bearer <key>." },
  insufficient_scope: { status: 403, message: "This API key does not have the read scope." },
  document_not_allowed: {
    status: 403,
    message: "This API key may run only the documents registered for it (trusted documents).",
  },
  not_found: {
    status: 404,
    message: "There is nothing here. The GraphQL endpoint is POST /api/v1/graphql (or POST /v1/graphql).",
  },
  method_not_allowed: { status: 405, message: "The GraphQL endpoint accepts POST requests only." },
  request_timeout: { status: 408, message: "The request body did not arrive in time." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  unsupported_media_type: {
    status: 415,
    message: "Send the request body as Content-Type: application/json.",
  },
  invalid_json: { status: 422, message: "The request body is not valid JSON." },
  query_too_long: { status: 422, message: "The query is too long." },
  parse_error: { status: 422, message: "The query is not valid GraphQL." },
  persisted_query_mismatch: {
    status: 422,
    message: "The query does not hash to the sha256Hash of extensions.persistedQuery.",
  },
  validation_failed: { status: 422, message: "The query does not match the schema." },
  query_too_deep: { status: 422, message: "The query nests too deeply." },
  query_too_wide: { status: 422, message: "The query selects too many fields, aliases or directives." },
  query_too_expensive: { status: 422, message: "The query's estimated cost is over the limit." },
  rate_limited: { status: 429, message: "This API key has made its most requests this minute." },
  daily_quota_exceeded: { status: 429, message: "This API key has made its most requests today." },
  graphql_quota_exceeded: { status: 429, message: "This API key has made its most GraphQL queries today." },
  concurrency_limited: {
    status: 429,
    message: "This API key already has as many requests executing as it may at once.",
  },
  // Generic on purpose: stacks, Cypher and driver messages never reach a caller (contract §3).
  internal_error: {
    status: 500,
    message: "Something went wrong on our side. Quote the request id when you report it.",
  },
  service_unavailable: {
    status: 503,
    message: "The database cannot be reached right now. Try again shortly.",
  },
  query_timeout: { status: 504, message: "The query ran past the server's time limit." },
  // A field error (contract §3): the request answers 200 with the rest of its data.
  invalid_stored_value: {
    status: 200,
    message: "A value stored in the graph cannot be served as the schema says.",
  },
  // Apollo's automatic persisted queries protocol, in its own words (contract §10): a 200 whose
  // error tells Apollo Client's and urql's persisted-query links to resend with the text.
  PERSISTED_QUERY_NOT_FOUND: { status: 200, message: "PersistedQueryNotFound" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** True when `code` is one of the catalogue's codes. */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === "string" && Object.hasOwn(ERROR_CATALOGUE, code);

/** A failure the pipeline answers with a contract code instead of a GraphQL result. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    /** Headers the code requires, such as `Allow` on 405 or `WWW-Authenticate` on 401. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}

/** One refusal of a GraphQL stage: its code, its message, and where in the query it points. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  locations?: readonly { line: number; column: number }[];
}

/**
 * Several refusals of the GraphQL stages at once (contract §3): each keeps its own code and
 * location; the status is their common one, 422 when they differ.
 */
export class DocumentRefused extends ApiError {
  override name = "DocumentRefused";
  constructor(readonly refusals: readonly [Refusal, ...Refusal[]]) {
    const [first] = refusals;
    const statuses = new Set(refusals.map((refusal) => ERROR_CATALOGUE[refusal.code].status));
    super(statuses.size === 1 ? first.code : "validation_failed", first.message);
  }
}

/** The one body shape of every non-200 response (contract §3). */
export function errorBody(error: ApiError, requestId: string) {
  const refusals: readonly Refusal[] =
    error instanceof DocumentRefused ? error.refusals : [{ code: error.code, message: error.message }];
  return {
    errors: refusals.map(({ code, message, locations }) => ({
      message,
      ...(locations !== undefined && { locations }),
      extensions: { code, requestId },
    })),
  };
}
