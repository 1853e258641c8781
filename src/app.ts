import { expressMiddleware } from "@as-integrations/express5";
import express, { type Express, type Response } from "express";
import type { GraphQLSchema } from "graphql";
import type { Authenticator } from "./auth/authenticate.js";
import { requireApiKey } from "./auth/middleware.js";
import { createGraphQLServer, requestContext, type ExecutionSettings } from "./graphql/server.js";
import { validateDocument } from "./graphql/validation-stage.js";
import { ParsedDocuments } from "./graphql/parsed-documents.js";
import { errorHandler, notFound, onlyPost } from "./http/errors.js";
import "./http/locals.js";
import { EXACT_PATHS } from "./contract.js";
import { explorerRoutes } from "./explorer/explorer.js";
import { metricsRoute, type Metrics } from "./ops/metrics.js";
import { healthRoutes, type Readiness } from "./ops/health.js";
import { requestLog, type RequestLogEntry } from "./ops/request-log.js";
import { enforceQuota } from "./quota/middleware.js";
import type { Quota } from "./quota/quota.js";
import type { Admission } from "./overload/admission.js";
import { assignRequestId } from "./http/request-id.js";
import { noStore } from "./http/no-store.js";
import { allowOrigins } from "./http/cors.js";
import { ignoreUnsatisfiableAccept } from "./http/accept.js";
import { rememberValidDocument, resolvePersistedDocument, type DocumentSources } from "./documents/stage.js";
import {
  checkQueryText,
  parseGraphQLBody,
  readBodyText,
  refuseAnnouncedOversizedBody,
  requireJsonBody,
} from "./http/request-body.js";

/** Both paths serve the same endpoint: application host and dedicated API host (contract §2). */
export const GRAPHQL_PATHS = ["/api/v1/graphql", "/v1/graphql"];

export interface AppDependencies {
  schema: GraphQLSchema;
  authenticator: Authenticator;
  quota: Quota;
  execution: ExecutionSettings;
  /** Contract §10: remembered (APQ) and trusted documents. */
  documents: DocumentSources;
  /** Contract §12: the per-key and per-instance caps on executions. */
  admission: Admission;
  /** Contract §2: how long after its headers a request body may take to arrive. */
  bodyTimeoutMs: number;
  /** One line per failure that is not the caller's: request id, code, cause (never a stack). */
  logError: (line: string) => void;
  /** What `/readyz` reports. */
  readiness: Readiness;
  /** One entry per request (not the health probes). */
  logRequest: (entry: RequestLogEntry) => void;
  /** Counts every request that is logged. */
  metrics: Metrics;
  /** Whether `GET /metrics` is served here, or only on a port of its own ({@link createMetricsApp}). */
  metricsOnPublicPort: boolean;
  /** Contract §11: origins whose pages may call the endpoint (none when empty or unset). */
  corsOrigins?: readonly string[];
}

export interface App {
  app: Express;
  /** Stops the GraphQL server (the HTTP listener is the caller's). */
  stop: () => Promise<void>;
}

/**
 * The request pipeline, in the order a request meets it (contract §3's order of checks):
 * request id → health probes, metrics and the explorer page (no key, no quota) → request log →
 * CORS (an allowed origin's preflight answered, its other answers marked) → no-store → method/path → API key
 * → quota → media type → size → JSON and request shape → persisted or trusted document → query
 * length → parse and validation (depth and width included) → an unsatisfiable Accept ignored → GraphQL
 * (`limit` check, cost, admission to execution, execute as one Cypher query) →
 * errors, every one through one failure mapping.
 */
export async function createApp({
  schema,
  authenticator,
  quota,
  documents,
  execution,
  admission,
  bodyTimeoutMs,
  logError,
  readiness,
  logRequest,
  metrics,
  metricsOnPublicPort,
  corsOrigins = [],
}: AppDependencies): Promise<App> {
  // Parsed once by the validation stage, read by Apollo and every stage after it.
  const parsed = new ParsedDocuments();
  const graphql = createGraphQLServer(schema, admission, logError, parsed.apolloStore);
  await graphql.start();

  const app = express();
  matchExactPaths(app);
  app.disable("x-powered-by");
  // An answer to a POST is never revalidated: hashing every response body for an ETag is waste.
  app.disable("etag");
  app.use(assignRequestId);
  app.use(healthRoutes(readiness));
  if (metricsOnPublicPort) app.use(metricsRoute(metrics));
  app.use(explorerRoutes(GRAPHQL_PATHS));
  app.use(
    requestLog((entry) => {
      metrics.observeRequest(entry);
      logRequest(entry);
    }),
  );
  if (corsOrigins.length > 0) app.all(GRAPHQL_PATHS, allowOrigins(corsOrigins));
  app.all(
    GRAPHQL_PATHS,
    noStore,
    onlyPost,
    requireApiKey(authenticator),
    enforceQuota(quota),
    requireJsonBody,
    refuseAnnouncedOversizedBody,
    readBodyText(bodyTimeoutMs),
    parseGraphQLBody,
    resolvePersistedDocument(documents),
    checkQueryText,
    validateDocument(schema, parsed),
    rememberValidDocument(documents),
    ignoreUnsatisfiableAccept,
    expressMiddleware(graphql, {
      context: ({ res }) =>
        Promise.resolve(
          requestContext(execution, {
            requestId: res.locals.requestId,
            // Set by the key stage, which every request reaching GraphQL has passed.
            keyId: res.locals.caller?.keyId ?? "",
            report: res.locals.report ?? {},
            responseDone: whenDone(res),
            since: res.locals.receivedAt + (res.locals.bodyMs ?? 0),
          }),
        ),
    }),
  );
  app.use(notFound);
  app.use(errorHandler(logError));

  return { app, stop: () => graphql.stop() };
}

/**
 * Why a response's signal is aborted. Given a reason, `abort()` builds no `DOMException` (with its
 * stack trace), which it would for every request: 0.06 ms each in the wide query's profile.
 */
const RESPONSE_OVER = "the response is over";

/** A signal aborted once the response is over: sent, or its connection gone. */
function whenDone(res: Response): AbortSignal {
  const done = new AbortController();
  if (res.closed) done.abort(RESPONSE_OVER);
  else
    res.once("close", () => {
      done.abort(RESPONSE_OVER);
    });
  return done.signal;
}

/** Every path of the app matched as contract §2 writes it. */
function matchExactPaths(app: Express): void {
  app.set("case sensitive routing", EXACT_PATHS.caseSensitive);
  app.set("strict routing", EXACT_PATHS.strict);
}

/** `/metrics` alone, for a port of its own (`METRICS_PORT`): what Prometheus scrapes in production. */
export function createMetricsApp(metrics: Metrics, logError: (line: string) => void): Express {
  const app = express();
  matchExactPaths(app);
  app.disable("x-powered-by");
  app.use(assignRequestId);
  app.use(metricsRoute(metrics));
  app.use(notFound);
  app.use(errorHandler(logError));
  return app;
}
