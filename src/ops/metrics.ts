import { Router } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ErrorCode } from "../errors/catalogue.js";
import { QUOTA_REFUSAL_CODES } from "../quota/policy.js";
import type { RedisStatus } from "../redis/connection.js";
import type { RequestLogEntry } from "./request-log.js";
import { EXACT_PATHS } from "../contract.js";

/** Which quota window each 429 code stands for. */
const QUOTA_WINDOWS: ReadonlyMap<ErrorCode, string> = new Map(
  Object.entries(QUOTA_REFUSAL_CODES).map(([window, code]) => [code, window]),
);
const AUTH_FAILURES: ReadonlySet<ErrorCode> = new Set(["unauthorized", "insufficient_scope"] as const);

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Contract §5: cost is at most 50,000 for a query that runs. */
const COST_BUCKETS = [1, 10, 50, 100, 500, 1_000, 5_000, 10_000, 25_000, 50_000];

export interface Metrics {
  registry: Registry;
  /** Counts a finished request from its log entry: one source for the log line and the metrics. */
  observeRequest: (entry: RequestLogEntry) => void;
  /** Times one Neo4j transaction the GraphQL library ran. */
  observeNeo4jTransaction: (seconds: number, outcome: "success" | "failure") => void;
  /** A known document pre-planned (planned), left out (skipped: invalid, or needs variables) or failed. */
  countPreplanned: (outcome: "planned" | "skipped" | "failed") => void;
}

/**
 * The service's Prometheus metrics, in a registry of their own (no global state, so a test can
 * start several apps). Paths are the endpoint's own or `other`, to keep label values bounded.
 */
export function createMetrics({
  graphqlPaths,
  redisStatus,
}: {
  graphqlPaths: readonly string[];
  redisStatus: () => RedisStatus;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "kg_graphql_http_requests_total",
    help: "HTTP requests by path, method, status and contract error code (empty when none).",
    labelNames: ["path", "method", "status", "code"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "kg_graphql_http_request_duration_seconds",
    help: "Time from a request's arrival to its response, by path and status.",
    labelNames: ["path", "status"] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const execution = new Histogram({
    name: "kg_graphql_graphql_execution_duration_seconds",
    help: "GraphQL execution of an admitted query: translation to Cypher plus its Neo4j transaction.",
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const neo4j = new Histogram({
    name: "kg_graphql_neo4j_transaction_duration_seconds",
    help: "Neo4j read transactions run for GraphQL queries: round trips, query execution, result streaming.",
    labelNames: ["outcome"] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const cost = new Histogram({
    name: "kg_graphql_query_cost",
    help: "Estimated cost (contract §5) of the queries that passed the cost check.",
    buckets: COST_BUCKETS,
    registers: [registry],
  });
  const quotaRefusals = new Counter({
    name: "kg_graphql_quota_refusals_total",
    help: "Requests refused with 429, by the quota window that was exhausted.",
    labelNames: ["window"] as const,
    registers: [registry],
  });
  const authFailures = new Counter({
    name: "kg_graphql_auth_failures_total",
    help: "Requests refused by authentication (401 unauthorized) or scope (403 insufficient_scope).",
    labelNames: ["code"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "kg_graphql_quota_store_fallback",
    help: "1 while Redis is unreachable and quotas are counted in this process's memory; 0 otherwise.",
    registers: [registry],
    collect() {
      this.set(redisStatus() === "down" ? 1 : 0);
    },
  });
  new Gauge({
    name: "kg_graphql_quota_store_info",
    help: "Where quota counters live: store is redis (REDIS_URL set) or memory; redis is up, down or not configured.",
    labelNames: ["store", "redis"] as const,
    registers: [registry],
    collect() {
      const status = redisStatus();
      this.reset();
      this.set({ store: status === "not configured" ? "memory" : "redis", redis: status }, 1);
    },
  });

  const invalidStoredValues = new Counter({
    name: "kg_graphql_invalid_stored_values_total",
    help: "Stored values answered as field errors (invalid_stored_value): missing, outside their enum, of another type or beyond what the wire format writes, by node label and property. `npm run graph:check` lists the nodes.",
    labelNames: ["label", "property"] as const,
    registers: [registry],
  });

  const preplanned = new Counter({
    name: "kg_graphql_preplanned_documents_total",
    help: "Known documents (trusted, recent persisted queries) whose Cypher Neo4j was asked to plan at start-up or after an outage, by outcome: planned, skipped or failed.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of ["planned", "skipped", "failed"] as const) preplanned.inc({ outcome }, 0);

  // Pre-create the zero series operators alert on, so a rate() sees them before the first event.
  for (const window of QUOTA_WINDOWS.values()) quotaRefusals.inc({ window }, 0);
  for (const code of AUTH_FAILURES) authFailures.inc({ code }, 0);

  const pathLabel = (path: string) => (graphqlPaths.includes(path) ? path : "other");

  return {
    registry,
    observeRequest(entry) {
      const path = pathLabel(entry.path);
      const status = String(entry.status);
      const { code } = entry;
      requests.inc({ path, method: entry.method, status, code: code ?? "" });
      duration.observe({ path, status }, entry.durationMs / 1000);
      if (entry.executionMs !== undefined) execution.observe(entry.executionMs / 1000);
      if (entry.cost !== undefined) cost.observe(entry.cost);
      for (const { label, property } of entry.invalidStoredValues ?? [])
        invalidStoredValues.inc({ label, property });
      if (code === undefined) return;
      const window = QUOTA_WINDOWS.get(code);
      if (window !== undefined) quotaRefusals.inc({ window });
      if (AUTH_FAILURES.has(code)) authFailures.inc({ code });
    },
    observeNeo4jTransaction(seconds, outcome) {
      neo4j.observe({ outcome }, seconds);
    },
    countPreplanned(outcome) {
      preplanned.inc({ outcome });
    },
  };
}

/** `GET /metrics` in Prometheus' text format: on the public port, or on a port of its own. */
export function metricsRoute(metrics: Metrics): Router {
  const router = Router(EXACT_PATHS);
  router.get("/metrics", async (_req, res) => {
    const body = await metrics.registry.metrics();
    res.set({ "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" }).send(body);
  });
  return router;
}
