import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLFormattedError } from "graphql";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors/catalogue.js";

/** Apollo's codes for request errors, and the contract code each one is (contract §3). */
const APOLLO_CODES: Readonly<Record<string, ErrorCode>> = {
  GRAPHQL_PARSE_FAILED: "parse_error",
  GRAPHQL_VALIDATION_FAILED: "validation_failed",
  BAD_USER_INPUT: "validation_failed",
  OPERATION_RESOLUTION_FAILURE: "validation_failed",
};

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === "string" && code in ERROR_CATALOGUE;

/** The contract code of a request error: ours as raised, Apollo's translated, anything else a bug. */
export function contractCode(error: GraphQLFormattedError): ErrorCode {
  const code = error.extensions?.code;
  if (isErrorCode(code)) return code;
  return (typeof code === "string" ? APOLLO_CODES[code] : undefined) ?? "internal_error";
}

/**
 * Rewrites every request error (no `data`: the operation never ran) into the contract's body and
 * status, with the request id. Apollo answers parse, validation and variable errors with 400 and
 * overwrites `extensions.code` of validation errors; `formatError` cannot change the status, and
 * `willSendResponse` runs last, so the mapping lives here, once.
 */
export function contractErrorsPlugin(): ApolloServerPlugin<{ requestId: string }> {
  return {
    requestDidStart() {
      return Promise.resolve({
        willSendResponse({ response, contextValue }) {
          if (response.body.kind !== "single") return Promise.resolve();
          const result = response.body.singleResult;
          if (result.errors === undefined || "data" in result) return Promise.resolve();
          const { requestId } = contextValue;
          const errors = result.errors.map((error) => {
            const code = contractCode(error);
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
          return Promise.resolve();
        },
      });
    },
  };
}
