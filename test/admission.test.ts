import { expect } from "chai";
import { Admission, AdmissionRefused, type AdmissionSettings } from "../src/overload/admission.js";

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
    (error: unknown) => (error instanceof AdmissionRefused ? error.refusal : error),
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
    expect(admission.load).to.deep.equal({ executing: 1, queued: 1 });
    expect(await refusal(admission.admit("c"))).to.equal("instance_busy");
    running();
    const release = await queued;
    expect(admission.load).to.deep.equal({ executing: 1, queued: 0 });
    release();
    expect(admission.load).to.deep.equal({ executing: 0, queued: 0 });
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
    expect(admission.load).to.deep.equal({ executing: 1, queued: 0 });
    running();
    expect(await refusal(admission.admit("b"))).to.equal("admitted");
  });

  it("lets a caller that hung up leave the queue", async () => {
    const admission = new Admission(settings({ executions: 1 }));
    await admission.admit("a");
    const gone = new AbortController();
    const waiting = refusal(admission.admit("b", gone.signal));
    expect(admission.load.queued).to.equal(1);
    gone.abort();
    expect(await waiting).to.equal("instance_busy");
    expect(admission.load.queued).to.equal(0);
    const alreadyGone = new AbortController();
    alreadyGone.abort();
    expect(await refusal(admission.admit("b", alreadyGone.signal))).to.equal("instance_busy");
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
});
