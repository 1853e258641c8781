import { z } from "zod";
import { DEFAULTS } from "./contract.js";
import type { QuotaLimits } from "./quota/policy.js";
import type { HostPort, RedisSettings } from "./redis/connection.js";
import type { AdmissionSettings } from "./overload/admission.js";
import type { FirstAskingSettings } from "./overload/first-askings.js";

const port = z.coerce.number().int().min(1).max(65_535);
const positiveMs = z.coerce.number().int().positive();
const count = z.coerce.number().int().positive();
const memorySize = z.string().regex(/^\d+[kmg]$/i, "a size such as 512m or 2g");

/** `host:port,host:port`: Redis nodes to start from. */
const hostPorts = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((node) => node.trim())
      .filter((node) => node !== ""),
  )
  .superRefine((nodes, context) => {
    if (nodes.length === 0) context.addIssue({ code: "custom", message: "no host:port given" });
    for (const node of nodes.filter((candidate) => !/^[^\s:]+:\d{1,5}$/.test(candidate)))
      context.addIssue({ code: "custom", message: `"${node}" is not host:port` });
  })
  .transform((nodes): HostPort[] =>
    nodes.map((node) => {
      const at = node.lastIndexOf(":");
      return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
    }),
  );

/** `scheme://host[:port]` exactly as a browser's `Origin` header writes it. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value;
  } catch {
    return false;
  }
}

/** The Neo4j releases the local server runs, the default first. */
export const NEO4J_VERSIONS = ["2026.09.0", "5.26.30"] as const;
export type Neo4jVersion = (typeof NEO4J_VERSIONS)[number];
export const DEFAULT_NEO4J_VERSION: Neo4jVersion = NEO4J_VERSIONS[0];

const EnvSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(4000),
  NEO4J_URI: z.string().min(1).optional(),
  NEO4J_USER: z.string().min(1).default("neo4j"),
  NEO4J_PASSWORD: z.string().min(8).default("kg-graphql-local"),
  NEO4J_DATABASE: z.string().min(1).default("neo4j"),
  NEO4J_QUERY_TIMEOUT_MS: positiveMs.default(10_000),
  NEO4J_CONNECTION_TIMEOUT_MS: positiveMs.default(2_000),
  // Contract §4: a revoked key stops working within the cache's lifetime, at most 60 s.
  API_KEY_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(DEFAULTS.keyCacheMaxMs)
    .default(DEFAULTS.keyCacheMaxMs),
  // Contract §2: a body not complete 10 s after the headers is refused (lowered only by tests).
  REQUEST_BODY_TIMEOUT_MS: positiveMs.default(DEFAULTS.bodyTimeoutMs),
  // On SIGTERM/SIGINT: how long in-flight requests may take to finish before they are cut; by
  // default a request's whole deadline and a second (shutdownTimeoutMs below).
  SHUTDOWN_TIMEOUT_MS: positiveMs.optional(),
  // Contract §11: the origins whose pages may call the endpoint from a browser, comma-separated,
  // each exactly as a browser sends it (`https://dash.example.com`, no path); none by default.
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ""),
    )
    .superRefine((origins, context) => {
      for (const origin of origins.filter((candidate) => !isOrigin(candidate)))
        context.addIssue({
          code: "custom",
          message: `"${origin}" is not an origin such as https://dash.example.com`,
        });
    })
    .default([]),
  // Prometheus metrics: unset, `/metrics` on the public port; set, on this port alone (same HOST).
  METRICS_PORT: port.optional(),
  // Contract §6, §10: Redis holds the quota counters and the remembered persisted queries, shared
  // by every instance: one server (REDIS_URL), a Redis Cluster (any of its nodes) or the master
  // of a Sentinel group; at most one of the three. The allowances are operator settings.
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_CLUSTER_NODES: hostPorts.optional(),
  REDIS_SENTINELS: hostPorts.optional(),
  REDIS_SENTINEL_MASTER: z.string().min(1).default("mymaster"),
  // Credentials of the cluster's or sentinel group's nodes (REDIS_URL carries its own).
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
  QUOTA_REQUESTS_PER_MINUTE: count.default(DEFAULTS.quotas.requestsPerMinute),
  QUOTA_REQUESTS_PER_DAY: count.default(DEFAULTS.quotas.requestsPerDay),
  QUOTA_GRAPHQL_QUERIES_PER_DAY: count.default(DEFAULTS.quotas.graphqlQueriesPerDay),
  // Contract §12: requests one key may have executing at once (a benchmark raises it like the
  // quotas), and what this instance runs at once: executions in flight (each holds a Neo4j
  // connection, so keep it well under the driver's pool of 100), then a short queue.
  QUOTA_CONCURRENT_REQUESTS_PER_KEY: count.default(DEFAULTS.concurrentRequestsPerKey),
  MAX_CONCURRENT_EXECUTIONS: count.default(16),
  EXECUTION_QUEUE_LENGTH: z.coerce.number().int().min(0).default(32),
  EXECUTION_QUEUE_TIMEOUT_MS: positiveMs.max(1_000).default(250),
  // Issue 32: statements Neo4j has not planned take turns to be planned (src/overload/first-askings.ts):
  // this many planning units (a statement's subqueries, plus one) at once, each held until the
  // statement is answered, then a short queue; FIRST_ASKING_MS_PER_UNIT is a unit's planning on an
  // idle server.
  // NEO4J_PLAN_CACHE_SIZE is what Neo4j keeps per database (its setting
  // server.memory.query_cache.per_db_cache_num_entries; the local server's is 2000).
  FIRST_ASKING_UNITS: count.default(16),
  FIRST_ASKING_QUEUE_LENGTH: z.coerce.number().int().min(0).default(32),
  FIRST_ASKING_QUEUE_TIMEOUT_MS: positiveMs.max(1_000).default(500),
  FIRST_ASKING_MS_PER_UNIT: positiveMs.default(20),
  NEO4J_PLAN_CACHE_SIZE: count.default(1_000),
  // Issue 22: known documents (trusted, recent persisted queries) planned by Neo4j at start-up and
  // when it answers again after an outage, at most this many per round, within this time.
  PREPLAN_MAX_DOCUMENTS: z.coerce.number().int().min(0).max(10_000).default(200),
  PREPLAN_BUDGET_MS: positiveMs.default(10_000),
  PREPLAN_CHECK_INTERVAL_MS: positiveMs.default(5_000),
  // How often the rows each list filter keeps are estimated again (src/planning/row-estimates.ts),
  // which a read of all of a list's rows starts by; `0` never reads them (reads start from the
  // first filter given).
  ROW_ESTIMATES_INTERVAL_MS: z.coerce.number().int().min(0).default(600_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // `json`: one JSON object per line; `pretty`: coloured lines for a developer's terminal.
  // Unset: pretty for local development (no NEO4J_URI), JSON everywhere else.
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  // The release the local Neo4j runs (src/local-neo4j/install.ts): 2026.09 (Java 21+), or 5.26 LTS
  // to test what operators still run.
  LOCAL_NEO4J_VERSION: z.enum(NEO4J_VERSIONS).default(DEFAULT_NEO4J_VERSION),
  LOCAL_NEO4J_BOLT_PORT: port.default(7687),
  LOCAL_NEO4J_HEAP: memorySize.default("1g"),
  LOCAL_NEO4J_PAGECACHE: memorySize.default("512m"),
  DEMO_DATA_SIZE: z.enum(["small", "10k", "100k", "1m"]).default("small"),
});

