import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { ApiError, DocumentRefused } from "../errors/catalogue.js";
import { graphqlRefusalType, JSON_ANSWER_TYPE } from "./accept.js";
import { failureResponse } from "./failure.js";

/** Writes a failure as the contract's error response (and its log line, if it has one). */
export function sendFailure(res: Response, failure: unknown, logError: (line: string) => void): void {
  const { status, code, headers, body, logLine } = failureResponse(failure, res.locals.requestId);
  if (logLine !== undefined) logError(logLine);
  if (res.locals.report !== undefined) res.locals.report.code = code;
  const type = failure instanceof DocumentRefused ? graphqlRefusalType(res.req) : JSON_ANSWER_TYPE;
  res.status(status).set(headers).type(type).send(JSON.stringify(body));
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
 * The last stage (Express recognises an error handler by its four parameters): every failure
 * goes through {@link failureResponse}, the same mapping Apollo's failures take.
 */
export function errorHandler(logError: (line: string) => void): ErrorRequestHandler {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express needs all four parameters
  return (error: unknown, _req, res, _next) => {
    if (res.headersSent) return;
    sendFailure(res, error, logError);
  };
}
