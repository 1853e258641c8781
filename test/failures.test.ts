import { expect } from "chai";
import neo4j, { type Driver } from "neo4j-driver";
import { hashApiKey } from "../src/auth/api-key.js";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { loadConfig } from "../src/config.js";
import { runServiceToExit } from "./support/service-process.js";
import { connectNeo4j } from "../src/neo4j/connect.js";
import { boundedDriver, Neo4jDidNotAnswer } from "../src/neo4j/deadline.js";
import {
  explainStartupFailure,
  isDatabaseUnavailable,
  isQueryTimeout,
  StartupError,
} from "../src/neo4j/errors.js";
import { queryRunner } from "../src/neo4j/runner.js";
import { loadFixtures } from "./support/fixtures.js";
import {
  startService,
  type RunningService,
  type ServiceOptions,
  type WireResponse,
  buildTestSchema,
} from "./support/service.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";
import { SLEEP_STATEMENT, TROUBLE_TYPEDEFS } from "./support/trouble-typedefs.js";
import { testBoltUri, testDatabase, testDriver, testPassword } from "./support/test-neo4j.js";

/** What must never reach a caller or a log line (contract §3). */
function expectNoInternals(text: string, key: string): void {
  expect(text).not.to.include(key);
  expect(text).not.to.include(hashApiKey(key));
  expect(text).not.to.match(/\bMATCH\b|\bRETURN\b|apoc\.|CALL /); // Cypher
  expect(text).not.to.match(/\n\s+at |\.ts:\d+|\.js:\d+/); // a stack
  expect(text).not.to.match(
    /by zero|bolt:\/\/|ECONNREFUSED|Failed to connect|connection|terminated|timed out/i,
  ); // driver
}

function expectContractError(response: WireResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).to.equal(status);
  expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
  expect(response.body).to.deep.equal({
    errors: [
      {
        message: response.body.errors[0].message,
        extensions: { code, requestId: response.headers.get("x-request-id") },
      },
    ],
  });
}

/**
 * The app over the suite's Neo4j through a proxy the test can take away, with the service's own
 * driver settings; one request has pooled a connection and cached the key. `close` tears down all.
 */
