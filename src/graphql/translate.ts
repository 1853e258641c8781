// GraphQL in, Cypher out, without running anything: the schema translates a document through a
// runner that records each root field's query and answers none. The service's pre-planning, the
// `npm run cypher` tool, the cold-planning bench and the translation tests read Cypher this way.
import { execute, parse, type DocumentNode, type GraphQLSchema } from "graphql";
import { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";
import type { CypherQuery } from "../neo4j/combine.js";
import type { QueryRunner } from "../neo4j/runner.js";

const answer = (records: Neo4jRecord[]) =>
  ({ records, summary: { counters: { updates: () => ({}) } } }) as unknown as QueryResult;

/**
 * The Cypher queries the library writes for the document, one per root field, in order. The
 * library's one question of its own (Neo4j's version, asked once per process) is answered with
 * the version the service requires at least.
 */
export async function translateDocument(
  schema: GraphQLSchema,
  document: string | DocumentNode,
  variableValues: Record<string, unknown> = {},
  operationName?: string,
): Promise<CypherQuery[]> {
  const sent: CypherQuery[] = [];
  const runner: QueryRunner = {
    run: (text, parameters = {}) => {
      if (text.includes("dbms.components()"))
        return Promise.resolve(answer([new Neo4jRecord(["version", "edition"], ["5.26.0", "community"])]));
      sent.push({ text, parameters });
      return Promise.resolve(answer([]));
    },
  };
  await execute({
    schema,
    document: typeof document === "string" ? parse(document) : document,
    variableValues,
    ...(operationName === undefined ? {} : { operationName }),
    contextValue: { executionContext: runner },
  });
  return sent;
}
