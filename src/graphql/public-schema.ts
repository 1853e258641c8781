import { printSchema } from "graphql";
import { describeLibraryTypes, library, readTypeDefs } from "./schema.js";

/** The SDL callers see: the library's schema built from `typeDefs/`, printed (no database needed). */
export async function printPublicSchema(): Promise<string> {
  return printSchema(describeLibraryTypes(await library(await readTypeDefs()).getSchema())) + "\n";
}
