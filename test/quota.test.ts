import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { expect } from "chai";
import { Redis } from "ioredis";
import { DEFAULTS } from "../src/contract.js";
import { quotaWindows, type QuotaLimits, type QuotaWindow } from "../src/quota/policy.js";
import { createQuotaCounters, type QuotaCounters } from "../src/quota/quota.js";
import { quotaCounterKey } from "../src/quota/redis-store.js";
import { startService, testRedisUrl, type RunningService } from "./support/service.js";
import { startTcpProxy } from "./support/tcp-proxy.js";

const QUERY = "{ topics(limit: 1) { id } }";
const POLICY = '"minute";q=100;w=60, "day";q=10000;w=86400, "graphql-day";q=5000;w=86400';

/** The Redis key of a key's counter for one window at `now` (the layout of docs/keys-and-quotas.md). */
function counter(keyId: string, name: QuotaWindow["name"], now: number): string {
  const window = quotaWindows(DEFAULTS.quotas, now).find((candidate) => candidate.name === name);
  if (window === undefined) throw new Error(`no ${name} window`);
  return quotaCounterKey(keyId, window);
}

/** A clock the test moves: starts 23 s into the current UTC minute (so `t` of the minute is 37). */
function testClock() {
  const real = Date.now();
  let now = real - (real % 60_000) + 23_000;
  const secondsToMidnight = () => Math.ceil((86_400_000 - (now % 86_400_000)) / 1000);
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    secondsToMidnight,
  };
}

