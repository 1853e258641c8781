import { expect } from "chai";
import { Redis } from "ioredis";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { sha256Hex } from "../src/documents/document-hash.js";
import {
  MemoryPersistedQueryStore,
  persistedQueryKey,
  persistedQueryStore,
  RECENT_KEPT,
  RECENT_KEY,
  REMEMBERED_FOR_SECONDS,
} from "../src/documents/persisted-query-store.js";
import { createQuotaCounters } from "../src/quota/quota.js";
import { connectRedis } from "../src/redis/connection.js";
import {
  startService,
  testRedisUrl,
  UNREACHED_LIMITS,
  type RunningService,
  type WireResponse,
} from "./support/service.js";
import { loadFixtures } from "./support/fixtures.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

const TOPICS = {
  topics: [
    { id: "t2", name: "Hiring" },
    { id: "t3", name: "Observability" },
  ],
};

/** A query no earlier run has remembered: the suite's Redis outlives a run. */
const fresh = () => `{ topics(limit: 2) { id name } } # ${String(Math.random())}`;
/** `hash` with its first hex digit changed. */
const changed = (hash: string) => (hash.startsWith("0") ? "1" : "0") + hash.slice(1);
const apq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });

function post(service: RunningService, body: object, key = service.key): Promise<WireResponse> {
  return service.request("/api/v1/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
}

function expectRefused(response: WireResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).to.equal(status);
  expect(response.body.errors).to.have.length(1);
  expect(response.body.errors[0].extensions).to.deep.equal({
    code,
    requestId: response.headers.get("x-request-id"),
  });
  expect(response.body).to.have.all.keys("errors");
}

function expectNotFound(response: WireResponse): void {
  expect(response.status).to.equal(200);
  expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
  expect(response.body).to.deep.equal({
    errors: [
      {
        message: "PersistedQueryNotFound",
        extensions: { code: "PERSISTED_QUERY_NOT_FOUND", requestId: response.headers.get("x-request-id") },
      },
    ],
  });
}

