import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { ApiError, errorBody } from "../errors/catalogue.js";
import { describeFailure, toApiError } from "../errors/failures.js";

/** Writes an {@link ApiError} as the contract's error response. */
export function sendApiError(res: Response, error: ApiError): void {
  if (res.locals.report !== undefined) res.locals.report.code = error.code;
  res
    .status(error.status)
    .set(error.headers)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorBody(error.code, error.message, res.locals.requestId)));
}

/** Refuses every method but POST on the GraphQL paths (contract §2). */
export const onlyPost: RequestHandler = (req, _res, next) => {
  if (req.method === "POST") {
    next();
    return;
  }
  next(new ApiError("method_not_allowed", undefined, { Allow: "POST" }));
};

/** Every path the router did not match. */
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new ApiError("not_found"));
};

/**
 * The last stage (Express recognises an error handler by its four parameters): contract errors
 * are sent as they are; anything else is logged with the request id and answered 503 (database
 * unreachable) or a masked 500.
 */
export function errorHandler(logError: (line: string) => void): ErrorRequestHandler {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express needs all four parameters
  return (error: unknown, _req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof ApiError) {
      sendApiError(res, error);
      return;
    }
    const apiError = toApiError(error);
    logError(`request ${res.locals.requestId} failed with ${apiError.code}: ${describeFailure(error)}`);
    sendApiError(res, apiError);
  };
}
