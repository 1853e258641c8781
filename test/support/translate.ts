// GraphQL in, Cypher out, without a database (src/graphql/translate.ts).
import type { GraphQLSchema } from "graphql";
import { translatingSchema } from "../../src/graphql/schema.js";
import { translateDocument } from "../../src/graphql/translate.js";
import type { CypherQuery } from "../../src/neo4j/combine.js";

let schema: Promise<GraphQLSchema> | undefined;

/** The Cypher queries the library writes for the document, one per root field, in order. */
export async function translate(
  document: string,
  variables?: Record<string, unknown>,
): Promise<CypherQuery[]> {
  schema ??= translatingSchema();
  return translateDocument(await schema, document, variables);
}

/** The one root field's Cypher the document translates to. */
export async function cypherOf(document: string, variables?: Record<string, unknown>): Promise<string> {
  const queries = await translate(document, variables);
  if (queries.length !== 1) throw new Error(`${String(queries.length)} queries for ${document}`);
  return queries[0]?.text ?? "";
}
