import { Neo4jError } from "neo4j-driver";

/** Driver codes for "the database cannot be reached" (as opposed to a query that failed). */
const UNAVAILABLE_CODES = new Set(["ServiceUnavailable", "SessionExpired"]);

/** True when the error says Neo4j cannot be reached right now (503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return error instanceof Neo4jError && UNAVAILABLE_CODES.has(error.code);
}
