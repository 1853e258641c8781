import type { Express } from "express";

/**
 * Contract §2 names exact paths: `/api/v1/graphql/`, `/API/V1/GRAPHQL` or an asset's name in
 * capitals is an unknown path (`404`), not the endpoint. Express matches paths case-insensitively
 * and with a trailing slash unless told otherwise, per app and per router.
 */
export const EXACT_PATHS = { caseSensitive: true, strict: true } as const;

export function matchExactPaths(app: Express): void {
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
}