async function serviceBehindProxy(options: ServiceOptions): Promise<{
  proxy: TcpProxy;
  driver: Driver;
  service: RunningService;
  close: () => Promise<void>;
}> {
  const proxy = await startTcpProxy(Number(new URL(testBoltUri()).port));
  const config = loadConfig({ NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`, NEO4J_PASSWORD: testPassword });
  const { driver } = await connectNeo4j(config, () => undefined);
  const service = await startService(driver, { queryTimeoutMs: config.neo4j.queryTimeoutMs, ...options });
  expect((await service.graphql("{ topics(limit: 1) { id } }")).status).to.equal(200);
  return {
    proxy,
    driver,
    service,
    close: async () => {
      await proxy.stop(); // first: a stalled connection would hold the driver's close
      await service.close();
      await driver.close();
    },
  };
}

describe("failures past validation (contract §3: 500, 503, 504)", () => {
  const logged: string[] = [];
  const logError = (line: string) => logged.push(line);
  let service: RunningService;

  before(async () => {
    await loadFixtures();
    const schema = await buildTestSchema(testDriver(), [TROUBLE_TYPEDEFS]);
    // Long enough for Neo4j to plan a new statement on a busy 2-core machine (several hundred ms
    // at times: a 300 ms limit once timed out a plain `topics` read), short next to `slow`'s 60 s.
    service = await startService(undefined, { schema, queryTimeoutMs: 2_000, logError });
  });
  after(async () => {
    await service.close();
  });
  beforeEach(() => {
    logged.length = 0;
  });

  it("answers 504 query_timeout when Neo4j aborts a query at the transaction timeout", async () => {
    const response = await service.graphql("{ slow(ms: 60000) }");
    expectContractError(response, 504, "query_timeout");
    expect(response.body.errors[0].message).to.equal("The query ran past the server's time limit.");
    expect(response.headers.has("ratelimit")).to.equal(true);
    expectNoInternals(JSON.stringify(response.body), service.key);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.match(
      /^request \S+ failed with query_timeout: Neo4jError Neo\.ClientError\.Transaction\./,
    );
    expect(logged[0]).to.include(response.headers.get("x-request-id"));
  });

  it("answers 504 query_timeout when one of several root fields times out", async () => {
    const response = await service.graphql("{ topics(limit: 1) { id } slow(ms: 60000) people { id } }");
    expectContractError(response, 504, "query_timeout");
    expect(logged).to.have.length(1);
  });

  it("answers a field error that is not a stored value's as a masked internal_error beside the data, and logs it", async () => {
    const { status, body, headers } = await service.graphql("{ misfit topics(limit: 1) { id } }");
    expect(status).to.equal(200);
    expect(body.data).to.deep.equal({ misfit: null, topics: [{ id: "t2" }] });
    expect(body.errors).to.deep.equal([
      {
        message: "Something went wrong on our side. Quote the request id when you report it.",
        locations: [{ line: 1, column: 3 }],
        path: ["misfit"],
        extensions: { code: "internal_error", requestId: headers.get("x-request-id") },
      },
    ]);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include(headers.get("x-request-id"));
    expect(logged[0]).to.include("field error at misfit");
  });

  it("answers a masked 500 internal_error with the request id when the query fails, and logs it", async () => {
    const response = await service.graphql("{ broken topics(limit: 1) { id } }");
    expectContractError(response, 500, "internal_error");
    expect(response.body.errors[0].message).to.equal(
      "Something went wrong on our side. Quote the request id when you report it.",
    );
    expectNoInternals(JSON.stringify(response.body), service.key);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include(response.headers.get("x-request-id"));
    expect(logged[0]).to.match(
      /failed with internal_error: Neo4jError Neo\.ClientError\.Statement\.ArithmeticError$/,
    );
    for (const line of logged) expectNoInternals(line, service.key);
  });

  it("leaves nothing internal in the bodies or logs of refusals", async () => {
    const responses = await Promise.all([
      service.graphql("{ nope }"),
      service.graphql("{ topics(limit: 0) { id } }"),
      service.graphql("{ topics { "),
      service.request("/api/v1/graphql", {
        method: "POST",
        headers: { authorization: `Bearer ${service.key}x` },
      }),
    ]);
    for (const response of responses) expectNoInternals(JSON.stringify(response.body), service.key);
    for (const line of logged) expectNoInternals(line, service.key);
  });

  describe("when the database goes away", () => {
    let outage: RunningService;
    let close: () => Promise<void>;

    before(async () => {
      let proxy: TcpProxy;
      ({ proxy, service: outage, close } = await serviceBehindProxy({ logError }));
      await proxy.stop();
    });
    after(() => close());

    it("answers 503 service_unavailable with Retry-After, and logs the driver's code only", async () => {
      const response = await outage.graphql("{ topics(limit: 1) { id } }");
      expectContractError(response, 503, "service_unavailable");
      expect(response.headers.get("retry-after")).to.equal("5");
      expectNoInternals(JSON.stringify(response.body), outage.key);
      expect(logged.join("\n")).to.match(
        /failed with service_unavailable: Neo4jError (ServiceUnavailable|SessionExpired)/,
      );
      for (const line of logged) expectNoInternals(line, outage.key);
    });
  });
});

describe("when Neo4j refuses the service's own credentials (a password rotated under it)", () => {
  const refusedLog: string[] = [];
  let refused: RunningService;
  let driver: Driver;

  before(async () => {
    // A user Neo4j does not know: its failed logins lock out only that name, never the suite's.
    driver = neo4j.driver(testBoltUri(), neo4j.auth.basic("kg-graphql-rotated", "not-the-password"));
    refused = await startService(driver, {
      schema: await buildTestSchema(testDriver()),
      logError: (line) => refusedLog.push(line),
    });
  });
  after(async () => {
    await refused.close();
    await driver.close();
  });

  it("answers 503 service_unavailable with Retry-After, not a 500, and logs Neo4j's code", async () => {
    for (let i = 0; i < 4; i++) {
      // Neo4j says Unauthorized, then, after a few, AuthenticationRateLimit: 503 alike.
      const response = await refused.graphql("{ topics(limit: 1) { id } }");
      expectContractError(response, 503, "service_unavailable");
      expect(response.headers.get("retry-after")).to.equal("5");
      expectNoInternals(JSON.stringify(response.body), refused.key);
    }
    expect(refusedLog.join("\n")).to.match(
      /failed with service_unavailable: Neo4jError Neo\.ClientError\.Security\.(Unauthorized|AuthenticationRateLimit)/,
    );
  });
});

describe("when the database accepts connections but never answers (starting up, hung)", () => {
  let hung: RunningService;
  let close: () => Promise<void>;
  const hungLog: string[] = [];

  before(async () => {
    let proxy: TcpProxy;
    ({ proxy, service: hung, close } = await serviceBehindProxy({ logError: (line) => hungLog.push(line) }));
    proxy.silence();
  });
  after(() => close());

  it("answers 503 service_unavailable within the query timeout, however long the database stays silent", async () => {
    const started = performance.now();
    const response = await hung.graphql("{ topics(limit: 1) { id } }");
    const elapsed = performance.now() - started;
    expectContractError(response, 503, "service_unavailable");
    expect(response.headers.get("retry-after")).to.equal("5");
    // Contract §2's deadline is the query timeout (10 s by default) plus a few seconds; the
    // driver gives up waiting for a connection after NEO4J_CONNECTION_TIMEOUT_MS (2 s).
    expect(elapsed).to.be.below(10_000);
    expect(hungLog.join("\n")).to.match(/failed with service_unavailable: Neo4jError/);
  });
});

describe("when the database stops answering on an open connection (restarting, hung)", function () {
  this.timeout(60_000);
  const stalledLog: string[] = [];
  let stalled: RunningService;
  let driver: Driver;
  let close: () => Promise<void>;

  before(async () => {
    let proxy: TcpProxy;
    // A 1 s query timeout: the deadline is 3 s.
    ({
      proxy,
      driver,
      service: stalled,
      close,
    } = await serviceBehindProxy({
      queryTimeoutMs: 1_000,
      logError: (line) => stalledLog.push(line),
    }));
    proxy.stall();
  });
  after(() => close());

  it("answers 503 service_unavailable at the query timeout plus the margin, not whenever Neo4j answers", async () => {
    const response = await stalled.graphql("{ topics(limit: 1) { id } }");
    expectContractError(response, 503, "service_unavailable");
    expect(response.headers.get("retry-after")).to.equal("5");
    expect(stalledLog.join("\n")).to.match(
      /failed with service_unavailable: Neo4jDidNotAnswer: Neo4j did not answer within 3000 ms\./,
    );
  });

  it("answers every request of one new statement within its own deadline, not one after another", async () => {
    // A dashboard's panels send the same new document at once: all but one wait for that one's
    // first asking, which Neo4j never answers. Each is answered at its own deadline (3 s), not
    // 2 s after the one before it gave up.
    const document = "{ customers(limit: 3) { id name health } }";
    const timed = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const started = performance.now();
        const response = await stalled.graphql(document);
        return { response, ms: performance.now() - started };
      }),
    );
    for (const { response } of timed) expectContractError(response, 503, "service_unavailable");
    expect(Math.max(...timed.map(({ ms }) => ms))).to.be.below(5_000);
  });

  it("gives up a key lookup on the silent connection too, as unavailable", async () => {
    const keys = new ApiKeyStore(driver, testDatabase, 500);
    const lookup = await keys.findByHash("0".repeat(64)).then(
      () => "answered",
      (error: unknown) => (error instanceof Error ? error.name : "thrown"),
    );
    expect(lookup).to.equal("Neo4jDidNotAnswer");
  });
});

describe("start-up against a database that stops answering once connected (hung)", function () {
  this.timeout(60_000);

  it("bounds the start-up's own queries too (the version check, the warm-up): no start-up hangs", async () => {
    const proxy = await startTcpProxy(Number(new URL(testBoltUri()).port));
    const driver = neo4j.driver(
      `bolt://127.0.0.1:${String(proxy.port)}`,
      neo4j.auth.basic("neo4j", testPassword),
    );
    try {
      await driver.executeQuery("RETURN 1"); // a connection pooled, idle
      proxy.stall();
      const outcome = await boundedDriver(driver, 500)
        .executeQuery("RETURN 1")
        .then(
          () => "answered",
          (error: unknown) => error,
        );
      expect(outcome).to.be.instanceOf(Neo4jDidNotAnswer);
      const explained = explainStartupFailure(outcome, {
        uri: "bolt://db:7687",
        user: "neo4j",
        database: "neo4j",
      });
      expect(explained).to.be.instanceOf(StartupError);
      expect(explained.message).to.equal(
        "Neo4j at bolt://db:7687 did not answer in time (Neo4j did not answer within 2500 ms). Check that the database has finished starting, then start kg-graphql again.",
      );
    } finally {
      await proxy.stop();
      await driver.close();
    }
  });
});

