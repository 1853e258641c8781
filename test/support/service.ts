import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { GraphQLSchema } from "graphql";
import type { Driver } from "neo4j-driver";
import { createApp, GRAPHQL_PATHS } from "../../src/app.js";
import { boundedDriver } from "../../src/neo4j/deadline.js";
import { queryRunner } from "../../src/neo4j/runner.js";
import { FirstAskings } from "../../src/overload/first-askings.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { isNeo4jReachable } from "../../src/neo4j/reachable.js";
import type { Readiness } from "../../src/ops/health.js";
import { connectRedis, type RedisConnection, type RedisStatus } from "../../src/redis/connection.js";
import { persistedQueryStore, type PersistedQueryStore } from "../../src/documents/persisted-query-store.js";
import type { RequestLogEntry } from "../../src/ops/request-log.js";
import { ApiKeyStore } from "../../src/auth/api-key-store.js";
import { Authenticator } from "../../src/auth/authenticate.js";
import { buildSchema, translationCacheCountsOf } from "../../src/graphql/schema.js";
import { loadConfig } from "../../src/config.js";
import { createQuotaCounters, type Quota, type QuotaCounters } from "../../src/quota/quota.js";
import { Admission, type AdmissionSettings } from "../../src/overload/admission.js";
import { countingDriver } from "./counting-driver.js";
import { loadFixtures } from "./fixtures.js";
import { testDatabase, testDriver } from "./test-neo4j.js";

/** The machine's Redis (CI's too); `TEST_REDIS_URL` points the suite elsewhere. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface RunningService {
  url: string;
  /** A key with the read scope, sent by {@link graphql} and (unless told otherwise) {@link request}. */
  key: string;
  /** The id of {@link key}'s record: what quota counters and logs name. */
  keyId: string;
  keys: ApiKeyStore;
  /** POSTs a GraphQL request to the endpoint; resolves with status, headers and parsed body. */
  graphql(query: string, variables?: Record<string, unknown>, path?: string): Promise<WireResponse>;
  request(path: string, init?: RequestInit, options?: { authenticated?: boolean }): Promise<WireResponse>;
  close(): Promise<void>;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
}

/** Starts the real app on an ephemeral port against the suite's Neo4j, with a fresh read key. */
export interface ServiceOptions {
  /** Default: the product's schema over `driver`. */
  schema?: GraphQLSchema;
  keyCacheTtlMs?: number;
  /** Default: Redis counters with allowances no test reaches, so only quota tests meet a 429. */
  quota?: Quota;
  queryTimeoutMs?: number;
  bodyTimeoutMs?: number;
  logError?: (line: string) => void;
  /** Default: Neo4j through `driver`, Redis as the shared counters see it. */
  readiness?: Readiness;
  logRequest?: (entry: RequestLogEntry) => void;
  /** Default: caps no test reaches but the ones about them. */
  admission?: Admission;
  /** Default: the service's own settings (`FIRST_ASKING_*`), so every new statement is planned first as in production. */
  firstAskings?: FirstAskings;
  /** Default: none (contract §11). */
  corsOrigins?: readonly string[];
  /** Default: documents remembered in the suite's Redis. */
  remembered?: PersistedQueryStore;
  /** Default: the quota store the service's readiness reports. */
  redisStatus?: () => RedisStatus;
}

/**
 * The translation cache the suite runs with: `verify` (every reuse checked against a fresh
 * translation) unless `TRANSLATION_CACHE` says otherwise; `npm test` runs the suite again with it off.
 */
export const testTranslationCache = loadConfig({
  TRANSLATION_CACHE: process.env.TRANSLATION_CACHE ?? "verify",
}).graphql.translationCache;

/** The product's schema (plus `extraTypeDefs`) over `driver`, with the suite's translation cache. */
export function buildTestSchema(
  driver: Driver = testDriver(),
  extraTypeDefs: string[] = [],
): Promise<GraphQLSchema> {
  return buildSchema(driver, testDatabase, { extraTypeDefs, translationCache: testTranslationCache });
}

/** Allowances far above what any one test sends. */
export const UNREACHED_LIMITS = { requestsPerMinute: 1e6, requestsPerDay: 1e6, graphqlQueriesPerDay: 1e6 };

/** Caps far above what any one test sends at once. */
export const UNREACHED_ADMISSION: AdmissionSettings = {
  perKey: 1_000,
  executions: 1_000,
  queueLength: 0,
  queueTimeoutMs: 250,
};

