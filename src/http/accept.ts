import type { RequestHandler } from "express";

import type { Request } from "express";

const JSON_TYPE = "application/json";
const GRAPHQL_RESPONSE_TYPE = "application/graphql-response+json";
/** The answers the endpoint writes (contract §2). */
const ANSWER_TYPES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE];
/** The `Content-Type` of every answer but a success or a GraphQL stage's 422 (contract §2). */
export const JSON_ANSWER_TYPE = `${JSON_TYPE}; charset=utf-8`;

/**
 * The `Content-Type` of a 422 of the GraphQL stages: GraphQL over HTTP's own type when the
 * caller's `Accept` prefers it (Apollo Client reads a non-2xx body as GraphQL errors only then),
 * JSON otherwise — both correct per contract §2.
 */
export function graphqlRefusalType(req: Request): string {
  return `${req.accepts(ANSWER_TYPES) === GRAPHQL_RESPONSE_TYPE ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE}; charset=utf-8`;
}

/**
 * Contract §2: an `Accept` the service cannot satisfy is ignored — the answer is JSON, never 406.
 * Apollo answers 406 itself when neither JSON type is acceptable, so such an `Accept` is replaced
 * by `application/json` before the request reaches it.
 */
export const ignoreUnsatisfiableAccept: RequestHandler = (req, _res, next) => {
  if (req.accepts(ANSWER_TYPES) === false) req.headers.accept = JSON_TYPE;
  next();
};
