import { expect } from "chai";
import { Admission } from "../src/overload/admission.js";
import { buildTestSchema, startService, type RunningService, type WireResponse } from "./support/service.js";
import { loadFixtures } from "./support/fixtures.js";
import { TROUBLE_TYPEDEFS } from "./support/trouble-typedefs.js";
import { testDriver } from "./support/test-neo4j.js";

/** Resolves once `admission` reports `executing` executions and `queued` waiting requests. */
/** One execution at a time per instance and one request waiting, up to 1 s; eight per key. */
const ONE_EXECUTION_AND_ONE_WAITING = {
  QUOTA_CONCURRENT_REQUESTS_PER_KEY: "8",
  MAX_CONCURRENT_EXECUTIONS: "1",
  EXECUTION_QUEUE_LENGTH: "1",
  EXECUTION_QUEUE_TIMEOUT_MS: "1000",
};

async function until(admission: Admission, load: { executing: number; queued: number }): Promise<void> {
  while (admission.load.executing !== load.executing || admission.load.queued !== load.queued) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function expectRefusal(response: WireResponse, status: number, code: string, message: RegExp): void {
  expect(response.status, JSON.stringify(response.body)).to.equal(status);
  expect(response.headers.get("retry-after")).to.equal("1");
  expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
  expect(response.body).to.deep.equal({
    errors: [
      {
        message: response.body.errors[0].message,
        extensions: { code, requestId: response.headers.get("x-request-id") },
      },
    ],
  });
  expect(response.body.errors[0].message).to.match(message);
}

describe("concurrency and overload (contract §12)", () => {
  let schema: Awaited<ReturnType<typeof buildTestSchema>>;
  let service: RunningService | undefined;
  const current = () => {
    if (service === undefined) throw new Error("no service started");
    return service;
  };
  /** A request that holds its execution slot for `ms` in Neo4j. */
  const slow = (ms: number, key = service?.key, accept = "application/json") =>
    current().request("/api/v1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept, authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: `{ slow(ms: ${ms}) }` }),
    });
  const otherKey = async (name: string) => (await current().keys.create(name, ["read"])).key;

  before(async () => {
    // The first askings' answers are read from the fixture graph: this file loads it itself.
    await loadFixtures();
    schema = await buildTestSchema(testDriver(), [TROUBLE_TYPEDEFS]);
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("refuses a key's request past its cap with 429 concurrency_limited and Retry-After: 1, and serves other keys", async () => {
    service = await startService(undefined, {
      schema,
      env: {
        QUOTA_CONCURRENT_REQUESTS_PER_KEY: "2",
        MAX_CONCURRENT_EXECUTIONS: "100",
        EXECUTION_QUEUE_LENGTH: "0",
        EXECUTION_QUEUE_TIMEOUT_MS: "250",
      },
    });
    const { admission } = service;
    const held = [slow(1_500), slow(1_500)];
    await until(admission, { executing: 2, queued: 0 });

    const refused = await slow(0, service.key, "application/graphql-response+json");
    expect(refused.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expectRefusal(refused, 429, "concurrency_limited", /already has 2 requests executing.*Try again in 1 s/);
    // It passed the quota check and consumed its unit (contract §6): the headers say so.
    expect(refused.headers.get("ratelimit")).to.match(/"minute";r=\d+/);

    const other = await slow(0, await otherKey("another dashboard"));
    expect(other.status).to.equal(200);
    for (const response of await Promise.all(held)) expect(response.status).to.equal(200);
    expect((await slow(0)).status).to.equal(200);
  });

  it("answers variables that do not coerce 422 validation_failed at the key's cap and with execution full: an earlier check (contract §3)", async () => {
    service = await startService(undefined, {
      schema,
      env: { ...ONE_EXECUTION_AND_ONE_WAITING, QUOTA_CONCURRENT_REQUESTS_PER_KEY: "2" },
    });
    const { admission } = service;
    const keys = [service.key, await otherKey("another dashboard")];
    const held = [slow(1_500), slow(1_500)];
    await until(admission, { executing: 1, queued: 1 });

    for (const key of keys) {
      const response = await current().request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: "query ($ms: Int!) { slow(ms: $ms) }", variables: { ms: "soon" } }),
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(422);
      expect(response.body.errors[0].extensions.code).to.equal("validation_failed");
      expect(response.body.errors[0].message).to.match(/\$ms/);
    }
    await Promise.all(held);
  });

  it("holds a key's slot while the query of a request whose caller hung up still runs in Neo4j", async () => {
    service = await startService(undefined, {
      schema,
      env: {
        QUOTA_CONCURRENT_REQUESTS_PER_KEY: "1",
        MAX_CONCURRENT_EXECUTIONS: "100",
        EXECUTION_QUEUE_LENGTH: "0",
        EXECUTION_QUEUE_TIMEOUT_MS: "250",
      },
    });
    const { admission } = service;
    const caller = new AbortController();
    const gone = current()
      .request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${service.key}` },
        body: JSON.stringify({ query: "{ slow(ms: 2000) }" }),
        signal: caller.signal,
      })
      .then(
        () => "answered",
        () => "hung up",
      );
    await until(admission, { executing: 1, queued: 0 });
    caller.abort();
    expect(await gone).to.equal("hung up");
    // The connection is gone, its query is not: the key's one slot stays taken until it ends.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(admission.load.executing).to.equal(1);
    expectRefusal(await slow(0), 429, "concurrency_limited", /already has 1 requests? executing/);
    await until(admission, { executing: 0, queued: 0 });
    expect((await slow(0)).status).to.equal(200);
  });

  it("refuses at once with 503 and Retry-After when executions and queue are full; refusals before execution and probes never wait", async () => {
    service = await startService(undefined, {
      schema,
      env: ONE_EXECUTION_AND_ONE_WAITING,
    });
    const { admission } = service;
    const [second, third] = [await otherKey("queued"), await otherKey("third")];
    const running = slow(2_000);
    await until(admission, { executing: 1, queued: 0 });
    const queued = slow(0, second);
    await until(admission, { executing: 1, queued: 1 });

    let runningDone = false;
    void running.then(() => (runningDone = true));
    // GraphQL over HTTP's type is for the GraphQL stages' 422s (contract §2): a 503 is JSON.
    const refused = await slow(0, third, "application/graphql-response+json");
    expect(refused.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expectRefusal(
      refused,
      503,
      "service_unavailable",
      /at its limit of queries in flight and could not start this one within 1000 ms. Try again in 1 s/,
    );
    const tooDeep = await service.graphql(
      "{ topics { decisions { topic { decisions { topic { decisions { topic { decisions { id } } } } } } } } }",
    );
    expect(tooDeep.body.errors[0].extensions.code).to.equal("query_too_deep");
    expect((await service.request("/healthz", {}, { authenticated: false })).status).to.equal(200);
    // All answered while the first query still held the only slot: none of them waited for it.
    expect(runningDone).to.equal(false);

    // The queued request's wait (1 s) ends before the 2 s query does: it is refused too.
    expectRefusal(await queued, 503, "service_unavailable", /could not start this one within 1000 ms/);
    expect((await running).status).to.equal(200);
    expect(admission.load).to.deep.equal({ executing: 0, slots: 0, queued: 0 });
  });

  it("runs a queued request when a slot frees within its wait", async () => {
    service = await startService(undefined, {
      schema,
      env: ONE_EXECUTION_AND_ONE_WAITING,
    });
    const { admission } = service;
    const running = slow(300);
    await until(admission, { executing: 1, queued: 0 });
    const queued = await slow(0, await otherKey("queued"));
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    expect(queued.body.data).to.deep.equal({ slow: 0 });
    expect((await running).status).to.equal(200);
  });

  it("gives an executing request's slot back once its caller has hung up and its query has ended", async () => {
    service = await startService(undefined, {
      schema,
      env: ONE_EXECUTION_AND_ONE_WAITING,
    });
    const { admission } = service;
    const hangUp = new AbortController();
    const gone = fetch(`${service.url}/api/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${service.key}` },
      body: JSON.stringify({ query: "{ slow(ms: 1500) }" }),
      signal: hangUp.signal,
    }).catch(() => "aborted");
    await until(admission, { executing: 1, queued: 0 });
    hangUp.abort();
    expect(await gone).to.equal("aborted");
    await until(admission, { executing: 0, queued: 0 });
    expect((await slow(0)).status).to.equal(200);
  });

  // Issue 32: a statement Neo4j has not planned waits for planning room (src/overload/first-askings.ts).
  describe("first askings", () => {
    const ask = (query: string) =>
      current().request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${current().key}` },
        body: JSON.stringify({ query }),
      });

    it("holds a new statement's planning room until it is answered, however long its planning guess", async () => {
      service = await startService(undefined, { schema });
      const { firstAskings } = service;
      const running = slow(1_500);
      while (firstAskings.load.units === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      // Past any guess of its planning (a unit or two at 20 ms), still held: it is not answered.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(firstAskings.load.units).to.be.above(0);
      expect((await running).status).to.equal(200);
      expect(firstAskings.load).to.deep.equal({ units: 0, queued: 0 });
    });

    it("refuses a new statement with 503 and Retry-After: 1 while the planning room is taken, and serves a planned one", async () => {
      service = await startService(undefined, {
        schema,
        env: {
          FIRST_ASKING_UNITS: "1",
          FIRST_ASKING_QUEUE_LENGTH: "0",
          FIRST_ASKING_QUEUE_TIMEOUT_MS: "250",
          NEO4J_PLAN_CACHE_SIZE: "100",
          FIRST_ASKING_MS_PER_UNIT: "1000",
        },
      });
      const { firstAskings } = service;
      const planned = "{ topics(limit: 3) { id name } }";
      expect((await ask(planned)).status).to.equal(200);
      // Another statement being planned holds the room.
      const held = await firstAskings.admit("CYPHER 5 RETURN 'being planned'");
      expect((await ask(planned)).status, "a statement Neo4j has planned passes").to.equal(200);
      const started = performance.now();
      expectRefusal(
        await ask("{ topics(limit: 3) { id decisions(limit: 2) { id } } }"),
        503,
        "service_unavailable",
        /^This instance is planning as many new queries as it can at once and could not start planning this one within 250 ms\. Try again in 1 s\.$/,
      );
      expect(performance.now() - started).to.be.below(1_000);
      held();
      expect((await ask("{ topics(limit: 3) { id decisions(limit: 2) { id } } }")).status).to.equal(200);
    });

    it("plans a new statement asked by many at once once: the others wait for its answer, not for room", async () => {
      service = await startService(undefined, {
        schema,
        // Room for one new statement and no queue: any second one asking for room is refused.
        env: { FIRST_ASKING_UNITS: "1", FIRST_ASKING_QUEUE_LENGTH: "0", FIRST_ASKING_MS_PER_UNIT: "1000" },
      });
      const query = "{ topics(limit: 4) { id decisions(limit: 3) { id decidedBy { name } } } }";
      const answers = await Promise.all(Array.from({ length: 8 }, () => ask(query)));
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array.from({ length: 8 }, () => 200));
      expect(service.firstAskings.load).to.deep.equal({ units: 0, queued: 0 });
    });

    it("asks a new document's root fields apart with their room taken together: they never queue behind each other", async () => {
      service = await startService(undefined, {
        schema,
        // Room for one new statement and no queue: a part asking for room of its own would be refused.
        env: { FIRST_ASKING_UNITS: "1", FIRST_ASKING_QUEUE_LENGTH: "0", FIRST_ASKING_MS_PER_UNIT: "1000" },
      });
      const query =
        '{ topics(limit: 2) { id decisions(limit: 2) { id } } people(limit: 2) { id } disagreements(topicId: "t1") { id } }';
      // Eight callers at once: one asks the parts, the others wait for its answer.
      const answers = await Promise.all(Array.from({ length: 8 }, () => ask(query)));
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array.from({ length: 8 }, () => 200));
      expect(answers[0]?.body.data?.people, JSON.stringify(answers[0]?.body)).to.have.length(2);
      expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).to.equal(1);
      // Asked eight times, the combination is being planned in the background, taking no room.
      expect(service.firstAskings.load).to.deep.equal({ units: 0, queued: 0 });
    });

    it("refuses at once with 503 a new statement Neo4j's current planning pace would make miss its timeout, and sends a smaller one", async () => {
      service = await startService(undefined, { schema, queryTimeoutMs: 2_000 });
      const { firstAskings } = service;
      // First askings lately took 300 ms a unit (an idle server: the setting, 20 ms).
      for (let i = 0; i < 40; i++) firstAskings.noteAnswered("CYPHER 5 RETURN 'lately'", 300);
      // 9 units: 2.7 s at that pace, past the 2 s timeout (0.18 s idle).
      const late = await ask(
        "{ topics(limit: 3) { decisions { decidedBy { name } topic { name } } disagreements { id } } }",
      );
      expectRefusal(late, 503, "service_unavailable", /would not be answered within its deadline/);
      expect(firstAskings.load).to.deep.equal({ units: 0, queued: 0 });
      // 2 units: 0.6 s, in time.
      expect((await ask('{ topic(id: "t1") { name } }')).status).to.equal(200);
    });

    it("lets a new statement wait for planning room within its queue's timeout", async () => {
      service = await startService(undefined, {
        schema,
        env: {
          FIRST_ASKING_UNITS: "1",
          FIRST_ASKING_QUEUE_LENGTH: "4",
          FIRST_ASKING_QUEUE_TIMEOUT_MS: "1000",
          NEO4J_PLAN_CACHE_SIZE: "100",
          FIRST_ASKING_MS_PER_UNIT: "1000",
        },
      });
      const { firstAskings } = service;
      const held = await firstAskings.admit("CYPHER 5 RETURN 'being planned'");
      const waiting = ask("{ people(limit: 2) { id name } }");
      while (firstAskings.load.queued === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      held();
      expect((await waiting).status).to.equal(200);
      expect(firstAskings.load).to.deep.equal({ units: 0, queued: 0 });
    });
  });
});
