import { Neo4jGraphQL } from "@neo4j/graphql";
import { printSchema } from "graphql";
import { readTypeDefs } from "./schema.js";

/** The SDL callers see: the library's schema built from `typeDefs/`, printed (no database needed). */
export async function printPublicSchema(): Promise<string> {
  const neoSchema = new Neo4jGraphQL({ typeDefs: await readTypeDefs() });
  return printSchema(await neoSchema.getSchema()) + "\n";
}
