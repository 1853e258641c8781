// Issue 22, item 4: known documents never plan cold in front of a user. The service asks Neo4j to
// EXPLAIN the Cypher of the keys' trusted documents and of the persisted queries used last, at
// start-up and when Neo4j answers again after an outage; a request for one of them then sends
// Neo4j a text it has already planned.
import { expect } from "chai";
import neo4j, { type Driver } from "neo4j-driver";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { sha256Hex } from "../src/documents/document-hash.js";
import { MemoryPersistedQueryStore } from "../src/documents/persisted-query-store.js";
import { translateDocument } from "../src/graphql/translate.js";
import { queriesSent } from "../src/neo4j/combine.js";
import { overriding } from "../src/neo4j/deadline.js";
import { FirstAskings } from "../src/overload/first-askings.js";
import {
  cypherToPlan,
  preplanRound,
  WARM_UP_RUNS,
  startPreplanning,
  type PreplanDependencies,
} from "../src/planning/preplan.js";
import { LastValues } from "../src/planning/last-values.js";
import { countingDriver } from "./support/counting-driver.js";
import { ingest, loadFixtures } from "./support/fixtures.js";
import { buildTestSchema, startService, type RunningService } from "./support/service.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { testBoltUri, testDatabase, testDriver, testPassword } from "./support/test-neo4j.js";

const SETTINGS = { maxDocuments: 200, budgetMs: 10_000, checkIntervalMs: 100 };

/** A driver whose `executeQuery` calls are recorded (pre-planning's EXPLAINs), passing them on. */
function explainRecording(driver: Driver): { driver: Driver; explained: string[] } {
  const explained: string[] = [];
  return {
    explained,
    driver: overriding(driver, {
      executeQuery: (text: string, ...rest: unknown[]) => {
        if (text.startsWith("EXPLAIN ")) explained.push(text.slice("EXPLAIN ".length));
        return (driver.executeQuery as (...args: unknown[]) => unknown)(text, ...rest);
      },
    }),
  };
}