/** Every environment variable the service reads. */
export const SETTINGS = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

/** Settings only for the local Neo4j that `npm start` runs when `NEO4J_URI` is unset. */
export const LOCAL_ONLY_SETTINGS: readonly string[] = SETTINGS.filter(
  (name) => name.startsWith("LOCAL_NEO4J_") || name === "DEMO_DATA_SIZE",
);

/** Pre-planning of known documents (src/planning/). */
export interface PreplanSettings {
  /** Documents planned per round at most. */
  maxDocuments: number;
  /** A round stops starting new plans past this. */
  budgetMs: number;
  /** How often Neo4j's reachability is checked, to notice it coming back. */
  checkIntervalMs: number;
}

/** The service's settings, read once at start-up and passed to whatever needs them. */
export interface Config {
  http: {
    host: string;
    port: number;
    bodyTimeoutMs: number;
    shutdownTimeoutMs: number;
    /** Contract §11: origins allowed to call from a browser (CORS); empty, none. */
    corsOrigins: readonly string[];
  };
  neo4j: {
    /** Absent: `npm start` runs a local Neo4j of its own (development and demos). */
    uri: string | undefined;
    user: string;
    password: string;
    database: string;
    queryTimeoutMs: number;
    connectionTimeoutMs: number;
  };
  preplan: PreplanSettings;
  /** How often row estimates are read again; 0: never read. */
  rowEstimates: { intervalMs: number };
  auth: { cacheTtlMs: number };
  /** Absent: quota counters and persisted queries in process memory (one instance). */
  redis: RedisSettings | undefined;
  quota: { limits: QuotaLimits };
  admission: AdmissionSettings;
  firstAskings: FirstAskingSettings;
  log: { level: LogLevel; format: LogFormat };
  /** Absent: `/metrics` is served on the public port. */
  metrics: { port: number | undefined };
  localNeo4j: {
    version: Neo4jVersion;
    boltPort: number;
    heap: string;
    pageCache: string;
    demoDataSize: DemoDataSize;
  };
}

