import { once } from "node:events";
import { expect } from "chai";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { createQuotaCounters } from "../src/quota/quota.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, testRedisUrl, UNREACHED_LIMITS, type RunningService } from "./support/service.js";
import { freePort, startServiceProcess } from "./support/service-process.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

/** One sample of the Prometheus text format: a metric name with exactly these labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (
      JSON.stringify(found, Object.keys(found).sort()) === JSON.stringify(labels, Object.keys(labels).sort())
    )
      return Number(match[3]);
  }
  return undefined;
}

const neo4jTransactions = (text: string) =>
  sample(text, "kg_graphql_neo4j_transaction_duration_seconds_count", { outcome: "success" }) ?? 0;

const DEEP =
  "{ topics { decisions { topic { decisions { topic { decisions { topic { decisions { id } } } } } } } } }";

describe("metrics: GET /metrics in Prometheus' text format", () => {
  let service: RunningService;

  before(async () => {
    await loadFixtures();
  });
  afterEach(async () => {
    await service.close();
  });

  const scrape = async (url = service.url) => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.equal("text/plain; version=0.0.4; charset=utf-8");
    return response.text();
  };

  it("counts requests by path, status and code, times them, and records cost, Neo4j time, auth and quota refusals", async () => {
    // Two requests a minute for this key: the third is refused.
    const counters = createQuotaCounters(
      { limits: { ...UNREACHED_LIMITS, requestsPerMinute: 2 }, redisUrl: undefined },
      () => undefined,
    );
    service = await startService(testDriver(), { quota: counters.quota, redisStatus: counters.redisStatus });
    const { key: unscoped } = await new ApiKeyStore(testDriver(), testDatabase).create(
      "metrics: no read",
      [],
    );
    const neo4jBefore = neo4jTransactions(await scrape());

    const ok = await service.graphql('{ topic(id: "t1") { name decisions(limit: 5) { title } } }');
    expect(ok.status).to.equal(200);
    expect((await service.graphql(DEEP)).body.errors[0].extensions.code).to.equal("query_too_deep");
    expect((await service.graphql("{ topics { name } }")).status).to.equal(429);
    const anonymous = await service.request("/v1/graphql", { method: "POST" }, { authenticated: false });
    expect(anonymous.status).to.equal(401);
    const scopeless = await service.request("/v1/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${unscoped}` },
    });
    expect(scopeless.status).to.equal(403);
    expect((await service.request("/no/such/path", {}, { authenticated: false })).status).to.equal(404);

    const text = await scrape();
    const requests = (path: string, status: string, code: string) =>
      sample(text, "kg_graphql_http_requests_total", { path, method: "POST", status, code });
    expect(requests("/api/v1/graphql", "200", "")).to.equal(1);
    expect(requests("/api/v1/graphql", "422", "query_too_deep")).to.equal(1);
    expect(requests("/api/v1/graphql", "429", "rate_limited")).to.equal(1);
    expect(requests("/v1/graphql", "401", "unauthorized")).to.equal(1);
    expect(requests("/v1/graphql", "403", "insufficient_scope")).to.equal(1);
    // Unknown paths share one label value; the scrape itself is not counted.
    expect(
      sample(text, "kg_graphql_http_requests_total", {
        path: "other",
        method: "GET",
        status: "404",
        code: "not_found",
      }),
    ).to.equal(1);
    expect(text).not.to.include('path="/metrics"');

    const durations = (status: string) =>
      sample(text, "kg_graphql_http_request_duration_seconds_count", { path: "/api/v1/graphql", status });
    expect(durations("200")).to.equal(1);
    expect(durations("422")).to.equal(1);
    expect(
      sample(text, "kg_graphql_http_request_duration_seconds_bucket", {
        path: "/api/v1/graphql",
        status: "200",
        le: "+Inf",
      }),
    ).to.equal(1);

    // Only the query that ran has a cost, an execution and a Neo4j transaction (one root field).
    expect(sample(text, "kg_graphql_query_cost_count")).to.equal(1);
    expect(sample(text, "kg_graphql_query_cost_sum")).to.equal(ok.body.extensions.cost.requested);
    expect(sample(text, "kg_graphql_graphql_execution_duration_seconds_count")).to.equal(1);
    expect(neo4jTransactions(text) - neo4jBefore).to.equal(1);
    expect(
      sample(text, "kg_graphql_neo4j_transaction_duration_seconds_sum", { outcome: "success" }),
    ).to.be.above(0);

    expect(sample(text, "kg_graphql_auth_failures_total", { code: "unauthorized" })).to.equal(1);
    expect(sample(text, "kg_graphql_auth_failures_total", { code: "insufficient_scope" })).to.equal(1);
    expect(sample(text, "kg_graphql_quota_refusals_total", { window: "minute" })).to.equal(1);
    expect(sample(text, "kg_graphql_quota_refusals_total", { window: "day" })).to.equal(0);
    expect(sample(text, "kg_graphql_quota_refusals_total", { window: "graphql-day" })).to.equal(0);

    expect(
      sample(text, "kg_graphql_quota_store_info", { store: "memory", redis: "not configured" }),
    ).to.equal(1);
    expect(sample(text, "kg_graphql_quota_store_fallback")).to.equal(0);
    // Default process metrics.
    expect(sample(text, "process_cpu_user_seconds_total")).to.be.above(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).to.be.above(0);
    await counters.close();
  });

  it("reports the Redis fallback: 0 while Redis answers, 1 while quotas are counted in memory", async () => {
    const live = createQuotaCounters({ limits: UNREACHED_LIMITS, redisUrl: testRedisUrl }, () => undefined);
    service = await startService(testDriver(), { quota: live.quota, redisStatus: live.redisStatus });
    expect((await service.graphql("{ topics(limit: 1) { name } }")).status).to.equal(200);
    let text = await scrape();
    expect(sample(text, "kg_graphql_quota_store_info", { store: "redis", redis: "up" })).to.equal(1);
    expect(sample(text, "kg_graphql_quota_store_fallback")).to.equal(0);
    await service.close();
    await live.close();

    const dead = createQuotaCounters(
      { limits: UNREACHED_LIMITS, redisUrl: "redis://127.0.0.1:1" },
      () => undefined,
    );
    service = await startService(testDriver(), { quota: dead.quota, redisStatus: dead.redisStatus });
    // Quotas fail open: the query is served, counted in this process.
    expect((await service.graphql("{ topics(limit: 1) { name } }")).status).to.equal(200);
    text = await scrape();
    expect(sample(text, "kg_graphql_quota_store_info", { store: "redis", redis: "down" })).to.equal(1);
    expect(sample(text, "kg_graphql_quota_store_fallback")).to.equal(1);
    await dead.close();
  });
});

describe("metrics on a port of their own (METRICS_PORT, the service as its own process)", function () {
  this.timeout(60_000);

  it("serves /metrics on METRICS_PORT only, with Neo4j transactions timed through the real wiring", async () => {
    const metricsPort = await freePort();
    const process = await startServiceProcess({ METRICS_PORT: String(metricsPort) });
    try {
      const { key } = await new ApiKeyStore(testDriver(), testDatabase).create("metrics port", ["read"]);
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      // The library's own start-up transactions (its version check) are timed too.
      const neo4jBefore = neo4jTransactions(await (await fetch(metricsUrl)).text());
      const query = await fetch(process.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: "{ topics(limit: 2) { name } people(limit: 2) { name } }" }),
      });
      expect(query.status).to.equal(200);

      const publicScrape = await fetch(`http://127.0.0.1:${process.port}/metrics`);
      expect(publicScrape.status).to.equal(404);
      expect(
        ((await publicScrape.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions
          .code,
      ).to.equal("not_found");

      const scrape = await fetch(metricsUrl);
      expect(scrape.status).to.equal(200);
      const text = await scrape.text();
      expect(
        sample(text, "kg_graphql_http_requests_total", {
          path: "/api/v1/graphql",
          method: "POST",
          status: "200",
          code: "",
        }),
      ).to.equal(1);
      // A new document's two root fields are asked apart, side by side (src/neo4j/runner.ts): two transactions.
      expect(neo4jTransactions(text) - neo4jBefore).to.equal(2);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/graphql`)).status).to.equal(404);
      expect(process.output()).to.include(`Prometheus metrics: http://127.0.0.1:${metricsPort}/metrics.`);
    } finally {
      const exited = once(process.child, "exit");
      process.child.kill("SIGTERM");
      expect((await exited)[0]).to.equal(0);
    }
  });
});
