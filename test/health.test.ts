import { expect } from "chai";
import type { Driver } from "neo4j-driver";
import { loadConfig } from "../src/config.js";
import { connectNeo4j } from "../src/neo4j/connect.js";
import { createQuotaCounters, type QuotaCounters } from "../src/quota/quota.js";
import { buildTestSchema, startService, testRedisUrl, type RunningService } from "./support/service.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";
import { testBoltUri, testPassword } from "./support/test-neo4j.js";

describe("health probes: /healthz and /readyz", () => {
  let proxy: TcpProxy;
  let driver: Driver;
  let counters: QuotaCounters;
  let service: RunningService;

  before(async () => {
    // The service's own driver settings, through a connection the test can cut and restore.
    proxy = await startTcpProxy(Number(new URL(testBoltUri()).port));
    ({ driver } = await connectNeo4j(
      loadConfig({ NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`, NEO4J_PASSWORD: testPassword }),
      () => undefined,
    ));
    // One request a minute: a probe that counted would use it up.
    counters = createQuotaCounters(
      {
        limits: { requestsPerMinute: 1, requestsPerDay: 100, graphqlQueriesPerDay: 100 },
        redisUrl: testRedisUrl,
      },
      () => undefined,
    );
    service = await startService(driver, {
      schema: await buildTestSchema(driver),
      quota: counters.quota,
      redisStatus: counters.redisStatus,
    });
  });
  after(async () => {
    await service.close();
    await driver.close();
    await counters.close();
    await proxy.stop().catch(() => undefined);
  });

  const probe = (path: string) => service.request(path, {}, { authenticated: false });

  it("/healthz answers 200 {status: ok} without a key, uncached", async () => {
    const response = await probe("/healthz");
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: "ok" });
    expect(response.headers.get("content-type")).to.match(/^application\/json/);
    expect(response.headers.get("cache-control")).to.equal("no-store");
  });

  it("answers only the exact probe paths: a trailing slash or other capitals is 404 not_found", async () => {
    for (const path of ["/healthz/", "/HEALTHZ", "/readyz/", "/ReadyZ"]) {
      const response = await probe(path);
      expect(response.status, path).to.equal(404);
      expect(response.body.errors[0].extensions.code).to.equal("not_found");
    }
  });

  it("/readyz answers 200 ready with Neo4j up, the schema built and Redis reported", async () => {
    const response = await probe("/readyz");
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      status: "ready",
      checks: { neo4j: "up", schema: "built", redis: "up" },
    });
  });

  it("never counts against a quota, nor asks for a key", async () => {
    for (let i = 0; i < 3; i++) {
      for (const path of ["/healthz", "/readyz"]) {
        const response = await probe(path);
        expect(response.status).to.equal(200);
        expect(response.headers.get("ratelimit")).to.equal(null);
      }
    }
    // The key's one request of the day is still there.
    expect((await service.graphql("{ topics(limit: 1) { id } }")).status).to.equal(200);
    expect((await service.graphql("{ topics(limit: 1) { id } }")).status).to.equal(429);
  });

  it("/readyz turns 503 service_unavailable when Neo4j goes away (healthz stays 200), and ready when it is back", async () => {
    await proxy.stop();
    const down = await probe("/readyz");
    expect(down.status).to.equal(503);
    // Contract §3's one error shape and its 503's Retry-After, with the checks beside it.
    const requestId = down.headers.get("x-request-id");
    expect(down.body).to.deep.equal({
      errors: [
        {
          message: "Not ready: Neo4j does not answer.",
          extensions: { code: "service_unavailable", requestId },
        },
      ],
      status: "unready",
      checks: { neo4j: "down", schema: "built", redis: "up" },
    });
    expect(down.headers.get("retry-after")).to.equal("5");
    expect(down.headers.get("cache-control")).to.equal("no-store");
    expect((await probe("/healthz")).status).to.equal(200);

    await proxy.resume();
    // The pool notices the restored server on the next acquisition; allow it a few probes.
    let up = await probe("/readyz");
    for (let attempt = 0; attempt < 10 && up.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      up = await probe("/readyz");
    }
    expect(up.status).to.equal(200);
    expect(up.body.status).to.equal("ready");
  });

  it("reports Redis down, and stays ready: quotas fail open", async () => {
    const deadRedis = createQuotaCounters(
      {
        limits: { requestsPerMinute: 10, requestsPerDay: 10, graphqlQueriesPerDay: 10 },
        redisUrl: "redis://127.0.0.1:1",
      },
      () => undefined,
    );
    const withoutRedis = await startService(driver, {
      schema: await buildTestSchema(driver),
      quota: deadRedis.quota,
      redisStatus: deadRedis.redisStatus,
    });
    try {
      const response = await withoutRedis.request("/readyz", {}, { authenticated: false });
      expect(response.status).to.equal(200);
      expect(response.body.checks.redis).to.equal("down");
    } finally {
      await withoutRedis.close();
      await deadRedis.close();
    }
  });
});
