import { expect } from "chai";
import { Cluster } from "ioredis";
import { sha256Hex } from "../src/documents/document-hash.js";
import { persistedQueryKey, persistedQueryStore } from "../src/documents/persisted-query-store.js";
import { quotaWindows } from "../src/quota/policy.js";
import { createQuotaCounters } from "../src/quota/quota.js";
import { quotaCounterKey } from "../src/quota/redis-store.js";
import { connectRedis, type RedisConnection, type RedisSettings } from "../src/redis/connection.js";
import { ask, eventually, local, RedisServers } from "./support/redis-servers.js";
import { startService, UNREACHED_LIMITS, type RunningService } from "./support/service.js";

/** One instance of the service on its own Redis connection, as a deployment runs it. */
async function instance(settings: RedisSettings, log: (line: string) => void = () => undefined) {
  const redis = connectRedis(settings);
  const counters = createQuotaCounters({ limits: UNREACHED_LIMITS, redis }, log);
  const service = await startService(undefined, {
    quota: counters.quota,
    remembered: persistedQueryStore(redis, log),
    redisStatus: redis.status,
  });
  await eventually("the service's Redis connection is ready", () => Promise.resolve(redis.status() === "up"));
  return { service, redis };
}

const post = (service: RunningService, body: object) =>
  service.request("/api/v1/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const apq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256Hex(query) } });
const fresh = () => `{ topics(limit: 1) { id } } # ${String(Math.random())}`;

/** The day counter of `keyId`: the key the quota script increments once per request. */
const dayCounter = (keyId: string) => {
  const day = quotaWindows(UNREACHED_LIMITS, Date.now()).find((window) => window.name === "day");
  if (day === undefined) throw new Error("no day window");
  return quotaCounterKey(keyId, day);
};

/** Sends `n` requests, each answered 200 within 2 s (a failing Redis costs a request nothing). */
async function answeredFast(service: RunningService, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response = await post(service, { query: "{ topics(limit: 1) { id } }" });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(performance.now() - started).to.be.below(2_000);
  }
}

describe("production Redis: a Redis Cluster and a Sentinel group (contract §6, §10)", function () {
  this.timeout(120_000);
  let servers: RedisServers;
  const opened: { service: RunningService; redis: RedisConnection }[] = [];
  beforeEach(() => {
    servers = new RedisServers();
  });
  afterEach(async () => {
    for (const { service, redis } of opened.splice(0)) {
      await service.close();
      await redis.close();
    }
    servers.stopAll();
  });

  it("counts quotas and shares persisted queries across instances on a three-master cluster, and through a master's failover to its replica", async () => {
    const ports = await servers.startCluster(3, 1);
    const settings: RedisSettings = { mode: "cluster", nodes: [local(ports[0] ?? 0)] };
    const lines: string[] = [];
    const a = await instance(settings, (line) => lines.push(line));
    const b = await instance(settings);
    opened.push(a, b);
    const reader = new Cluster([local(ports[1] ?? 0)]);
    reader.on("error", () => undefined); // a node killed below: the reads retry through the others
    try {
      // Both instances count into one counter per key (the key's counters share a slot).
      const counter = dayCounter(a.service.keyId);
      await answeredFast(a.service, 3);
      expect(Number(await reader.get(counter))).to.equal(3);
      // A document remembered by one instance runs by its hash on the other.
      const query = fresh();
      expect((await post(a.service, { query, extensions: apq(query) })).status).to.equal(200);
      const elsewhere = await post(b.service, { extensions: apq(query) });
      expect(elsewhere.status).to.equal(200);
      expect(elsewhere.body.data).to.have.property("topics");
      expect(await reader.get(persistedQueryKey(sha256Hex(query)))).to.equal(query);

      // The master holding the counter dies: requests go on at once, counted in memory meanwhile…
      const master = await servers.masterOf(ports[1] ?? 0, counter);
      servers.kill(master);
      await answeredFast(a.service, 5);
      // …and once its replica has taken over, in Redis again, from where the replica stood.
      await eventually(
        "a replica took over the dead master's slots",
        async () => {
          const survivor = ports.find((port) => port !== master) ?? 0;
          return (await servers.masterOf(survivor, counter)) !== master;
        },
        30_000,
      );
      // (A command that timed out on a busy machine may still have counted in Redis: the service
      // then counts that request in memory too and says Redis is unreachable, so both are asked.)
      await eventually("requests are counted in the cluster again", async () => {
        const before = Number(await reader.get(counter));
        await answeredFast(a.service, 1);
        return (
          Number(await reader.get(counter)) === before + 1 && /Redis answers again/.test(lines.at(-1) ?? "")
        );
      });
      expect(lines.some((line) => line.startsWith("Quota counters: Redis is unreachable"))).to.equal(true);
    } finally {
      reader.disconnect();
    }
  });

  it("keeps answering on a cluster without replicas that loses a master: counted in memory, as documented", async () => {
    const ports = await servers.startCluster(3, 0);
    const a = await instance({ mode: "cluster", nodes: ports.map(local) });
    opened.push(a);
    await answeredFast(a.service, 2);
    const master = await servers.masterOf(ports[0] ?? 0, dayCounter(a.service.keyId));
    servers.kill(master);
    // Until an operator restores the node, part of the slots has no server: every request is
    // still answered, and a hash the cluster cannot look up is simply asked for again.
    await answeredFast(a.service, 5);
    const query = fresh();
    expect((await post(a.service, { extensions: apq(query) })).body.errors[0].extensions.code).to.equal(
      "PERSISTED_QUERY_NOT_FOUND",
    );
    expect((await post(a.service, { query, extensions: apq(query) })).status).to.equal(200);
  });

  it("follows a Sentinel group's master through a failover", async () => {
    const master = await servers.start();
    const replica = await servers.start(() => ["--replicaof", "127.0.0.1", String(master)]);
    const sentinel = await servers.startSentinel(master, "quotas");
    await eventually("the sentinel knows the replica", async () => {
      const replicas = (await ask(sentinel, "SENTINEL", "REPLICAS", "quotas")) as unknown[];
      return replicas.length > 0;
    });
    const a = await instance({ mode: "sentinel", sentinels: [local(sentinel)], master: "quotas" });
    opened.push(a);
    const counter = dayCounter(a.service.keyId);
    await answeredFast(a.service, 2);
    expect(Number(await ask(master, "GET", counter))).to.equal(2);

    servers.kill(master);
    await answeredFast(a.service, 3);
    await eventually("the sentinel promoted the replica", async () => {
      const role = (await ask(replica, "ROLE")) as string[];
      return role[0] === "master";
    });
    await eventually("requests are counted on the new master", async () => {
      const before = Number(await ask(replica, "GET", counter));
      await answeredFast(a.service, 1);
      return Number(await ask(replica, "GET", counter)) === before + 1;
    });
  });
});