export type DemoDataSize = z.infer<typeof EnvSchema>["DEMO_DATA_SIZE"];
export type LogLevel = z.infer<typeof EnvSchema>["LOG_LEVEL"];
export type LogFormat = NonNullable<z.infer<typeof EnvSchema>["LOG_FORMAT"]>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The Redis the settings name; more than one way of naming it is a mistake worth stopping for. */
function redisSettings(e: z.infer<typeof EnvSchema>): RedisSettings | undefined {
  const named = [
    e.REDIS_URL && "REDIS_URL",
    e.REDIS_CLUSTER_NODES && "REDIS_CLUSTER_NODES",
    e.REDIS_SENTINELS && "REDIS_SENTINELS",
  ].filter(Boolean);
  if (named.length > 1)
    throw new ConfigError(`Invalid configuration:\n  set one of ${named.join(", ")}, not several`);
  const credentials = {
    ...(e.REDIS_USERNAME !== undefined && { username: e.REDIS_USERNAME }),
    ...(e.REDIS_PASSWORD !== undefined && { password: e.REDIS_PASSWORD }),
  };
  if (e.REDIS_URL !== undefined) return { mode: "standalone", url: e.REDIS_URL };
  if (e.REDIS_CLUSTER_NODES !== undefined)
    return { mode: "cluster", nodes: e.REDIS_CLUSTER_NODES, ...credentials };
  if (e.REDIS_SENTINELS !== undefined)
    return {
      mode: "sentinel",
      sentinels: e.REDIS_SENTINELS,
      master: e.REDIS_SENTINEL_MASTER,
      ...credentials,
    };
  return undefined;
}

/**
 * What the default shutdown timeout leaves past a request's deadline (the query timeout and its
 * margin), for its answer to be written: a request whose body has arrived by SIGTERM is answered,
 * not cut (contract §2, whatever the database does).
 */
const SHUTDOWN_SLACK_MS = 1_000;

/** Validates the environment into a {@link Config}; every setting has a default but `NEO4J_URI`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`NEO4J_URI=`) means "not set", as in most shells' and compose files' usage.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  return {
    http: {
      host: e.HOST,
      port: e.PORT,
      bodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS,
      shutdownTimeoutMs:
        e.SHUTDOWN_TIMEOUT_MS ?? e.NEO4J_QUERY_TIMEOUT_MS + DEFAULTS.deadlineMarginMs + SHUTDOWN_SLACK_MS,
      corsOrigins: e.CORS_ORIGINS,
    },
    neo4j: {
      uri: e.NEO4J_URI,
      user: e.NEO4J_USER,
      password: e.NEO4J_PASSWORD,
      database: e.NEO4J_DATABASE,
      queryTimeoutMs: e.NEO4J_QUERY_TIMEOUT_MS,
      connectionTimeoutMs: e.NEO4J_CONNECTION_TIMEOUT_MS,
    },
    preplan: {
      maxDocuments: e.PREPLAN_MAX_DOCUMENTS,
      budgetMs: e.PREPLAN_BUDGET_MS,
      checkIntervalMs: e.PREPLAN_CHECK_INTERVAL_MS,
    },
    rowEstimates: { intervalMs: e.ROW_ESTIMATES_INTERVAL_MS },
    auth: { cacheTtlMs: e.API_KEY_CACHE_TTL_MS },
    redis: redisSettings(e),
    quota: {
      limits: {
        requestsPerMinute: e.QUOTA_REQUESTS_PER_MINUTE,
        requestsPerDay: e.QUOTA_REQUESTS_PER_DAY,
        graphqlQueriesPerDay: e.QUOTA_GRAPHQL_QUERIES_PER_DAY,
      },
    },
    admission: {
      perKey: e.QUOTA_CONCURRENT_REQUESTS_PER_KEY,
      executions: e.MAX_CONCURRENT_EXECUTIONS,
      queueLength: e.EXECUTION_QUEUE_LENGTH,
      queueTimeoutMs: e.EXECUTION_QUEUE_TIMEOUT_MS,
    },
    firstAskings: {
      units: e.FIRST_ASKING_UNITS,
      queueLength: e.FIRST_ASKING_QUEUE_LENGTH,
      queueTimeoutMs: e.FIRST_ASKING_QUEUE_TIMEOUT_MS,
      remembered: e.NEO4J_PLAN_CACHE_SIZE,
      msPerUnit: e.FIRST_ASKING_MS_PER_UNIT,
    },
    log: { level: e.LOG_LEVEL, format: e.LOG_FORMAT ?? (e.NEO4J_URI === undefined ? "pretty" : "json") },
    metrics: { port: e.METRICS_PORT },
    localNeo4j: {
      version: e.LOCAL_NEO4J_VERSION,
      boltPort: e.LOCAL_NEO4J_BOLT_PORT,
      heap: e.LOCAL_NEO4J_HEAP,
      pageCache: e.LOCAL_NEO4J_PAGECACHE,
      demoDataSize: e.DEMO_DATA_SIZE,
    },
  };
}
