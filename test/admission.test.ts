import { expect } from "chai";
import { Admission, AdmissionRefused, slotsFor, type AdmissionSettings } from "../src/overload/admission.js";

const settings = (overrides: Partial<AdmissionSettings> = {}): AdmissionSettings => ({
  perKey: 8,
  executions: 2,
  queueLength: 4,
  queueTimeoutMs: 1_000,
  ...overrides,
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "admitted",
    (error: unknown) => (error instanceof AdmissionRefused ? error.busy : error),
  );

describe("Admission (contract §12, pure)", () => {
  it("admits up to the per-key cap, refuses the next one of that key at once, and not another key's", async () => {
    const admission = new Admission(settings({ perKey: 2, executions: 10 }));
    const first = await admission.admit("a");
    await admission.admit("a");
    expect(await refusal(admission.admit("a"))).to.equal("key_busy");
    expect(await refusal(admission.admit("b"))).to.equal("admitted");
    first();
    first(); // a second release changes nothing
    expect(await refusal(admission.admit("a"))).to.equal("admitted");
    expect(await refusal(admission.admit("a"))).to.equal("key_busy");
  });

  it("queues past the instance cap, refuses past the queue at once, and hands freed slots over", async () => {
    const admission = new Admission(settings({ executions: 1, queueLength: 1 }));
    const running = await admission.admit("a");
    const queued = admission.admit("b");
    expect(admission.load).to.deep.equal({ executing: 1, slots: 1, queued: 1 });
    expect(await refusal(admission.admit("c"))).to.equal("instance_busy");
    running();
    const release = await queued;
    expect(admission.load).to.deep.equal({ executing: 1, slots: 1, queued: 0 });
    release();
    expect(admission.load).to.deep.equal({ executing: 0, slots: 0, queued: 0 });
  });

  it("counts queued requests towards their key's cap", async () => {
    const admission = new Admission(settings({ perKey: 2, executions: 1 }));
    await admission.admit("a");
    void admission.admit("a").catch(() => undefined);
    expect(await refusal(admission.admit("a"))).to.equal("key_busy");
  });

  it("refuses a request that waited the queue timeout, and gives its place and key count back", async () => {
    const admission = new Admission(settings({ perKey: 1, executions: 1, queueTimeoutMs: 20 }));
    const running = await admission.admit("a");
    expect(await refusal(admission.admit("b"))).to.equal("instance_busy");
    expect(admission.load).to.deep.equal({ executing: 1, slots: 1, queued: 0 });
    running();
    expect(await refusal(admission.admit("b"))).to.equal("admitted");
  });

  it("lets a caller that hung up leave the queue", async () => {
    const admission = new Admission(settings({ executions: 1 }));
    await admission.admit("a");
    const gone = new AbortController();
    const waiting = refusal(admission.admit("b", 0, gone.signal));
    expect(admission.load.queued).to.equal(1);
    gone.abort();
    expect(await waiting).to.equal("instance_busy");
    expect(admission.load.queued).to.equal(0);
    const alreadyGone = new AbortController();
    alreadyGone.abort();
    expect(await refusal(admission.admit("b", 0, alreadyGone.signal))).to.equal("instance_busy");
    expect(admission.load.queued).to.equal(0);
  });

  it("gives a freed slot to the waiting key with the fewest executions, the oldest among equals", async () => {
    const admission = new Admission(settings({ executions: 3, queueLength: 10 }));
    const heavy = [await admission.admit("heavy"), await admission.admit("heavy")];
    await admission.admit("other");
    const order: string[] = [];
    const wait = (key: string) =>
      admission.admit(key).then((release) => {
        order.push(key);
        return release;
      });
    const heavyNext = wait("heavy");
    const dashboard = wait("dashboard");
    heavy[0]?.();
    (await dashboard)();
    await heavyNext;
    // "dashboard" waited after "heavy", but had no execution while "heavy" had one.
    expect(order).to.deep.equal(["dashboard", "heavy"]);
  });

  it("takes a slot per started 5,000 of estimated cost, at most all of them", () => {
    expect([0, 4_999, 5_000, 30_100, 50_000].map((cost) => slotsFor(cost, 16))).to.deep.equal([
      1, 1, 2, 7, 11,
    ]);
    expect(slotsFor(50_000, 4)).to.equal(4);
  });

  it("lets light queries past a heavy one that does not fit, and starts the heavy one once it does", async () => {
    const admission = new Admission(settings({ executions: 8, queueLength: 4 }));
    const first = await admission.admit("heavy", 30_100); // 7 slots
    const second = admission.admit("heavy", 30_100);
    expect(admission.load).to.deep.equal({ executing: 1, slots: 7, queued: 1 });
    const light = await admission.admit("dashboard", 61); // the eighth slot, at once
    expect(admission.load).to.deep.equal({ executing: 2, slots: 8, queued: 1 });
    light();
    expect(admission.load.queued).to.equal(1); // one slot free: the heavy one still does not fit
    first();
    (await second)();
    expect(admission.load).to.deep.equal({ executing: 0, slots: 0, queued: 0 });
  });
});
