import type { AddressInfo } from "node:net";
import type { GraphQLSchema } from "graphql";
import type { Driver } from "neo4j-driver";
import type { Express } from "express";
import { assembleService, type ServiceParts } from "../../src/assembly.js";
import { MemoryQuotaStore } from "../../src/quota/memory-store.js";
import type { FirstAskings } from "../../src/overload/first-askings.js";
import { connectRedis, type RedisConnection, type RedisStatus } from "../../src/redis/connection.js";
import {
  MemoryPersistedQueryStore,
  persistedQueryStore,
  type PersistedQueryStore,
} from "../../src/documents/persisted-query-store.js";
import type { RawAnswerLogEntry, RequestLogEntry } from "../../src/ops/request-log.js";
import type { ApiKeyStore } from "../../src/auth/api-key-store.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { createHttpServer } from "../../src/http/server.js";
import { loadConfig, SETTINGS, type Config } from "../../src/config.js";
import { createQuotaCounters, Quota, type QuotaCounters } from "../../src/quota/quota.js";
import type { Admission } from "../../src/overload/admission.js";
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
  /** What the app was assembled with, and the app itself (test/stages.test.ts compares them with the service's). */
  config: Config;
  app: Express;
  /** Contract §12's caps and the planning room of new statements, as the app uses them. */
  admission: Admission;
  firstAskings: FirstAskings;
  /** Read by `readRowEstimates` ({@link SUITE_ENV} reads none in the background). */
  readRowEstimates(log?: (line: string) => void): Promise<number>;
  close(): Promise<void>;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
}

/** Starts the real app on an ephemeral port against the suite's Neo4j, with a fresh read key. */
export interface ServiceOptions {
  /** Settings as an operator sets them (the service's environment variables), over {@link SUITE_ENV}. */
  env?: Settings;
  /** Default: the product's schema over `driver`. */
  schema?: GraphQLSchema;
  keyCacheTtlMs?: number;
  /** Default: Redis counters with allowances no test reaches, so only quota tests meet a 429. */
  quota?: Quota;
  queryTimeoutMs?: number;
  bodyTimeoutMs?: number;
  logError?: (line: string) => void;
  logRequest?: (entry: RequestLogEntry) => void;
  logAnswer?: (entry: RawAnswerLogEntry) => void;
  /** Default: none (contract §11). */
  corsOrigins?: readonly string[];
  /** Default: documents remembered in the suite's Redis. */
  remembered?: PersistedQueryStore;
  /** Default: the quota store the service's readiness reports. */
  redisStatus?: () => RedisStatus;
}

/** Settings by their environment variables' names: a name the service does not read fails to compile. */
type Settings = Partial<Record<(typeof SETTINGS)[number], string>>;

/**
 * What the suite sets apart from the service's defaults, each for a reason; every other setting is
 * the service's own (test/stages.test.ts holds this list to what the tests' app differs in).
 */
export const SUITE_ENV: Readonly<Settings> = {
  // Caps far above what any one test sends at once: only the tests about them meet a 429 or 503.
  QUOTA_CONCURRENT_REQUESTS_PER_KEY: "1000",
  MAX_CONCURRENT_EXECUTIONS: "1000",
  EXECUTION_QUEUE_LENGTH: "0",
  // Tests count the queries a request sends: no pre-planning round runs beside them (the epoch is
  // still watched); test/preplanning.test.ts runs rounds itself.
  PREPLAN_MAX_DOCUMENTS: "0",
  // Nor any read of row estimates: a statement's start would depend on when they arrived;
  // test/row-estimates.test.ts reads them itself.
  ROW_ESTIMATES_INTERVAL_MS: "0",
};

/** The product's schema (plus `extraTypeDefs`) over `driver`. */
export function buildTestSchema(
  driver: Driver = testDriver(),
  extraTypeDefs: string[] = [],
): Promise<GraphQLSchema> {
  return buildSchema(driver, testDatabase, { extraTypeDefs });
}

/**
 * What an app assembled outside {@link startService} needs besides its driver and schema: counters
 * and remembered documents in memory, logs dropped (`assembleService`'s other parts).
 */
export function memoryParts(): Omit<ServiceParts, "driver" | "schema"> {
  return {
    quota: new Quota(UNREACHED_LIMITS, new MemoryQuotaStore()),
    redisStatus: () => "not configured",
    remembered: new MemoryPersistedQueryStore(),
    log: () => undefined,
    logError: () => undefined,
    logRequest: () => undefined,
    logAnswer: () => undefined,
  };
}

/** Allowances far above what any one test sends. */
export const UNREACHED_LIMITS = { requestsPerMinute: 1e6, requestsPerDay: 1e6, graphqlQueriesPerDay: 1e6 };

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
  const config = loadConfig({
    ...SUITE_ENV,
    NEO4J_DATABASE: testDatabase,
    ...(options.queryTimeoutMs !== undefined && { NEO4J_QUERY_TIMEOUT_MS: String(options.queryTimeoutMs) }),
    ...(options.bodyTimeoutMs !== undefined && { REQUEST_BODY_TIMEOUT_MS: String(options.bodyTimeoutMs) }),
    ...(options.keyCacheTtlMs !== undefined && { API_KEY_CACHE_TTL_MS: String(options.keyCacheTtlMs) }),
    ...(options.corsOrigins !== undefined && { CORS_ORIGINS: options.corsOrigins.join(",") }),
    ...options.env,
  });
  const assembled = await assembleService(config, {
    driver,
    // Keys apart from the queries a counting driver counts.
    keysDriver: testDriver(),
    ...(options.schema !== undefined && { schema: options.schema }),
    quota: options.quota ?? defaultQuota(),
    redisStatus: options.redisStatus ?? (() => sharedCounters?.redisStatus() ?? "not configured"),
    remembered: options.remembered ?? sharedRemembered(),
    log: () => undefined,
    logError: options.logError ?? (() => undefined),
    logRequest: options.logRequest ?? (() => undefined),
    logAnswer: options.logAnswer ?? (() => undefined),
  });
  const { app, stop, keys } = assembled;
  const preplanning = assembled.startPreplanning();
  const estimating = assembled.startRowEstimates();
  const { key, record } = await keys.create("test suite", ["read"]);
  const server = createHttpServer(app, assembled.http);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
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
    config,
    app,
    admission: assembled.admission,
    firstAskings: assembled.firstAskings,
    readRowEstimates: (log = () => undefined) => assembled.rowEstimates.read(driver, testDatabase, log),
    async close() {
      preplanning.stop();
      estimating.stop();
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