describe("boundedDriver and a caller's own abort signal", function () {
  this.timeout(60_000);

  it("still aborts the query when the caller's signal does, not only at the deadline", async () => {
    const started = performance.now();
    const outcome = await boundedDriver(testDriver(), 30_000)
      .executeQuery(
        "UNWIND range(1, 1000000000) AS x WITH x WHERE x < 0 RETURN count(x) AS none",
        {},
        { database: testDatabase, signal: AbortSignal.timeout(200) },
      )
      .then(
        () => "answered",
        (error: unknown) => (error instanceof Error ? error.message : "thrown"),
      );
    expect(outcome).to.match(/terminated/);
    expect(performance.now() - started).to.be.below(10_000);
  });
});

describe("a request's deadline counts what it waited before its query (contract §2)", () => {
  const settings = {
    database: testDatabase,
    timeoutMs: 10_000,
    observe: () => undefined,
  };

  it("gives the query what is left of the timeout once the margin is kept", async () => {
    // 9 s of the request's 10 s timeout already spent: Neo4j aborts the query after about 1 s.
    const runner = queryRunner(testDriver(), settings, {}, performance.now() - 9_000);
    const started = performance.now();
    const outcome = await runner.run(SLEEP_STATEMENT, { ms: neo4j.int(60_000) }).then(
      () => "answered",
      (error: unknown) =>
        isQueryTimeout(error) ? "timed out" : isDatabaseUnavailable(error) ? "given up" : String(error),
    );
    // Neo4j aborts it (504), or, its transaction monitor checking every 2 s, the deadline 3 s
    // away gives up first (503): either way after seconds, not the whole 10 s timeout.
    expect(outcome).to.be.oneOf(["timed out", "given up"]);
    expect(performance.now() - started).to.be.below(6_000);
  });

  it("sends no query with no more than the margin left: 503 at once", async () => {
    const observed: string[] = [];
    const runner = queryRunner(
      testDriver(),
      { ...settings, observe: (_seconds, outcome) => observed.push(outcome) },
      {},
      performance.now() - 10_500,
    );
    const error = await runner.run("RETURN 1").then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(Neo4jDidNotAnswer);
    expect((error as Error).message).to.equal(
      "The request's 12000 ms passed before its query could be sent to Neo4j.",
    );
    expect(isDatabaseUnavailable(error)).to.equal(true);
    expect(observed).to.deep.equal([]);
  });
});

describe("start-up failures say which setting to check, in one line", function () {
  this.timeout(60_000);

  it("Neo4j not reachable: names NEO4J_URI, exits 1, no stack", async () => {
    const { code, output } = await runServiceToExit({ NEO4J_URI: "bolt://127.0.0.1:1", LOG_FORMAT: "json" });
    expect(code).to.equal(1);
    expect(output).to.include(
      "Neo4j is not reachable at bolt://127.0.0.1:1 (Failed to connect to server). Check NEO4J_URI and that the database is running.",
    );
    expect(output).not.to.match(/\n\s+at /);
  });

  it("a database that does not exist: names NEO4J_DATABASE", async () => {
    const { code, output } = await runServiceToExit({ NEO4J_DATABASE: "nosuchdb", LOG_FORMAT: "json" });
    expect(code).to.equal(1);
    expect(output).to.include(`Neo4j at ${testBoltUri()} has no database "nosuchdb". Check NEO4J_DATABASE.`);
    expect(output).not.to.match(/\n\s+at /);
  });
});
