import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Neo4jGraphQL } from "@neo4j/graphql";
import { execute, parse, type GraphQLSchema } from "graphql";
import type { Driver } from "neo4j-driver";
import { projectRoot } from "../project-root.js";
import { StrictDate } from "./strict-date.js";

export const typeDefsDir = join(projectRoot, "typeDefs");

/** The SDL files of `typeDefs/`, in name order. */
export async function readTypeDefs(): Promise<string[]> {
  const files = (await readdir(typeDefsDir)).filter((name) => name.endsWith(".graphql")).sort();
  return Promise.all(files.map((name) => readFile(join(typeDefsDir, name), "utf8")));
}

/**
 * Builds the executable schema from `typeDefs/` with the Neo4j GraphQL Library, which compiles
 * each request into one Cypher query. Fails fast when the database is older than 5.23 or lacks
 * APOC core (every `DateTime` is projected through `apoc.date.convertFormat`).
 */
export async function buildSchema(
  driver: Driver,
  database: string,
  /** More SDL next to `typeDefs/` (tests add a field that sleeps, to reach the query timeout). */
  extraTypeDefs: string[] = [],
): Promise<GraphQLSchema> {
  const neoSchema = new Neo4jGraphQL({
    typeDefs: [...(await readTypeDefs()), ...extraTypeDefs],
    driver,
    // The library's own Date accepts whatever JavaScript's Date parses (contract §3 is stricter).
    resolvers: { Date: StrictDate },
  });
  await neoSchema.checkNeo4jCompat({ sessionConfig: { database } });
  const schema = await neoSchema.getSchema();
  await warmUp(schema, database);
  return schema;
}

/**
 * Runs one query through the schema at start-up. The library asks Neo4j for its version
 * (`dbms.components()`) on the first request of a process and caches the answer in a module
 * variable; asked here, every caller's request stays one Cypher query. It also proves the
 * typeDefs' Cypher runs on this database before the service accepts traffic.
 */
async function warmUp(schema: GraphQLSchema, database: string): Promise<void> {
  const result = await execute({
    schema,
    document: parse("{ topics(limit: 1) { id } }"),
    contextValue: { sessionConfig: { database } },
  });
  const [error] = result.errors ?? [];
  if (error !== undefined) throw error;
}
