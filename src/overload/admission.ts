/** How much this instance runs at once (contract §12). */
export interface AdmissionSettings {
  /** Requests one key may have executing (or queued to execute) at once. */
  perKey: number;
  /** Executions this instance runs at once, sized to its Neo4j connection pool. */
  executions: number;
  /** Requests that may wait for an execution slot; past that, refused at once. */
  queueLength: number;
  /** How long a request may wait in the queue before it is refused. */
  queueTimeoutMs: number;
}

/** Why a request was not admitted: the key's own cap, or the instance's. */
export type Busy = "key_busy" | "instance_busy";

export class AdmissionRefused extends Error {
  override name = "AdmissionRefused";
  constructor(readonly busy: Busy) {
    super(busy === "key_busy" ? "the key is at its concurrency cap" : "the instance is at capacity");
  }
}

/** Gives back an execution slot (or a place in the queue); safe to call more than once. */
export type Release = () => void;

/** Estimated cost (contract §5) that one execution slot stands for: a query takes a slot per started 5,000. */
export const COST_PER_SLOT = 5_000;

/** Slots an execution of estimated `cost` occupies: 1 up to 4,999, 11 at the 50,000 limit. */
export const slotsFor = (cost: number, executions: number): number =>
  Math.min(executions, 1 + Math.floor(Math.max(0, cost) / COST_PER_SLOT));

interface Waiter {
  keyId: string;
  slots: number;
  grant: () => void;
  refuse: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Admission to execution: a per-key cap on requests, counted from admission to the response's
 * end, and an instance cap on execution slots with a short queue. An execution takes slots in
 * proportion to its estimated cost ({@link slotsFor}), so a few queries near the cost limit cannot
 * hold every slot while light ones wait, and the number of heavy queries competing for Neo4j's CPU
 * stays bounded. When slots free, the waiter whose key has the fewest executions goes next (the
 * oldest among equals) among those that fit, so a key flooding the queue does not delay another
 * key's request behind all of its own; a waiter that never fits is refused at its timeout. Every
 * operation costs O(requests waiting), which the queue's length bounds.
 */
export class Admission {
  /** Admitted requests per key: executing or queued. */
  private readonly perKey = new Map<string, number>();
  /** Executing requests per key. */
  private readonly running = new Map<string, number>();
  /** Slots taken by executions in flight. */
  private taken = 0;
  private executions = 0;
  private readonly queue: Waiter[] = [];
  /** Called once nothing is admitted, executing or queued: see {@link idle}. */
  private onIdle: (() => void)[] = [];

  constructor(readonly settings: AdmissionSettings) {}

  /** Resolves once no request is admitted, executing or queued (at once when none is): a shutdown waits for it. */
  idle(): Promise<void> {
    return this.perKey.size === 0 ? Promise.resolve() : new Promise((resolve) => this.onIdle.push(resolve));
  }

  /**
   * Resolves with a release once the request may execute; rejects with {@link AdmissionRefused}
   * when a cap is reached or the wait is over (`cancel` aborted: the caller is gone).
   */
  admit(keyId: string, cost = 0, cancel?: AbortSignal): Promise<Release> {
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.settings.perKey) return Promise.reject(new AdmissionRefused("key_busy"));
    const slots = slotsFor(cost, this.settings.executions);
    if (this.fits(slots)) {
      this.perKey.set(keyId, held + 1);
      return Promise.resolve(this.start(keyId, slots));
    }
    if (this.queue.length >= this.settings.queueLength || cancel?.aborted === true) {
      return Promise.reject(new AdmissionRefused("instance_busy"));
    }
    this.perKey.set(keyId, held + 1);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        keyId,
        slots,
        grant: () => {
          clearTimeout(waiter.timer);
          cancel?.removeEventListener("abort", waiter.refuse);
          resolve(this.start(keyId, slots));
        },
        refuse: () => {
          clearTimeout(waiter.timer);
          cancel?.removeEventListener("abort", waiter.refuse);
          this.queue.splice(this.queue.indexOf(waiter), 1);
          this.leave(keyId);
          reject(new AdmissionRefused("instance_busy"));
        },
        timer: setTimeout(() => {
          waiter.refuse();
        }, this.settings.queueTimeoutMs),
      };
      this.queue.push(waiter);
      cancel?.addEventListener("abort", waiter.refuse, { once: true });
    });
  }

  /** Executions in flight, the slots they take, and requests waiting: for metrics and tests. */
  get load(): { executing: number; slots: number; queued: number } {
    return { executing: this.executions, slots: this.taken, queued: this.queue.length };
  }

  private fits(slots: number): boolean {
    return this.taken + slots <= this.settings.executions;
  }

  private start(keyId: string, slots: number): Release {
    this.taken += slots;
    this.executions++;
    this.running.set(keyId, (this.running.get(keyId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken -= slots;
      this.executions--;
      this.decrement(this.running, keyId);
      this.leave(keyId);
      this.next();
    };
  }

  private leave(keyId: string): void {
    this.decrement(this.perKey, keyId);
    if (this.perKey.size > 0 || this.onIdle.length === 0) return;
    const idle = this.onIdle;
    this.onIdle = [];
    for (const resolve of idle) resolve();
  }

  private decrement(counts: Map<string, number>, keyId: string): void {
    const count = (counts.get(keyId) ?? 0) - 1;
    if (count > 0) counts.set(keyId, count);
    else counts.delete(keyId);
  }

  /** Hands free slots to the queued requests that fit, fewest executions of their key first. */
  private next(): void {
    for (;;) {
      let chosen: Waiter | undefined;
      let fewest = Infinity;
      for (const waiter of this.queue) {
        const running = this.running.get(waiter.keyId) ?? 0;
        if (running < fewest && this.fits(waiter.slots)) {
          fewest = running;
          chosen = waiter;
        }
      }
      if (chosen === undefined) return;
      this.queue.splice(this.queue.indexOf(chosen), 1);
      chosen.grant();
    }
  }
}