describe("persisted documents (contract §10)", function () {
  const redis = new Redis(testRedisUrl);
  let service: RunningService;
  before(async () => {
    await loadFixtures();
    service = await startService(undefined, { keyCacheTtlMs: 0 });
  });
  after(async () => {
    await service.close();
    redis.disconnect();
  });

  describe("automatic persisted queries", () => {
    it("answers an unknown hash PersistedQueryNotFound (200, no data, no cost); the text with its hash runs and is remembered; the hash alone then runs it", async () => {
      const query = fresh();
      const hash = sha256Hex(query);
      expectNotFound(await post(service, { extensions: apq(hash) }));
      const withText = await post(service, { query, extensions: apq(hash) });
      expect(withText.status).to.equal(200);
      expect(withText.body.data).to.deep.equal(TOPICS);
      const hashOnly = await post(service, { extensions: apq(hash) });
      expect(hashOnly.status).to.equal(200);
      expect(hashOnly.body).to.deep.equal(withText.body);
      // Kept at least 24 h after its last use, in the shared Redis.
      expect(await redis.get(persistedQueryKey(hash))).to.equal(query);
      expect(await redis.ttl(persistedQueryKey(hash))).to.be.above(24 * 3600);
    });

    it("refuses text that does not hash to the hash it names with 422 persisted_query_mismatch, and remembers nothing", async () => {
      const query = fresh();
      const hash = sha256Hex(query);
      const refused = await post(service, { query, extensions: apq(changed(hash)) });
      expectRefused(refused, 422, "persisted_query_mismatch");
      expect(refused.body.errors[0].message).to.include(hash);
      expect(await redis.exists(persistedQueryKey(changed(hash)))).to.equal(0);
      expectRefused(
        await post(service, { query: `${query} `, extensions: apq(hash) }),
        422,
        "persisted_query_mismatch",
      );
      expect((await post(service, { query, extensions: apq(hash) })).status).to.equal(200);
    });

    it("remembers only a valid document: a text refused for its length, syntax or schema is not kept", async () => {
      const padding = `# ${fresh()}\n`;
      for (const [query, code] of [
        [`${padding}{ topics { id } }${" ".repeat(10_001)}`, "query_too_long"],
        [`${padding}{ topics { id }`, "parse_error"],
        [`${padding}{ topics { nope } }`, "validation_failed"],
      ] as const) {
        const hash = sha256Hex(query);
        expectRefused(await post(service, { query, extensions: apq(hash) }), 422, code);
        expect(await redis.exists(persistedQueryKey(hash)), code).to.equal(0);
        expectNotFound(await post(service, { extensions: apq(hash) }));
      }
    });

    it("runs a remembered document by documentId too, and variables and operationName with it", async () => {
      const query = `query Named($n: Int) { topics(limit: $n) { id } } # ${String(Math.random())}`;
      const hash = sha256Hex(query);
      expectNotFound(await post(service, { documentId: `sha256:${hash}`, variables: { n: 1 } }));
      expect((await post(service, { query, extensions: apq(hash), variables: { n: 1 } })).status).to.equal(
        200,
      );
      const byId = await post(service, {
        documentId: `sha256:${hash}`,
        variables: { n: 1 },
        operationName: "Named",
      });
      expect(byId.status).to.equal(200);
      expect(byId.body.data).to.deep.equal({ topics: [{ id: "t2" }] });
    });

    it("shares remembered documents between two instances through Redis", async () => {
      const other = await startService();
      try {
        const query = fresh();
        const hash = sha256Hex(query);
        expect((await post(service, { query, extensions: apq(hash) })).status).to.equal(200);
        const elsewhere = await post(other, { extensions: apq(hash) }, other.key);
        expect(elsewhere.status).to.equal(200);
        expect(elsewhere.body.data).to.deep.equal(TOPICS);
      } finally {
        await other.close();
      }
    });

    it("counts a hash-only request against the quotas like any other, a miss included", async () => {
      const counters = createQuotaCounters(
        { limits: { ...UNREACHED_LIMITS, requestsPerMinute: 2 } },
        () => undefined,
      );
      const limited = await startService(undefined, { quota: counters.quota });
      try {
        const hash = sha256Hex(fresh());
        expectNotFound(await post(limited, { extensions: apq(hash) }, limited.key));
        expectNotFound(await post(limited, { extensions: apq(hash) }, limited.key));
        expectRefused(await post(limited, { extensions: apq(hash) }, limited.key), 429, "rate_limited");
      } finally {
        await limited.close();
        await counters.close();
      }
    });

    it("remembers in this process while Redis is down, and answers at once", async () => {
      const lines: string[] = [];
      const dead = connectRedis({ mode: "standalone", url: "redis://127.0.0.1:1" });
      try {
        const store = persistedQueryStore(dead, (line) => lines.push(line));
        const started = performance.now();
        await store.remember("a".repeat(64), "{ a }");
        expect(await store.get("a".repeat(64))).to.equal("{ a }");
        expect(await store.get("b".repeat(64))).to.equal(undefined);
        expect(performance.now() - started).to.be.below(1_000);
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(/^Persisted queries: Redis is unreachable/);
      } finally {
        await dead.close();
      }
    });

    it("still finds a document remembered while Redis was down once it is back, and writes it to Redis", async () => {
      const proxy = await startTcpProxy(Number(new URL(testRedisUrl).port || 6379));
      const connection = connectRedis({ mode: "standalone", url: `redis://127.0.0.1:${String(proxy.port)}` });
      const lines: string[] = [];
      try {
        const store = persistedQueryStore(connection, (line) => lines.push(line));
        const query = `{ whileDown${String(Date.now())} }`;
        await proxy.stop();
        await store.remember(sha256Hex(query), query);
        await proxy.resume();
        const deadline = Date.now() + 10_000;
        while (connection.client.status !== "ready" && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await store.get(sha256Hex(query))).to.equal(query);
        expect(lines.at(-1)).to.equal("Persisted queries: Redis answers again; remembering them in Redis.");
        expect(await redis.get(persistedQueryKey(sha256Hex(query)))).to.equal(query);
      } finally {
        await connection.close();
        await proxy.stop();
      }
    });

    it("lists the documents used last, newest first, in Redis and in memory (for pre-planning)", async () => {
      const connection = connectRedis({ mode: "standalone", url: testRedisUrl });
      try {
        const [first, second] = [`{ a${String(Date.now())} }`, `{ b${String(Date.now())} }`];
        for (const store of [
          persistedQueryStore(connection, () => undefined),
          new MemoryPersistedQueryStore(),
        ]) {
          await store.remember(sha256Hex(first), first);
          await store.remember(sha256Hex(second), second);
          expect(await store.get(sha256Hex(first))).to.equal(first); // a use: now the newest
          // Redis records a use without holding the request up: wait for it.
          const deadline = Date.now() + 5_000;
          while ((await store.recent(1))[0] !== first && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 10));
          expect(await store.recent(2)).to.deep.equal([first, second]);
        }
        expect(await redis.zcard(RECENT_KEY)).to.be.at.most(RECENT_KEPT);
      } finally {
        await connection.close();
      }
    });

    it("forgets a document in memory a day and an hour after its last use, not before", async () => {
      let now = 1_000_000;
      const store = new MemoryPersistedQueryStore(undefined, { now: () => now });
      const hour = 3_600_000;
      await store.remember("c".repeat(64), "{ c }");
      now += 25 * hour - 1;
      expect(await store.get("c".repeat(64))).to.equal("{ c }"); // a use: kept 25 h from here
      now += 25 * hour - 1;
      expect(await store.get("c".repeat(64))).to.equal("{ c }");
      now += 25 * hour + 1;
      expect(await store.get("c".repeat(64))).to.equal(undefined);
      expect(REMEMBERED_FOR_SECONDS).to.equal(25 * 3600);
    });
  });

  describe("trusted documents", () => {
    let keys: ApiKeyStore;
    const registered = "{ topics(limit: 2) { id name } }";
    const hash = sha256Hex(registered);
    let restricted: { key: string; id: string };
    before(async () => {
      keys = new ApiKeyStore(testDriver(), testDatabase);
      const { key, record } = await keys.create("trusted documents test", ["read"]);
      restricted = { key, id: record.id };
      await keys.trust(record.id, { [hash]: registered });
    });

    it("runs the registered text, its APQ hash and its documentId; one character changed is 403 document_not_allowed", async () => {
      const asText = await post(service, { query: registered }, restricted.key);
      expect(asText.status).to.equal(200);
      expect(asText.body.data).to.deep.equal(TOPICS);
      for (const body of [
        { extensions: apq(hash) },
        { documentId: `sha256:${hash}` },
        { query: registered, extensions: apq(hash) },
      ]) {
        const response = await post(service, body, restricted.key);
        expect(response.status, JSON.stringify(body)).to.equal(200);
        expect(response.body.data).to.deep.equal(TOPICS);
      }
      const other = "{ topics(limit: 2) { id name} }";
      const refused = await post(service, { query: other }, restricted.key);
      expectRefused(refused, 403, "document_not_allowed");
      expect(refused.body.errors[0].message).to.equal(
        "This API key may run only the documents registered for it (trusted documents).",
      );
      expectRefused(
        await post(service, { query: other, extensions: apq(sha256Hex(other)) }, restricted.key),
        403,
        "document_not_allowed",
      );
      // An unregistered hash is refused, not PersistedQueryNotFound: resending the text would not help.
      expectRefused(
        await post(service, { extensions: apq(changed(hash)) }, restricted.key),
        403,
        "document_not_allowed",
      );
      expectRefused(
        await post(service, { documentId: `sha256:${changed(hash)}` }, restricted.key),
        403,
        "document_not_allowed",
      );
      // The unrestricted key runs either text.
      expect((await post(service, { query: other })).status).to.equal(200);
    });

    it("checks the hash before the trust: a mismatch is 422 persisted_query_mismatch", async () => {
      expectRefused(
        await post(service, { query: registered, extensions: apq(changed(hash)) }, restricted.key),
        422,
        "persisted_query_mismatch",
      );
    });

    it("holds a registered document to every limit of §5", async () => {
      const deep =
        "{ topics(limit: 1) { decisions(limit: 1) { decidedBy { decisionsMade(limit: 1) { topic { decisions(limit: 1) { decidedBy { decisionsMade(limit: 1) { topic { name } } } } } } } } } }";
      await keys.trust(restricted.id, { [sha256Hex(deep)]: deep });
      expectRefused(
        await post(service, { documentId: `sha256:${sha256Hex(deep)}` }, restricted.key),
        422,
        "query_too_deep",
      );
    });

    it("lets a key run any document again once untrusted, and lists how many documents a key has", async () => {
      const { key, record } = await keys.create("untrust test", ["read"]);
      await keys.trust(record.id, { [hash]: registered });
      expect((await keys.list()).find((k) => k.id === record.id)?.trustedDocuments).to.equal(1);
      const other = "{ people(limit: 1) { id } }";
      expectRefused(await post(service, { query: other }, key), 403, "document_not_allowed");
      await keys.untrust(record.id);
      expect((await keys.list()).find((k) => k.id === record.id)?.trustedDocuments).to.equal(null);
      expect((await post(service, { query: other }, key)).status).to.equal(200);
    });
  });
});