const until = async (condition: () => boolean, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("pre-planning of known documents (issue 22)", function () {
  this.timeout(60_000);
  // A dashboard's document, with a required variable: its Cypher depends on which arguments are
  // given, never on their values, so a stand-in plans the text every caller's request sends.
  const dashboard = `query Dashboard($topic: ID!, $status: DecisionStatus) {
    topic(id: $topic) { name }
    decisionsConnection(topicId: $topic, status: $status, first: 3) { totalCount nodes { id title } }
  }`;
  const persisted = '{ decisions(limit: 2, since: "2024-01-01") { id title status } }';
  const invalid = "{ decisions { noSuchField } }";
  let keys: ApiKeyStore;
  let restricted: { key: string; id: string };
  let service: RunningService;
  let counting: ReturnType<typeof countingDriver>;
  const logged: string[] = [];

  before(async () => {
    await loadFixtures();
    counting = countingDriver(testDriver());
    keys = new ApiKeyStore(testDriver(), testDatabase);
    const { key, record } = await keys.create("pre-planning test", ["read"]);
    restricted = { key, id: record.id };
    await keys.trust(record.id, { [sha256Hex(dashboard)]: dashboard, [sha256Hex(invalid)]: invalid });
    service = await startService(counting.driver);
  });
  after(async () => {
    await keys.revoke(restricted.id);
    await service.close();
  });

  function dependencies(
    driver: Driver,
    remembered = new MemoryPersistedQueryStore(),
  ): Promise<PreplanDependencies> {
    return buildTestSchema().then((schema) => ({
      schema,
      driver,
      database: testDatabase,
      documents: {
        trusted: (limit) => keys.everyTrustedDocument(limit),
        recentPersisted: (limit) => remembered.recent(limit),
      },
      settings: SETTINGS,
      // The service's own: a document of several root fields is sent combined once its combination is planned.
      firstAskings: service.firstAskings,
      log: (line) => logged.push(line),
      count: () => undefined,
    }));
  }

  it("EXPLAINs each known document's Cypher; the first request for it sends exactly that text", async () => {
    const remembered = new MemoryPersistedQueryStore();
    await remembered.remember(sha256Hex(persisted), persisted);
    const recording = explainRecording(testDriver());
    const outcomes = await preplanRound(await dependencies(recording.driver, remembered));
    // The invalid trusted document is skipped; other tests' keys may hold trusted documents too.
    expect(outcomes.failed).to.equal(0);
    expect(outcomes.skipped).to.be.at.least(1);

    counting.reset();
    expect((await service.graphql(dashboard, { topic: "t1" })).status).to.equal(200);
    expect(recording.explained).to.include(counting.recorded()[0]?.text);
    // Planned with its optional `$status` given too, as a dashboard that sends it asks.
    counting.reset();
    expect((await service.graphql(dashboard, { topic: "t1", status: "DECIDED" })).status).to.equal(200);
    expect(recording.explained).to.include(counting.recorded()[0]?.text);

    counting.reset();
    expect((await service.graphql(persisted)).status).to.equal(200);
    expect(recording.explained).to.include(counting.recorded()[0]?.text);
  });

  it("a document whose Cypher Neo4j refuses is counted failed and the others are still planned", async () => {
    const recording = explainRecording(testDriver());
    let refused = false;
    const remembered = new MemoryPersistedQueryStore();
    await remembered.remember(sha256Hex(persisted), persisted);
    const deps = await dependencies(
      overriding(recording.driver, {
        executeQuery: (text: string, ...rest: unknown[]) => {
          if (text.startsWith("EXPLAIN ") && !refused) {
            refused = true;
            return Promise.reject(new Error("Neo4j refused this one"));
          }
          return (recording.driver.executeQuery as (...args: unknown[]) => unknown)(text, ...rest);
        },
      }),
      remembered,
    );
    const outcomes = await preplanRound(deps);
    expect(outcomes.failed).to.be.at.least(1);
    expect(outcomes.planned).to.be.at.least(1);
  });

  it("plans again, the first askings forgetting what was planned, when Neo4j's plan caches start empty; not after an outage that leaves them", async () => {
    const proxy = await startTcpProxy(Number(new URL(testBoltUri()).port));
    const driver = neo4j.driver(
      `bolt://127.0.0.1:${String(proxy.port)}`,
      neo4j.auth.basic("neo4j", testPassword),
      {
        connectionAcquisitionTimeout: 1_000,
        connectionTimeout: 1_000,
        maxTransactionRetryTime: 0,
      },
    );
    const recording = explainRecording(driver);
    const firstAskings = new FirstAskings({
      units: 16,
      queueLength: 4,
      queueTimeoutMs: 500,
      remembered: 100,
      msPerUnit: 1_000,
    });
    const preplanning = startPreplanning({ ...(await dependencies(recording.driver)), firstAskings });
    const index = "kg_test_plan_epoch";
    try {
      const rounds = () => logged.filter((line) => line.startsWith("Pre-planned"));
      const before = rounds().length;
      await until(() => rounds().length > before, "the first round");
      const firstRound = new Set(recording.explained);
      expect(firstRound.size).to.be.at.least(2);
      const planned = () => [...firstRound].filter((text) => firstAskings.isPlanned(text)).length;
      expect(planned(), "each text the round planned is known as planned").to.equal(firstRound.size);

      // An outage that ends with the same server: its plan caches are intact.
      await proxy.stop();
      const pause = () => new Promise((resolve) => setTimeout(resolve, 10 * SETTINGS.checkIntervalMs));
      await pause();
      await preplanning.idle();
      const away = rounds().length;
      await proxy.resume();
      await pause();
      expect(rounds().length, "no round after an outage that left the plan caches").to.equal(away);
      expect(planned()).to.equal(firstRound.size);

      // A new index empties the plans that could use it.
      const atChange = recording.explained.length;
      await ingest(`CREATE INDEX ${index} IF NOT EXISTS FOR (n:Topic) ON (n.canonicalAnswer)`);
      await ingest("CALL db.awaitIndexes(60)");
      await until(() => rounds().length > away, "a round after the indexes changed");
      await preplanning.idle();
      expect(logged).to.include(
        "Neo4j's plan caches start empty (it restarted, or its indexes changed): planning the known documents again.",
      );
      expect(rounds().at(-1)).to.include(" 0 failed");
      expect(new Set(recording.explained.slice(atChange))).to.deep.equal(firstRound);
      expect(planned()).to.equal(firstRound.size);
    } finally {
      preplanning.stop();
      await ingest(`DROP INDEX ${index} IF EXISTS`);
      await proxy.stop();
      await driver.close();
    }
  });

  it("after Neo4j's plan caches start empty, runs a known statement again with the values it was last answered with; one never asked is only planned", async () => {
    const sent: { text: string; parameters: Record<string, unknown> }[] = [];
    const driver = overriding(testDriver(), {
      executeQuery: (text: string, parameters: Record<string, unknown>, ...rest: unknown[]) => {
        sent.push({ text, parameters });
        return (testDriver().executeQuery as (...args: unknown[]) => unknown)(text, parameters, ...rest);
      },
    });
    const [alone, every] = ((await cypherToPlan(await buildTestSchema(), dashboard)) ?? []).map(
      (query) => query.text,
    );
    if (alone === undefined || every === undefined) throw new Error("the dashboard plans two shapes");
    const runs = (text: string) => sent.filter((query) => query.text === text);
    const explains = (text: string) => sent.filter((query) => query.text === `EXPLAIN ${text}`);
    const running = await startService(driver, {
      env: { PREPLAN_MAX_DOCUMENTS: "200", PREPLAN_CHECK_INTERVAL_MS: "100" },
    });
    const index = "kg_test_warm_up";
    try {
      await until(() => explains(every).length > 0, "the first round");
      // The first round knew no values: it only planned.
      expect(runs(alone)).to.deep.equal([]);
      expect((await running.graphql(dashboard, { topic: "t1" })).status).to.equal(200);

      const atChange = sent.length;
      await ingest(`CREATE INDEX ${index} IF NOT EXISTS FOR (n:Topic) ON (n.canonicalAnswer)`);
      await ingest("CALL db.awaitIndexes(60)");
      await until(() => explains(every).length > 1, "a round after the indexes changed");
      // Run, not planned, and WARM_UP_RUNS times (the index's creation may start a second round).
      await until(() => runs(alone).length >= WARM_UP_RUNS, "the round's warm-up runs");
      const again = sent.slice(atChange);
      const ran = again.filter((query) => query.text === alone);
      expect(ran.length).to.be.at.least(WARM_UP_RUNS);
      for (const run of ran) expect(JSON.stringify(run.parameters)).to.include('"t1"');
      expect(again.filter((query) => query.text === `EXPLAIN ${alone}`)).to.deep.equal([]);
      // Never asked with every variable: planned, not run.
      expect(again.filter((query) => query.text === every)).to.deep.equal([]);
    } finally {
      await ingest(`DROP INDEX ${index} IF EXISTS`);
      await running.close();
    }
  });

  it("runs each statement it has values for WARM_UP_RUNS times, the runs after the first round by round", async () => {
    const schema = await buildTestSchema();
    const remembered = new MemoryPersistedQueryStore();
    await remembered.remember(sha256Hex(persisted), persisted);
    const [alone] = (await cypherToPlan(schema, dashboard)) ?? [];
    const [list] = (await cypherToPlan(schema, persisted)) ?? [];
    if (alone === undefined || list === undefined) throw new Error("both documents plan");
    const lastValues = new LastValues();
    for (const query of [alone, list]) {
      lastValues.expect(query.text);
      lastValues.answered(query.text, query.parameters);
    }
    const ran: string[] = [];
    const driver = overriding(testDriver(), {
      executeQuery: (text: string, ...rest: unknown[]) => {
        if (!text.startsWith("EXPLAIN "))
          ran.push(text === alone.text ? "dashboard" : text === list.text ? "list" : text);
        return (testDriver().executeQuery as (...args: unknown[]) => unknown)(text, ...rest);
      },
    });
    const outcomes = await preplanRound({ ...(await dependencies(driver, remembered)), lastValues });
    expect(outcomes.failed).to.equal(0);
    expect(WARM_UP_RUNS).to.be.above(1);
    // Each once as its document is planned, then the others round by round.
    expect(ran).to.deep.equal(Array.from({ length: WARM_UP_RUNS }, () => ["dashboard", "list"]).flat());
    expect(logged.at(-1)).to.match(
      /; 2 statement\(s\) run again with their last values, up to \d+ times each\)\.$/,
    );
  });

  it("leaves out documents it cannot plan without a caller: several operations, invalid ones", async () => {
    const schema = await buildTestSchema();
    expect(await cypherToPlan(schema, "query A { topics { id } } query B { topics { name } }")).to.equal(
      undefined,
    );
    expect(await cypherToPlan(schema, invalid)).to.equal(undefined);
    expect(await cypherToPlan(schema, "{ topics(")).to.equal(undefined);
    expect((await cypherToPlan(schema, dashboard))?.[0]?.text).to.match(/\$/);
  });

  it("plans a document with its required variables alone and with every variable given", async () => {
    const schema = await buildTestSchema();
    const ranged = `query Range($since: Date, $until: Date, $after: String, $topic: ID!) {
      decisionsConnection(topicId: $topic, since: $since, until: $until, after: $after, first: 5) { nodes { id } }
    }`;
    const sent = async (variables: Record<string, unknown>) =>
      queriesSent(await translateDocument(schema, ranged, variables)).map((query) => query.text);
    const planned = ((await cypherToPlan(schema, ranged)) ?? []).map((query) => query.text);
    const alone = await sent({ topic: "t1" });
    const every = await sent({ topic: "t1", since: "2024-01-01", until: "2024-06-30", after: "WyJ4Il0" });
    expect(alone).to.not.deep.equal(every);
    expect(planned).to.deep.equal([...alone, ...every]);
    // Some optional variables given and not others: a shape planned on its first use.
    expect(planned).to.not.include.members(await sent({ topic: "t1", since: "2024-01-01" }));
  });
});