describe("quotas (contract §6) against the real Redis", function () {
  const redis = new Redis(testRedisUrl);
  const opened: { counters: QuotaCounters; service: RunningService }[] = [];

  async function serviceWithQuota(clock = testClock(), limits: QuotaLimits = DEFAULTS.quotas) {
    const counters = createQuotaCounters({ limits, redisUrl: testRedisUrl }, () => undefined, clock.now);
    const service = await startService(undefined, { quota: counters.quota });
    opened.push({ counters, service });
    return { service, clock };
  }

  afterEach(async () => {
    for (const { counters, service } of opened.splice(0)) {
      await service.close();
      await counters.close();
    }
  });
  after(async () => {
    await redis.quit();
  });

  it("states the policy and what is left on every authenticated response", async () => {
    const { service, clock } = await serviceWithQuota();
    const response = await service.graphql(QUERY);
    expect(response.status).to.equal(200);
    expect(response.headers.get("ratelimit-policy")).to.equal(POLICY);
    const day = clock.secondsToMidnight();
    expect(response.headers.get("ratelimit")).to.equal(
      `"minute";r=99;t=37, "day";r=9999;t=${day}, "graphql-day";r=4999;t=${day}`,
    );
    // Admitted, then refused by a later check: still counted, headers still there.
    const refused = await service.request("/api/v1/graphql", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: QUERY,
    });
    expect(refused.status).to.equal(415);
    expect(refused.headers.get("ratelimit")).to.match(/^"minute";r=98;t=37, "day";r=9998;/);
  });

  it("gives no quota headers to 401 and 403, and counts neither", async () => {
    const { service } = await serviceWithQuota();
    const unauthorized = await service.request(
      "/api/v1/graphql",
      { method: "POST", headers: { authorization: "Bearer kgq_unknown" } },
      { authenticated: true },
    );
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.headers.has("ratelimit")).to.equal(false);
    expect(unauthorized.headers.has("ratelimit-policy")).to.equal(false);
    const { key } = await service.keys.create("no scope", []);
    const forbidden = await service.request("/api/v1/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.headers.has("ratelimit")).to.equal(false);
    expect((await service.graphql(QUERY)).headers.get("ratelimit")).to.match(/^"minute";r=99;/);
  });

  it("admits the 100th request of a minute and refuses the 101st with Retry-After, consuming nothing", async () => {
    const { service, clock } = await serviceWithQuota();
    for (let i = 1; i <= 99; i++) expect((await service.graphql(QUERY)).status).to.equal(200);
    const hundredth = await service.graphql(QUERY);
    expect(hundredth.status).to.equal(200);
    expect(hundredth.headers.get("ratelimit")).to.match(/^"minute";r=0;t=37, "day";r=9900;/);
    expect(hundredth.headers.has("retry-after")).to.equal(false);

    for (let i = 0; i < 3; i++) {
      const refused = await service.graphql(QUERY);
      expect(refused.status).to.equal(429);
      expect(refused.headers.get("retry-after")).to.equal("37");
      expect(refused.headers.get("ratelimit-policy")).to.equal(POLICY);
      expect(refused.headers.get("ratelimit")).to.match(
        /^"minute";r=0;t=37, "day";r=9900;t=\d+, "graphql-day";r=4900;/,
      );
      expect(refused.headers.get("content-type")).to.equal("application/json; charset=utf-8");
      expect(refused.body.errors[0].extensions.code).to.equal("rate_limited");
      expect(refused.body.errors[0].message).to.match(/100 requests this minute.*37 s/);
    }

    clock.advance(37_000); // the next UTC minute: a new window, and the refusals cost nothing
    const next = await service.graphql(QUERY);
    expect(next.status).to.equal(200);
    expect(next.headers.get("ratelimit")).to.match(/^"minute";r=99;t=60, "day";r=9899;/);
  });

  it("refuses past the daily cap with the seconds to UTC midnight, counting what the REST surface consumed", async () => {
    const { service, clock } = await serviceWithQuota();
    const { keyId } = service;
    // The REST surface shares the minute and day counters: 9,998 of today's requests were its.
    await redis.set(counter(keyId, "day", clock.now()), "9998");
    expect((await service.graphql(QUERY)).headers.get("ratelimit")).to.match(/"day";r=1;/);
    expect((await service.graphql(QUERY)).headers.get("ratelimit")).to.match(/"day";r=0;/);
    const refused = await service.graphql(QUERY);
    expect(refused.status).to.equal(429);
    expect(refused.body.errors[0].extensions.code).to.equal("daily_quota_exceeded");
    expect(refused.headers.get("retry-after")).to.equal(String(clock.secondsToMidnight()));
    expect(await redis.get(counter(keyId, "day", clock.now()))).to.equal("10000");

    // Past midnight UTC, a new day.
    clock.advance(clock.secondsToMidnight() * 1000);
    const tomorrow = await service.graphql(QUERY);
    expect(tomorrow.status).to.equal(200);
    expect(tomorrow.headers.get("ratelimit")).to.match(/"day";r=9999;t=86400, "graphql-day";r=4999;t=86400$/);
  });

  it("refuses past the GraphQL daily cap, and names the window that resets last when several are spent", async () => {
    const { service, clock } = await serviceWithQuota();
    const { keyId } = service;
    await redis.set(counter(keyId, "graphql-day", clock.now()), "4999");
    expect((await service.graphql(QUERY)).status).to.equal(200);
    const graphqlRefused = await service.graphql(QUERY);
    expect(graphqlRefused.status).to.equal(429);
    expect(graphqlRefused.body.errors[0].extensions.code).to.equal("graphql_quota_exceeded");
    expect(graphqlRefused.headers.get("retry-after")).to.equal(String(clock.secondsToMidnight()));

    // Minute and GraphQL day both spent: the GraphQL day resets last, so its code and wait.
    await redis.set(counter(keyId, "minute", clock.now()), "100");
    expect((await service.graphql(QUERY)).body.errors[0].extensions.code).to.equal("graphql_quota_exceeded");
    // Day and GraphQL day reset together: the (shared) daily quota is named.
    await redis.set(counter(keyId, "day", clock.now()), "10000");
    const both = await service.graphql(QUERY);
    expect(both.body.errors[0].extensions.code).to.equal("daily_quota_exceeded");
    expect(both.headers.get("retry-after")).to.equal(String(clock.secondsToMidnight()));
    // Only the minute spent: its code, and the wait to the next minute.
    await redis.del(counter(keyId, "day", clock.now()), counter(keyId, "graphql-day", clock.now()));
    const minuteOnly = await service.graphql(QUERY);
    expect(minuteOnly.body.errors[0].extensions.code).to.equal("rate_limited");
    expect(minuteOnly.headers.get("retry-after")).to.equal("37");
  });

  it("states operator-set allowances in the headers", async () => {
    const limits = { requestsPerMinute: 2, requestsPerDay: 50, graphqlQueriesPerDay: 40 };
    const { service } = await serviceWithQuota(testClock(), limits);
    const first = await service.graphql(QUERY);
    expect(first.headers.get("ratelimit-policy")).to.equal(
      '"minute";q=2;w=60, "day";q=50;w=86400, "graphql-day";q=40;w=86400',
    );
    expect((await service.graphql(QUERY)).status).to.equal(200);
    expect((await service.graphql(QUERY)).status).to.equal(429);
  });

  it("admits exactly 100 of 400 concurrent requests across two instances sharing Redis", async () => {
    const clock = testClock();
    const one = await serviceWithQuota(clock);
    const counters = createQuotaCounters(
      { limits: DEFAULTS.quotas, redisUrl: testRedisUrl },
      () => undefined,
      clock.now,
    );
    const two = await startService(undefined, { quota: counters.quota });
    opened.push({ counters, service: two });
    // Both instances serve one key: the first service's.
    const body = JSON.stringify({ query: QUERY });
    const send = (url: string) =>
      fetch(`${url}/api/v1/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${one.service.key}`, "content-type": "application/json" },
        body,
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    const statuses = await Promise.all(
      Array.from({ length: 400 }, (_, i) => send(i % 2 === 0 ? one.service.url : two.url)),
    );
    expect(statuses.filter((status) => status === 200)).to.have.length(100);
    expect(statuses.filter((status) => status === 429)).to.have.length(300);
  });

  describe("when Redis goes away and comes back", () => {
    let server: ChildProcess | undefined;
    let port = 0;

    const startRedis = async () => {
      server = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        {
          stdio: "ignore",
        },
      );
      const probe = new Redis(port, "127.0.0.1", { lazyConnect: true, retryStrategy: () => 50 });
      probe.on("error", () => undefined); // refused until the server listens
      await probe.connect().catch(() => undefined);
      await probe.ping();
      probe.disconnect();
    };
    const stopRedis = async () => {
      const exited = new Promise((resolve) => server?.once("exit", resolve));
      server?.kill("SIGKILL");
      await exited;
    };

    before(async () => {
      port = await freePort();
    });
    after(async () => {
      await stopRedis();
    });

    it("keeps serving on per-instance counters, logs it, and returns to Redis", async () => {
      await startRedis();
      const lines: string[] = [];
      const clock = testClock();
      const counters = createQuotaCounters(
        { limits: DEFAULTS.quotas, redisUrl: `redis://127.0.0.1:${port}` },
        (line) => lines.push(line),
        clock.now,
      );
      const service = await startService(undefined, { quota: counters.quota });
      opened.push({ counters, service });
      const { keyId } = service;
      const own = new Redis(port, "127.0.0.1", { retryStrategy: () => 50 });
      own.on("error", () => undefined); // while the server is down
      try {
        expect((await service.graphql(QUERY)).status).to.equal(200);
        expect(await own.get(counter(keyId, "minute", clock.now()))).to.equal("1");

        await stopRedis();
        const during = await service.graphql(QUERY);
        expect(during.status).to.equal(200);
        expect(during.headers.get("ratelimit")).to.match(/^"minute";r=99;/); // this process's count
        expect(lines.join("\n")).to.match(/Redis is unreachable.*counting in this process/);

        await startRedis(); // empty: --save ""
        // ioredis reconnects within its retry delay (≤ 2 s); until then the process keeps counting.
        let counted: string | null = null;
        for (let attempt = 0; attempt < 100 && counted === null; attempt++) {
          expect((await service.graphql(QUERY)).status).to.equal(200);
          counted = await own.get(counter(keyId, "minute", clock.now()));
          if (counted === null) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(counted).to.equal("1");
        expect(lines.join("\n")).to.match(/Redis answers again/);
      } finally {
        own.disconnect();
      }
    });
  });
});

