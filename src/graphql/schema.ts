import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Neo4jGraphQL } from "@neo4j/graphql";
import type { GraphQLSchema } from "graphql";
import { routing, type Driver } from "neo4j-driver";
import type { QueryRunner } from "../neo4j/runner.js";
import { projectRoot } from "../project-root.js";
import { BUILT_PER_REQUEST, compileRootFields, rootStatements } from "./compiled-fields.js";
import { StrictDate, StrictDateTime } from "./strict-date.js";
import { guardStoredValues } from "./stored-values.js";
import { writeCursors } from "./cursors.js";
import { ELEMENT_TYPES } from "../domain/table.js";
import { whereInputsSdl } from "../domain/where-inputs.js";
import { NODE_TYPES, nodeFieldsSdl } from "../domain/graph.js";
import { checkNeo4jVersion } from "../neo4j/version.js";
import { executeDocument } from "./translate.js";

export const typeDefsDir = join(projectRoot, "typeDefs");

/**
 * The schema's SDL: the files of `typeDefs/` in name order, then the `where` inputs generated from
 * the domain table (src/domain/where-inputs.ts) and each element type's `Node` fields
 * (src/domain/graph.ts).
 */
export async function readTypeDefs(): Promise<string[]> {
  const files = (await readdir(typeDefsDir)).filter((name) => name.endsWith(".graphql")).sort();
  const sdl = await Promise.all(files.map((name) => readFile(join(typeDefsDir, name), "utf8")));
  return [...sdl, whereInputsSdl(), nodeFieldsSdl(sdl, BUILT_PER_REQUEST)];
}

export interface SchemaOptions {
  /** More SDL next to `typeDefs/` (tests add a field that sleeps, to reach the query timeout). */
  extraTypeDefs?: string[];
}

/**
 * Builds the executable schema from `typeDefs/` with the Neo4j GraphQL Library, which compiles
 * each request into one Cypher query. Fails fast on a release older than 5.26; no plugin is needed.
 */
export async function buildSchema(
  driver: Driver,
  database: string,
  { extraTypeDefs = [] }: SchemaOptions = {},
): Promise<GraphQLSchema> {
  const typeDefs = [...(await readTypeDefs()), ...extraTypeDefs];
  const neoSchema = library(typeDefs, driver);
  // Not the library's checkNeo4jCompat(): it asks for APOC, which this service never calls.
  await checkNeo4jVersion(driver, database);
  const schema = describeLibraryTypes(await neoSchema.getSchema());
  compileRootFields(schema, rootStatements(typeDefs));
  // Every domain type's properties: values the ingest got wrong are field errors (contract §3).
  guardStoredValues(schema, ELEMENT_TYPES, Object.fromEntries(NODE_TYPES));
  writeCursors(schema);
  await warmUp(schema, driver, database);
  return schema;
}

/**
 * The Neo4j GraphQL Library over our SDL. Its SDL validation is off: it reserves the names of its
 * own connections (`…Connection`, `PageInfo`), which this schema defines itself (contract §7) and
 * never has the library generate (`@query(read: false)`). graphql-js still validates the schema
 * it builds, and the warm-up query below runs a connection through it.
 */
export function library(typeDefs: string[], driver?: Driver): Neo4jGraphQL {
  return new Neo4jGraphQL({
    typeDefs,
    ...(driver === undefined ? {} : { driver }),
    validate: false,
    // The library's own Date accepts whatever JavaScript's Date parses (contract §3 is stricter).
    resolvers: { Date: StrictDate, DateTime: StrictDateTime },
  });
}

/**
 * The product's schema without a database, for reading the Cypher a document translates to
 * (src/graphql/translate.ts): its statements are built per request as the service's are.
 */
export async function translatingSchema(): Promise<GraphQLSchema> {
  const typeDefs = await readTypeDefs();
  const schema = await library(typeDefs).getSchema();
  compileRootFields(schema, rootStatements(typeDefs));
  return schema;
}

/**
 * Descriptions of the types the library writes itself, for the explorer's docs: contract §3's
 * scalars (its own words are looser), the root type and the `Node` interface (it drops the SDL's
 * descriptions of those).
 */
const LIBRARY_TYPE_DESCRIPTIONS: Record<string, string> = {
  Query:
    "The knowledge graph, read-only: decisions, features, topics, customers, people and disagreements. Every list takes a `limit` (1 to 100, default 20) and has a connection beside it for paging with cursors and counting; group lists count and summarise in the database.",
  Node: "A node of the knowledge graph: any element type. Use a fragment (`... on Decision { title }`) for its type's own fields.",
  Date: "A calendar date, exactly `YYYY-MM-DD` (ISO 8601) naming a real day of the Gregorian calendar, as in `2025-03-31`. Anything else in an argument is 422 validation_failed.",
  DateTime:
    "An instant, answered in UTC as ISO 8601 with exactly three fractional digits, as in `2025-03-31T14:05:00.123Z` (finer precision is truncated; instants stored with an offset or zone are converted).",
};

/** Puts our descriptions on the types the library writes itself (`Query`, `Date`, `DateTime`). */
export function describeLibraryTypes(schema: GraphQLSchema): GraphQLSchema {
  for (const [name, description] of Object.entries(LIBRARY_TYPE_DESCRIPTIONS)) {
    const type = schema.getType(name);
    if (type !== undefined) type.description = description;
  }
  return schema;
}

/**
 * Runs one query through the schema at start-up: it proves the Cypher the service writes runs on
 * this database (a connection, its count and its cursors) before the service accepts traffic.
 */
async function warmUp(schema: GraphQLSchema, driver: Driver, database: string): Promise<void> {
  const runner: QueryRunner = {
    run: (text, parameters) =>
      driver.executeQuery(text, parameters, {
        database,
        routing: routing.READ,
        transactionConfig: { metadata: { app: "kg-graphql", purpose: "warm-up" } },
      }),
  };
  const result = await executeDocument(
    schema,
    "{ topics(limit: 1) { id decisionsConnection(first: 1) { totalCount edges { cursor node { id } } } } }",
    runner,
  );
  const [error] = result.errors ?? [];
  if (error !== undefined) throw error;
}
