import { expect } from "chai";
import { ApiError } from "../src/errors/catalogue.js";
import { combineQueries, type CypherQuery } from "../src/neo4j/combine.js";
import { queryRunner } from "../src/neo4j/runner.js";
import { FirstAskings, planningUnits, PlanningRefused } from "../src/overload/first-askings.js";
import { planningRefusal } from "../src/overload/stage.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

/** A text of `subqueries` subqueries: `units` of planning room, one more than its subqueries. */
const text = (name: string, subqueries = 0) =>
  `CYPHER 5 MATCH (${name}) RETURN ${Array.from({ length: subqueries }, () => "COLLECT { RETURN 1 }").join(", ") || "1"}`;

const settings = { units: 4, queueLength: 2, queueTimeoutMs: 200, remembered: 10, msPerUnit: 20 };

describe("first askings admitted like work (issue 32, contract §12)", () => {
  it("counts a text's planning units: its subqueries and the query itself", () => {
    expect(planningUnits("MATCH (n) RETURN n")).to.equal(1);
    expect(
      planningUnits("CALL { MATCH (t) RETURN t } RETURN COLLECT { MATCH (d) RETURN d }, COUNT { (x) }"),
    ).to.equal(4);
    expect(planningUnits("CALL (a, b) { RETURN 1 AS x } RETURN EXISTS { MATCH (n) }")).to.equal(3);
  });

  it("says a new text would be late when only Neo4j's current pace makes it miss the deadline", () => {
    const gate = new FirstAskings(settings);
    // One slow first asking (a JVM just started) is not a slow Neo4j: nothing is refused for it.
    gate.noteAnswered(text("b", 0), 5_000);
    expect(gate.wouldBeLate(text("a", 49), 2_000)).to.equal(false);
    // Idle (20 ms a unit): 50 units are 1 s, within 2 s; 120 units would miss even idle: sent.
    expect(gate.wouldBeLate(text("a", 49), 2_000)).to.equal(false);
    expect(gate.wouldBeLate(text("a", 119), 2_000)).to.equal(false);
    // Busy (about 200 ms a unit lately): the 50 units would take 10 s; 5 units 1 s, still in time.
    for (let i = 0; i < 40; i++) gate.noteAnswered(text("b", 2), 600);
    expect(gate.wouldBeLate(text("a", 49), 2_000)).to.equal(true);
    expect(gate.wouldBeLate(text("a", 4), 2_000)).to.equal(false);
    expect(gate.wouldBeLate(text("a", 119), 2_000)).to.equal(false);
    // A text Neo4j has planned is never late for planning.
    gate.notePlanned(text("a", 49));
    expect(gate.wouldBeLate(text("a", 49), 2_000)).to.equal(false);
    // One fast first asking among the last eight: Neo4j is not slow throughout; sent.
    gate.noteAnswered(text("b", 2), 30);
    expect(gate.wouldBeLate(text("a", 48), 2_000)).to.equal(false);
    for (let i = 0; i < 7; i++) gate.noteAnswered(text("b", 2), 600);
    expect(gate.wouldBeLate(text("a", 48), 2_000)).to.equal(false);
    gate.noteAnswered(text("b", 2), 600);
    expect(gate.wouldBeLate(text("a", 48), 2_000)).to.equal(true);
    // Refused as overload: 503 with Retry-After, saying why.
    const refused = planningRefusal(new PlanningRefused(settings.queueTimeoutMs, true));
    expect([refused.status, refused.code, refused.headers["Retry-After"]]).to.deep.equal([
      503,
      "service_unavailable",
      "1",
    ]);
    expect(refused.message).to.match(/would not be answered within its deadline\. Try again in 1 s\.$/);
  });

  it("plans the same new text once: asked again meanwhile, it waits for the first answer, then passes as planned", async () => {
    const gate = new FirstAskings(settings);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const first = await gate.admit(text("a", 1));
    let passed = false;
    const again = gate.admit(text("a", 1)).then((release) => {
      passed = true;
      return release;
    });
    await tick();
    // It takes no room and waits in no queue: the first asking's room is all there is.
    expect(gate.load).to.deep.equal({ units: 2, queued: 0 });
    first(); // its estimated planning time is over, but it is not answered yet
    await tick();
    expect(passed).to.equal(false);
    gate.notePlanned(text("a", 1));
    gate.noteSettled(text("a", 1));
    (await again)();
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });

    // A first asking that failed: the text waiting is admitted like any new text.
    const failing = await gate.admit(text("b", 1));
    const next = gate.admit(text("b", 1));
    failing();
    gate.noteSettled(text("b", 1));
    const release = await next;
    expect(gate.load).to.deep.equal({ units: 2, queued: 0 });
    release();
  });

  it("admits a new text when its units fit, and a text Neo4j has planned at once, whatever is in flight", async () => {
    const gate = new FirstAskings(settings);
    const big = await gate.admit(text("a", 3));
    expect(gate.load).to.deep.equal({ units: 4, queued: 0 });
    expect(gate.isPlanned(text("a", 3))).to.equal(false);
    big();
    gate.notePlanned(text("a", 3));
    expect(gate.isPlanned(text("a", 3))).to.equal(true);
    const blocker = await gate.admit(text("b", 3));
    // Planned before: no wait, no room taken.
    const again = await gate.admit(text("a", 3));
    expect(gate.load).to.deep.equal({ units: 4, queued: 0 });
    again();
    blocker();
    expect(gate.isPlanned(text("b", 3))).to.equal(false);
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });
  });

  it("queues new texts first come, first served, and grants them as room frees", async () => {
    const gate = new FirstAskings(settings);
    const first = await gate.admit(text("a", 2));
    const order: string[] = [];
    const second = gate.admit(text("b", 1)).then((release) => {
      order.push("b");
      return release;
    });
    const third = gate.admit(text("c")).then((release) => {
      order.push("c");
      return release;
    });
    expect(gate.load).to.deep.equal({ units: 3, queued: 2 });
    first();
    (await second)();
    (await third)();
    expect(order).to.deep.equal(["b", "c"]);
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });
  });

  it("grants room to the waiting text whose key has the fewest new texts in flight, the oldest among equals, never passing over one that does not fit yet", async () => {
    const gate = new FirstAskings({ ...settings, queueLength: 4 });
    const order: string[] = [];
    const asked = (name: string, key: string, subqueries = 0) =>
      gate.admit(text(name, subqueries), undefined, key).then((release) => {
        order.push(name);
        return release;
      });
    // Key A's large text holds all four units; A queues two more, then key B one.
    const held = await asked("a0", "A", 3);
    const waiting = [asked("a1", "A"), asked("a2", "A"), asked("b1", "B")];
    held();
    const granted = await Promise.all(waiting);
    // With a0 given back, A and B have none in flight: a1, the oldest; then B's, before A's second.
    expect(order).to.deep.equal(["a0", "a1", "b1", "a2"]);
    for (const release of granted) release();

    // A text that does not fit yet is not passed over by a smaller one behind it.
    order.length = 0;
    const small = await asked("c0", "C");
    const large = asked("d0", "D", 3);
    const after = asked("e0", "E");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).to.deep.equal(["c0"]);
    small();
    (await large)();
    (await after)();
    expect(order).to.deep.equal(["c0", "d0", "e0"]);
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });
  });

  it("refuses a new text at once when the queue is full, and after the queue's timeout", async () => {
    const gate = new FirstAskings(settings);
    const held = await gate.admit(text("a", 10));
    const waiting = [gate.admit(text("b")), gate.admit(text("c"))];
    await gate.admit(text("d")).then(
      () => expect.fail("admitted past a full queue"),
      (error: unknown) => expect(error).to.be.instanceOf(PlanningRefused),
    );
    const started = performance.now();
    for (const wait of waiting)
      await wait.then(
        () => expect.fail("admitted while the room was held"),
        (error: unknown) => expect(error).to.be.instanceOf(PlanningRefused),
      );
    expect(performance.now() - started).to.be.within(150, 1_000);
    expect(gate.load).to.deep.equal({ units: 4, queued: 0 });
    held();
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });
  });

  it("forgets every text when Neo4j's plan caches start empty, and remembers at most its plan cache", () => {
    const gate = new FirstAskings({ ...settings, remembered: 2 });
    for (const name of ["a", "b", "c"]) gate.notePlanned(text(name));
    expect(["a", "b", "c"].map((name) => gate.isPlanned(text(name)))).to.deep.equal([false, true, true]);
    gate.forgetAll();
    expect(gate.isPlanned(text("c"))).to.equal(false);
  });

  it("counts each combination's askings apart, remembering at most its plan cache's worth", () => {
    const gate = new FirstAskings({ ...settings, remembered: 2 });
    expect([1, 2, 3].map(() => gate.noteAskedApart(text("a")))).to.deep.equal([1, 2, 3]);
    gate.noteAskedApart(text("b"));
    gate.noteAskedApart(text("c"));
    expect(gate.noteAskedApart(text("a")), "a was the least recent of three").to.equal(1);
  });

  it("plans one text at a time in the background, only while nothing new is planned or waiting, taking no room", async () => {
    const gate = new FirstAskings(settings);
    const held = await gate.admit(text("a"));
    let planned = 0;
    const plan = () => {
      planned++;
      return Promise.resolve();
    };
    gate.planInBackground(text("b"), plan);
    expect(planned, "room is taken").to.equal(0);
    held();
    let finish: () => void = () => undefined;
    gate.planInBackground(text("b"), () => {
      planned++;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(gate.load).to.deep.equal({ units: 0, queued: 0 });
    gate.planInBackground(text("c"), plan);
    expect(planned, "one at a time").to.equal(1);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.isPlanned(text("b"))).to.equal(true);
    gate.planInBackground(text("c"), () => Promise.reject(new Error("refused")));
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.isPlanned(text("c"))).to.equal(false);
    gate.planInBackground(text("b"), plan);
    expect(planned, "b is planned already").to.equal(1);
  });

  it("a text planned in the background is being asked meanwhile: the same text waits for it", async () => {
    const gate = new FirstAskings(settings);
    let finish: () => void = () => undefined;
    gate.planInBackground(text("b"), () => new Promise<void>((resolve) => (finish = resolve)));
    const long = { alone: 1_000, together: 1_000 };
    expect(gate.beingAsked(text("c"), long)).to.equal(undefined);
    const events: string[] = [];
    const waited = gate.beingAsked(text("b"), long)?.then(() => events.push("settled"));
    const admitted = gate.admit(text("b")).then((release) => {
      events.push("admitted");
      release();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).to.deep.equal([]);
    expect(gate.load, "it takes no room").to.deep.equal({ units: 0, queued: 0 });
    finish();
    await Promise.all([waited, admitted]);
    expect(events.sort()).to.deep.equal(["admitted", "settled"]);
    expect(gate.isPlanned(text("b"))).to.equal(true);
    expect(gate.beingAsked(text("b"), long)).to.equal(undefined);
    // A planning that takes longer is waited for no longer than asked: by the first waiter as
    // one alone, by those waiting beside it as one of several.
    gate.planInBackground(text("c"), () => new Promise(() => undefined));
    const started = performance.now();
    const times: number[] = [];
    const wait = () =>
      gate
        .beingAsked(text("c"), { alone: 50, together: 1_000 })
        ?.then(() => times.push(performance.now() - started));
    await Promise.all([wait(), wait(), wait()]);
    expect(times[0]).to.be.within(40, 900);
    expect(
      times.slice(1).every((ms) => ms >= 990),
      String(times),
    ).to.equal(true);
    // Once they are gone, the next is alone again.
    const next = performance.now();
    await wait();
    expect(performance.now() - next).to.be.below(900);
  });

  it("leaves the queue when the caller is gone", async () => {
    const gate = new FirstAskings(settings);
    const held = await gate.admit(text("a", 10));
    const gone = new AbortController();
    const waiting = gate.admit(text("b"), gone.signal);
    gone.abort();
    await waiting.then(
      () => expect.fail("admitted"),
      (error: unknown) => expect(error).to.be.instanceOf(PlanningRefused),
    );
    expect(gate.load.queued).to.equal(0);
    held();
  });

  it("stops waiting for another request's asking of the same text when the caller's deadline passes", async () => {
    const gate = new FirstAskings(settings);
    const first = await gate.admit(text("a", 1));
    const deadline = new AbortController();
    const waiting = gate.admit(text("a", 1), deadline.signal);
    deadline.abort();
    await waiting.then(
      () => expect.fail("admitted"),
      (error: unknown) => expect(error).to.be.instanceOf(PlanningRefused),
    );
    // The first asking is still the one being asked; its room is its own.
    expect(gate.load).to.deep.equal({ units: 2, queued: 0 });
    const gone = new AbortController();
    gone.abort();
    await gate.admit(text("a", 1), gone.signal).then(
      () => expect.fail("admitted"),
      (error: unknown) => expect(error).to.be.instanceOf(PlanningRefused),
    );
    first();
    gate.noteSettled(text("a", 1));
  });
});

