import { ApolloServer } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import type { Neo4jGraphQLContext } from "@neo4j/graphql";
import type { GraphQLSchema } from "graphql";
import type { Transaction } from "neo4j-driver";
import type { QueryRunner } from "../neo4j/runner.js";
import type { RowEstimator } from "../cypher/request.js";
import { contractErrorsPlugin } from "./contract-errors.js";
import type { ParsedDocuments } from "./parsed-documents.js";
import { checkCost, costExtensionPlugin, type CostContext } from "./cost.js";
import { requestReportPlugin, type RequestReport } from "../ops/request-log.js";
import { checkArguments } from "./argument-checks.js";
import { preExecutionPlugin, type PlanContext } from "./pre-execution.js";
import type { Admission } from "../overload/admission.js";
import { admissionReleasePlugin, admissionStage, type AdmissionContext } from "../overload/stage.js";

/** What each request hands the Neo4j GraphQL Library, plus the request id for error bodies. */
export type RequestContext = Neo4jGraphQLContext &
  PlanContext &
  CostContext &
  AdmissionContext & { requestId: string; report: RequestReport; rowEstimates?: RowEstimator };

export interface ExecutionSettings {
  /**
   * A request's runner, which runs its Cypher in Neo4j with the request's transaction metadata;
   * `since`, when its deadline's clock started (`performance.now()`); `gone`, aborted once its
   * response is over (nothing more is sent for it then).
   */
  runnerFor: (metadata: Record<string, string>, since: number, gone: AbortSignal) => QueryRunner;
  /** How many rows each list filter keeps: where a read of all of a list's rows starts (src/planning/row-estimates.ts). */
  rowEstimates?: RowEstimator;
}

/** Apollo Server over the library's schema, with the plugins of the GraphQL stages. */
export function createGraphQLServer(
  schema: GraphQLSchema,
  admission: Admission,
  logError: (line: string) => void,
  /** Where Apollo finds each request's document, parsed and validated by the validation stage. */
  documentStore: ParsedDocuments["apolloStore"],
): ApolloServer<RequestContext> {
  return new ApolloServer<RequestContext>({
    schema,
    documentStore,
    introspection: true,
    // Stacks name files and lines of the server: never in a response (contract §3).
    includeStacktraceInErrorResponses: false,
    // The service drains on SIGTERM/SIGINT itself (src/service.ts). Apollo's own handlers would
    // stop GraphQL at once and re-raise the signal, killing the requests in flight.
    stopOnTerminationSignals: false,
    // Non-POST requests never reach Apollo (405); its landing page has no route to be served on.
    // Documents are validated before Apollo (validation-stage.ts), in time linear in the document;
    // `limit` and cost need the variables, and admission to execution (contract §12) comes last.
    dangerouslyDisableValidation: true,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // No field has a cache hint: the plugin's per-field hook only made Apollo wrap every
      // resolver. Answers are marked no-store on the way in (src/http/no-store.ts).
      ApolloServerPluginCacheControlDisabled(),
      preExecutionPlugin<RequestContext>([checkArguments, checkCost, admissionStage(admission)]),
      admissionReleasePlugin,
      costExtensionPlugin,
      contractErrorsPlugin(logError),
      requestReportPlugin,
    ],
  });
}

/** Who a request is, as Neo4j's transaction metadata shows it: ids only, never key material. */
export interface RequestIdentity {
  requestId: string;
  keyId: string;
  /** The request log's report, which the plugins fill in. */
  report: RequestReport;
  /** Aborted when the response is over: sent, or its connection gone. */
  responseDone: AbortSignal;
  /**
   * When the request's deadline started (`performance.now()`): its headers' arrival, later by the
   * time its body took to arrive (the client's, not the database's). Contract §2.
   */
  since: number;
}

/**
 * The per-request context: which database, the transaction timeout, and metadata that ties the
 * transaction in Neo4j's `SHOW TRANSACTIONS` and query log to the request and its key. Never key
 * material: `DEBUG=@neo4j/graphql:*` logs the context.
 */
export function requestContext(
  settings: ExecutionSettings,
  { requestId, keyId, report, responseDone, since }: RequestIdentity,
): RequestContext {
  return {
    requestId,
    keyId,
    report,
    responseDone,
    // The library runs its Cypher through `executionContext.run()` when that is neither a driver nor
    // a session (its Executor checks for `session` and `beginTransaction`): one auto-commit query.
    executionContext: settings.runnerFor(
      { app: "kg-graphql", requestId, keyId },
      since,
      responseDone,
    ) as unknown as Transaction,
    ...(settings.rowEstimates === undefined ? {} : { rowEstimates: settings.rowEstimates }),
  };
}
