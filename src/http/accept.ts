import type { RequestHandler } from "express";

/** The answers the endpoint writes (contract §2). */
const ANSWER_TYPES = ["application/json", "application/graphql-response+json"];

/**
 * Contract §2: an `Accept` the service cannot satisfy is ignored — the answer is JSON, never 406.
 * Apollo answers 406 itself when neither JSON type is acceptable, so such an `Accept` is replaced
 * by `application/json` before the request reaches it.
 */
export const ignoreUnsatisfiableAccept: RequestHandler = (req, _res, next) => {
  if (req.accepts(ANSWER_TYPES) === false) req.headers.accept = "application/json";
  next();
};
