import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { ERROR_CATALOGUE, isErrorCode, type ErrorCode } from "../errors/catalogue.js";
import { JSON_ANSWER_TYPE } from "../http/accept.js";
import { failureResponse } from "../http/failure.js";
import type { RequestReport } from "../ops/request-log.js";
import { InvalidStoredValue } from "./stored-values.js";

/** Apollo's codes for request errors, and the contract code each one is (contract §3). */
const APOLLO_CODES: Readonly<Record<string, ErrorCode>> = {
  GRAPHQL_PARSE_FAILED: "parse_error",
  GRAPHQL_VALIDATION_FAILED: "validation_failed",
  BAD_USER_INPUT: "validation_failed",
  OPERATION_RESOLUTION_FAILURE: "validation_failed",
};

/**
 * The contract code of a request error. Ours are raised with their code; Apollo overwrites the
 * code of a validation error with GRAPHQL_VALIDATION_FAILED but keeps the rule's error as
 * `originalError`, so a rule's own code (query_too_deep…) is read from there. Apollo's codes are
 * translated, and anything else is a bug.
 */
export function contractCode(formatted: GraphQLFormattedError, raw?: GraphQLError): ErrorCode {
  const original = raw?.originalError instanceof GraphQLError ? raw.originalError : raw;
  for (const code of [original?.extensions.code, formatted.extensions?.code]) {
    if (isErrorCode(code)) return code;
  }
  const code = formatted.extensions?.code;
  return (typeof code === "string" ? APOLLO_CODES[code] : undefined) ?? "internal_error";
}

/** A failure thrown by a stage or while executing (ours, the driver's, or a bug), not a GraphQL error. */
const thrownCause = (error: GraphQLError) =>
  error.originalError !== undefined && !(error.originalError instanceof GraphQLError)
    ? error.originalError
    : undefined;

/**
 * Puts every GraphQL failure into the contract's body and status, with the request id, in one
 * `willSendResponse` (it runs last; `formatError` cannot change the status):
 * - a failure thrown by a stage (admission's 429/503) or during execution (the database, a bug)
 *   answers through {@link failureResponse}, the mapping the Express stages use, instead of a
 *   partial result;
 * - request errors (no `data`: the operation never ran) get their contract codes and 422, or
 *   the status of their code;
 * - field errors stay next to `data` (200) with a catalogue code: a stored value the schema cannot
 *   serve is `invalid_stored_value` (reported for the request's log line and the counter); any
 *   other is a bug, `internal_error` with the generic message, and logged.
 */
export function contractErrorsPlugin(
  logError: (line: string) => void,
): ApolloServerPlugin<{ requestId: string; report: RequestReport }> {
  return {
    requestDidStart() {
      return Promise.resolve({
        willSendResponse({ response, contextValue, errors: rawErrors }) {
          if (response.body.kind !== "single") return Promise.resolve();
          const result = response.body.singleResult;
          if (result.errors === undefined) return Promise.resolve();
          const { requestId } = contextValue;

          const cause = rawErrors?.map(thrownCause).find((found) => found !== undefined);
          if (cause !== undefined) {
            const failure = failureResponse(cause, requestId);
            if (failure.logLine !== undefined) logError(failure.logLine);
            delete result.data;
            delete result.extensions;
            result.errors = failure.body.errors;
            response.http.status = failure.status;
            for (const [name, value] of Object.entries(failure.headers))
              response.http.headers.set(name, value);
            // GraphQL over HTTP's type is for the GraphQL stages' 422s (contract §2); the rest are JSON.
            response.http.headers.set("content-type", JSON_ANSWER_TYPE);
            return Promise.resolve();
          }
          if ("data" in result) {
            result.errors = result.errors.map((error, i) => {
              const raw = rawErrors?.[i]?.originalError;
              const code = contractCode(error, rawErrors?.[i]);
              if (raw instanceof InvalidStoredValue) {
                (contextValue.report.invalidStoredValues ??= []).push({
                  label: raw.label,
                  property: raw.property,
                  ...(raw.nodeId !== undefined && { id: raw.nodeId }),
                  problem: raw.problem,
                  path: error.path?.join(".") ?? "",
                });
              } else if (code === "internal_error") {
                logError(
                  `request ${requestId}: field error at ${error.path?.join(".") ?? "?"}: ${error.message}`,
                );
              }
              return {
                message: code === "internal_error" ? ERROR_CATALOGUE.internal_error.message : error.message,
                ...(error.locations && { locations: error.locations }),
                ...(error.path && { path: error.path }),
                extensions: { code, requestId },
              };
            });
            return Promise.resolve();
          }

          const errors = result.errors.map((error, i) => {
            const code = contractCode(error, rawErrors?.[i]);
            const message =
              code === "internal_error" ? ERROR_CATALOGUE.internal_error.message : error.message;
            return {
              message,
              ...(error.locations && { locations: error.locations }),
              extensions: { code, requestId },
            };
          });
          result.errors = errors;
          // Several validation-stage errors together: each keeps its code, the status is 422.
          const statuses = new Set(errors.map((error) => ERROR_CATALOGUE[error.extensions.code].status));
          response.http.status =
            statuses.size === 1 ? [...statuses][0] : ERROR_CATALOGUE.validation_failed.status;
          if (response.http.status !== ERROR_CATALOGUE.validation_failed.status)
            response.http.headers.set("content-type", JSON_ANSWER_TYPE);
          return Promise.resolve();
        },
      });
    },
  };
}