describe("quotas when Redis holds its connection but stops answering (hung)", function () {
  this.timeout(60_000);

  it("leaves it alone a second after a command times out: one request a second waits, not every one; reports it down", async () => {
    const proxy = await startTcpProxy(Number(new URL(testRedisUrl).port || 6379));
    const lines: string[] = [];
    const counters = createQuotaCounters(
      { limits: DEFAULTS.quotas, redisUrl: `redis://127.0.0.1:${String(proxy.port)}` },
      (line) => lines.push(line),
    );
    try {
      const keyId = `hung-${String(Date.now())}`;
      // Connected and counting in Redis first.
      while (counters.redisStatus() !== "up") await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await counters.quota.admit(keyId)).admitted).to.equal(true);
      expect(lines).to.deep.equal([]);
      proxy.stall();
      const started = performance.now();
      const waits: number[] = [];
      for (let i = 0; i < 20; i++) {
        const asked = performance.now();
        expect((await counters.quota.admit(keyId)).admitted).to.equal(true); // fails open
        waits.push(performance.now() - asked);
      }
      // Each command times out after 500 ms: 20 requests asking Redis would take 10 s.
      expect(performance.now() - started).to.be.below(4_000);
      expect(waits.filter((ms) => ms >= 450).length).to.be.at.most(4);
      expect(lines).to.deep.equal([
        "Quota counters: Redis is unreachable (a command timed out); counting in this process until it returns.",
      ]);
      // Connected, and down for /readyz and the metrics, until it answers again.
      expect(counters.redisStatus()).to.equal("down");
      await proxy.stop();
      await proxy.resume();
      const deadline = performance.now() + 10_000;
      while (counters.redisStatus() !== "up" && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(counters.redisStatus()).to.equal("up");
    } finally {
      await proxy.stop();
      await counters.close();
    }
  });
});

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => {
        resolve(port);
      });
    });
    probe.once("error", reject);
  });
}
