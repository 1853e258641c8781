// GraphQL in, Cypher out, without running anything: the schema translates a document through a
// runner that records each root field's query and answers none. The service's pre-planning, the
// `npm run cypher` tool, the cold-planning bench and the translation tests read Cypher this way.
import {
  execute,
  getOperationAST,
  parse,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";
import { planOperation } from "./operation-plan.js";
import { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";
import type { CypherQuery } from "../neo4j/combine.js";
import type { QueryRunner } from "../neo4j/runner.js";

const answer = (records: Neo4jRecord[]) =>
  ({ records, summary: { counters: { updates: () => ({}) } } }) as unknown as QueryResult;

/**
 * The Cypher queries the compiler writes for the document, one per root field, in order. The
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
  await executeDocument(schema, document, runner, variableValues, operationName);
  return sent;
}

/**
 * Executes a document outside the request pipeline (pre-planning's and the tools' translations,
 * the schema's warm-up) as the pipeline would: the operation walked once and left for execution
 * as the pre-execution stages leave it (src/graphql/pre-execution.ts), its Cypher run by `runner`.
 */
export function executeDocument(
  schema: GraphQLSchema,
  document: string | DocumentNode,
  runner: QueryRunner,
  variableValues: Record<string, unknown> = {},
  operationName?: string,
): Promise<ExecutionResult> {
  const parsed = typeof document === "string" ? parse(document) : document;
  const operation = getOperationAST(parsed, operationName);
  const planned =
    operation === null || operation === undefined
      ? undefined
      : planOperation(schema, parsed, operation, variableValues);
  return Promise.resolve(
    execute({
      schema,
      document: parsed,
      variableValues,
      ...(operationName === undefined ? {} : { operationName }),
      contextValue: {
        executionContext: runner,
        plan: planned !== undefined && "root" in planned ? planned : undefined,
      },
    }),
  );
}