let sharedCounters: QuotaCounters | undefined;
let sharedRedis: RedisConnection | undefined;

/** The suite's Redis, as one connection (closed by {@link closeSharedCounters}). */
export function sharedRedisConnection(): RedisConnection {
  sharedRedis ??= connectRedis({ mode: "standalone", url: testRedisUrl });
  return sharedRedis;
}

/** Persisted queries remembered in the suite's Redis, as the service remembers them. */
function sharedRemembered(): PersistedQueryStore {
  return persistedQueryStore(sharedRedisConnection(), () => undefined);
}

/** One Redis client for every service the suite starts (closed by {@link closeSharedCounters}). */
function defaultQuota(): Quota {
  sharedCounters ??= createQuotaCounters(
    { limits: UNREACHED_LIMITS, redis: sharedRedisConnection() },
    () => undefined,
  );
  return sharedCounters.quota;
}

export async function closeSharedCounters(): Promise<void> {
  await sharedRedis?.close();
  sharedCounters = undefined;
  sharedRedis = undefined;
}

export async function startService(
  driver: Driver = testDriver(),
  options: ServiceOptions = {},
): Promise<RunningService> {
  const redisStatus = options.redisStatus ?? (() => sharedCounters?.redisStatus() ?? "not configured");
  const firstAskings = options.firstAskings ?? new FirstAskings(loadConfig({}).firstAskings);
  const schema =
    options.schema ?? (await buildTestSchema(boundedDriver(driver, options.queryTimeoutMs ?? 10_000)));
  const metrics = createMetrics({
    graphqlPaths: GRAPHQL_PATHS,
    redisStatus,
    translationCache: () => translationCacheCountsOf(schema),
  });
  const keys = new ApiKeyStore(testDriver(), testDatabase);
  const { key, record } = await keys.create("test suite", ["read"]);
  const { app, stop } = await createApp({
    schema,
    authenticator: new Authenticator(keys, options.keyCacheTtlMs ?? 60_000),
    quota: options.quota ?? defaultQuota(),
    documents: { remembered: options.remembered ?? sharedRemembered(), keys },
    execution: {
      runnerFor: (metadata) =>
        queryRunner(
          driver,
          {
            database: testDatabase,
            timeoutMs: options.queryTimeoutMs ?? 10_000,
            observe: metrics.observeNeo4jTransaction,
            firstAskings,
          },
          metadata,
        ),
    },
    admission: options.admission ?? new Admission(UNREACHED_ADMISSION),
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    logError: options.logError ?? (() => undefined),
    logRequest: options.logRequest ?? (() => undefined),
    readiness: options.readiness ?? {
      neo4j: () => isNeo4jReachable(driver, testDatabase, 2_000),
      redis: redisStatus,
    },
    metrics,
    metricsOnPublicPort: true,
    ...(options.corsOrigins && { corsOrigins: options.corsOrigins }),
  });
  const server: Server = await new Promise((resolve) => {
    const listener = app.listen(0, "127.0.0.1", () => {
      resolve(listener);
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (
    path: string,
    init: RequestInit = {},
    { authenticated = true } = {},
  ): Promise<WireResponse> => {
    const headers = new Headers(init.headers);
    if (authenticated && !headers.has("authorization")) headers.set("authorization", `Bearer ${key}`);
    const response = await fetch(url + path, { ...init, headers });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
  };
  return {
    url,
    key,
    keyId: record.id,
    keys,
    request,
    graphql: (query, variables, path = "/api/v1/graphql") =>
      request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
      }),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stop();
    },
  };
}

/**
 * A successful body without its `extensions.cost` (contract §5: on every successful response),
 * for comparing `data` and `errors` exactly. Fails if the cost is missing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire
export function withoutCost(body: any): unknown {
  const { extensions, ...rest } = body;
  if (JSON.stringify(Object.keys(extensions ?? {})) !== '["cost"]') {
    throw new Error(`expected extensions.cost alone, got ${JSON.stringify(extensions)}`);
  }
  return rest;
}

/**
 * The app over the fixture graph, through a driver that counts and records the Cypher it runs:
 * for tests about how many queries a request sends, and which.
 */
export async function startCountingService(): Promise<{
  service: RunningService;
  counter: ReturnType<typeof countingDriver>;
}> {
  await loadFixtures();
  const counter = countingDriver(testDriver());
  return { service: await startService(counter.driver), counter };
}
