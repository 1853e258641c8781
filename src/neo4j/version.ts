import { routing, type Driver } from "neo4j-driver";
import { StartupError } from "./errors.js";

/**
 * Whether the service runs on a Neo4j release: 5.26 LTS, or a calendar release (2025.01 and later).
 * The Cypher it writes (`CYPHER 5`, `CALL (x) { … }` scopes, `COLLECT {}`, `IS ::` types) needs
 * no more; the plugin the library's own compatibility check asks for (APOC) it never calls.
 */
export function isSupportedNeo4jVersion(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  return major >= 2025 || (major === 5 && minor >= 26);
}

/** Fails start-up with what to run instead when the database's release is not supported. */
export async function checkNeo4jVersion(driver: Driver, database: string): Promise<void> {
  const { records } = await driver.executeQuery(
    "CALL dbms.components() YIELD name, versions WHERE name = 'Neo4j Kernel' RETURN versions[0] AS version",
    {},
    { database, routing: routing.READ },
  );
  const version: unknown = records[0]?.get("version");
  if (typeof version !== "string" || !isSupportedNeo4jVersion(version))
    throw new StartupError(
      `Neo4j ${String(version)} is not supported: kg-graphql runs on Neo4j 5.26 LTS or 2025.01 and later (2026.09 is what it is tested on).`,
    );
}
