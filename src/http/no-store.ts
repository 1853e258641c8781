import type { RequestHandler } from "express";

/**
 * Every answer on the GraphQL paths is one key's: `Cache-Control: no-store`, so no cache between
 * the caller and the service keeps it. Apollo's cache-control plugin used to set it on GraphQL's
 * answers; it is disabled (src/graphql/server.ts) because its per-field hook made Apollo wrap
 * every resolver, on every request, for cache hints this schema never gives.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};