describe("a document whose combination Neo4j is planning in the background (src/neo4j/runner.ts)", function () {
  this.timeout(30_000);
  const parts: CypherQuery[] = [1, 2].map((n) => ({
    text: `CYPHER 5\nUNWIND [${String(n)}] AS x\nRETURN x AS this`,
    parameters: {},
  }));
  const combination = combineQueries(parts);

  /**
   * The root fields asked through one request's runner in one turn (a 10 s timeout unless given,
   * started `spentMs` ago); the statements it sent, in order, into `sent`.
   */
  async function ask(
    firstAskings: FirstAskings,
    sent: string[],
    {
      gone,
      timeoutMs = 10_000,
      spentMs = 0,
    }: { gone?: AbortSignal; timeoutMs?: number; spentMs?: number } = {},
  ): Promise<number[]> {
    const runner = queryRunner(
      testDriver(),
      {
        database: testDatabase,
        timeoutMs,
        observe: () => undefined,
        firstAskings,
        answered: (text) => sent.push(text),
      },
      {},
      performance.now() - spentMs,
      gone,
    );
    const results = await Promise.all(parts.map((part) => runner.run(part.text)));
    return results.map((result) => Number(result.records[0]?.get("this")));
  }

  it("waits for that planning, then sends the combination: its parts are not asked apart meanwhile", async () => {
    const firstAskings = new FirstAskings(settings);
    for (const part of parts) firstAskings.notePlanned(part.text);
    let finish: () => void = () => undefined;
    firstAskings.planInBackground(
      combination?.text ?? "",
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    const sent: string[] = [];
    const answered = ask(firstAskings, sent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent, "nothing sent while the combination is planned").to.deep.equal([]);
    finish();
    expect(await answered).to.deep.equal([1, 2]);
    expect(sent).to.deep.equal([combination?.text]);
  });

  it("asks the parts apart once the planning queue's timeout has passed", async () => {
    const firstAskings = new FirstAskings(settings);
    for (const part of parts) firstAskings.notePlanned(part.text);
    firstAskings.planInBackground(combination?.text ?? "", () => new Promise(() => undefined));
    const sent: string[] = [];
    const started = performance.now();
    expect(await ask(firstAskings, sent)).to.deep.equal([1, 2]);
    expect(performance.now() - started).to.be.within(settings.queueTimeoutMs - 10, 5_000);
    expect([...sent].sort()).to.deep.equal(parts.map((part) => part.text).sort());
  });

  it("sends nothing once the caller has gone, and stops waiting then", async () => {
    const firstAskings = new FirstAskings(settings);
    for (const part of parts) firstAskings.notePlanned(part.text);
    firstAskings.planInBackground(combination?.text ?? "", () => new Promise(() => undefined));
    const sent: string[] = [];
    const gone = new AbortController();
    const started = performance.now();
    const outcome = ask(firstAskings, sent, { gone: gone.signal }).then(
      () => "answered",
      (error: unknown) =>
        error instanceof ApiError ? `${String(error.status)} ${error.message}` : String(error),
    );
    setTimeout(() => {
      gone.abort();
    }, 50);
    expect(await outcome).to.equal("503 The caller hung up before the request's query was sent to Neo4j.");
    expect(performance.now() - started).to.be.below(2_000);
    expect(sent).to.deep.equal([]);
  });
});

describe("new statements of several keys through their requests' runners (src/neo4j/runner.ts)", function () {
  this.timeout(30_000);

  it("gives planning room to the request whose key has the fewest new statements in flight: a busy key's statement waits behind another key's", async () => {
    const firstAskings = new FirstAskings({ ...settings, queueTimeoutMs: 10_000 });
    // Key A holds the four units with two new statements of its own.
    const held = [
      await firstAskings.admit(text("h", 1), undefined, "A"),
      await firstAskings.admit(text("i", 1), undefined, "A"),
    ];
    const sent: string[] = [];
    const runnerOf = (keyId: string) =>
      queryRunner(
        testDriver(),
        {
          database: testDatabase,
          timeoutMs: 10_000,
          observe: () => undefined,
          firstAskings,
          answered: (answered) => sent.push(answered),
        },
        { keyId },
      );
    // Each takes two units, as A's do. A asks first, then B.
    const statement = (name: string) => `CYPHER 5 UNWIND [1] AS ${name} RETURN COLLECT { RETURN 1 } AS p`;
    const [fromA, fromB] = [statement("a"), statement("b")];
    const asked = [runnerOf("A").run(fromA), runnerOf("B").run(fromB)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(firstAskings.load).to.deep.equal({ units: 4, queued: 2 });
    // Two units free while A still has one in flight: B's statement goes first, A's once B's is answered.
    held[0]?.();
    await Promise.all(asked);
    held[1]?.();
    expect(sent).to.deep.equal([fromB, fromA]);
  });
});
