// The service assembled from its configuration and its connections: the one function that
// src/service.ts, the tests and the benches build the app with (issue 33), so every stage and
// every setting the service runs with is there in each. What differs between them is only what
// they are given: the configuration (the environment, read once) and the connections.
import type { GraphQLSchema } from "graphql";
import type { Driver } from "neo4j-driver";
import { createApp, GRAPHQL_PATHS, type App } from "./app.js";
import { ApiKeyStore } from "./auth/api-key-store.js";
import { Authenticator } from "./auth/authenticate.js";
import type { Config } from "./config.js";
import type { PersistedQueryStore } from "./documents/persisted-query-store.js";
import { buildSchema } from "./graphql/schema.js";
import type { HttpServerSettings } from "./http/server.js";
import { boundedDriver, DEADLINE_MARGIN_MS } from "./neo4j/deadline.js";
import { CombinedQueries } from "./neo4j/combine.js";
import { isNeo4jReachable } from "./neo4j/reachable.js";
import { queryRunner } from "./neo4j/runner.js";
import { createMetrics, type Metrics } from "./ops/metrics.js";
import type { RawAnswerLogEntry, RequestLogEntry } from "./ops/request-log.js";
import { Admission } from "./overload/admission.js";
import { FirstAskings } from "./overload/first-askings.js";
import { LastValues } from "./planning/last-values.js";
import { startPreplanning, type Preplanning } from "./planning/preplan.js";
import { RowEstimates } from "./planning/row-estimates.js";
import type { Quota } from "./quota/quota.js";
import type { RedisStatus } from "./redis/connection.js";

/** What the service is built from besides its configuration: connections, stores and log sinks. */
export interface ServiceParts {
  /** Neo4j, for queries, probes and pre-planning. */
  driver: Driver;
  /** Where API keys are looked up (default: {@link driver}); tests keep theirs apart from the queries they count. */
  keysDriver?: Driver;
  /** Default: the product's schema over {@link driver}, bounded by the query timeout. */
  schema?: GraphQLSchema;
  /** More SDL next to `typeDefs/`, when the schema is built here: tests add fields that misbehave. */
  extraTypeDefs?: string[];
  /** The quota counters (Redis, or memory) and the state of their Redis, as `/readyz` reports it. */
  quota: Quota;
  redisStatus: () => RedisStatus;
  /** Contract §10: remembered persisted queries. */
  remembered: PersistedQueryStore;
  log: (line: string) => void;
  logError: (line: string) => void;
  logRequest: (entry: RequestLogEntry) => void;
  /** The answers the HTTP server writes itself, to what the app never sees (src/http/server.ts). */
  logAnswer: (entry: RawAnswerLogEntry) => void;
}

export interface AssembledService extends App {
  /** What the HTTP server around {@link app} is created with (src/http/server.ts). */
  http: HttpServerSettings;
  schema: GraphQLSchema;
  keys: ApiKeyStore;
  metrics: Metrics;
  /** Contract §12's caps, and the planning room of new statements (issue 32): for tests to watch. */
  admission: Admission;
  firstAskings: FirstAskings;
  /** Starts pre-planning known documents (once serving); the service stops it on shutdown. */
  startPreplanning: () => Preplanning;
  /** How many rows each list filter keeps, which reads start by: for tests to read now. */
  rowEstimates: RowEstimates;
  /** Starts reading {@link rowEstimates} in the background, now and every few minutes; stopped on shutdown. */
  startRowEstimates: () => { stop: () => void };
}

/** Builds the app, every stage configured from `config`, over `parts`. */
export async function assembleService(config: Config, parts: ServiceParts): Promise<AssembledService> {
  const { driver, quota, redisStatus, remembered, log, logError, logRequest } = parts;
  const { database, queryTimeoutMs, connectionTimeoutMs } = config.neo4j;
  const schema =
    parts.schema ??
    (await buildSchema(boundedDriver(driver, queryTimeoutMs), database, {
      extraTypeDefs: parts.extraTypeDefs ?? [],
    }));
  // A key lookup waits for Neo4j no longer than a connection may take, then fails as unavailable.
  const keys = new ApiKeyStore(
    parts.keysDriver ?? driver,
    database,
    connectionTimeoutMs + DEADLINE_MARGIN_MS,
  );
  const metrics = createMetrics({ graphqlPaths: GRAPHQL_PATHS, redisStatus });
  // Statements Neo4j has not planned take turns (issue 32); pre-planning tells it what is planned.
  const firstAskings = new FirstAskings(config.firstAskings);
  const admission = new Admission(config.admission);
  // What known statements were last answered with: after a restart they are run again, not only planned.
  const lastValues = new LastValues();
  const combinations = new CombinedQueries();
  const rowEstimates = new RowEstimates();
  const { app, stop } = await createApp({
    schema,
    authenticator: new Authenticator(keys, config.auth.cacheTtlMs),
    quota,
    documents: { remembered, keys },
    execution: {
      runnerFor: (metadata, since, gone) =>
        queryRunner(
          driver,
          {
            database,
            timeoutMs: queryTimeoutMs,
            observe: metrics.observeNeo4jTransaction,
            firstAskings,
            answered: (text, parameters) => {
              lastValues.answered(text, parameters);
            },
            combinations,
          },
          metadata,
          since,
          gone,
        ),
      rowEstimates,
    },
    admission,
    bodyTimeoutMs: config.http.bodyTimeoutMs,
    logError,
    logRequest,
    metrics,
    metricsOnPublicPort: config.metrics.port === undefined,
    corsOrigins: config.http.corsOrigins,
    readiness: {
      neo4j: () => isNeo4jReachable(driver, database, connectionTimeoutMs),
      redis: redisStatus,
    },
  });
  return {
    app,
    stop,
    http: {
      headersTimeoutMs: config.http.bodyTimeoutMs,
      postOnlyPaths: GRAPHQL_PATHS,
      logAnswer: parts.logAnswer,
    },
    schema,
    keys,
    metrics,
    admission,
    firstAskings,
    rowEstimates,
    startRowEstimates: () => rowEstimates.start(driver, database, config.rowEstimates.intervalMs, log),
    startPreplanning: () =>
      // In the background: known documents never plan cold in front of a user.
      startPreplanning({
        schema,
        driver,
        database,
        documents: {
          trusted: (limit) => keys.everyTrustedDocument(limit),
          recentPersisted: (limit) => remembered.recent(limit),
        },
        settings: config.preplan,
        firstAskings,
        lastValues,
        log,
        count: metrics.countPreplanned,
      }),
  };
}
