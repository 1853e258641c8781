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
export type Refusal = "key_busy" | "instance_busy";

export class AdmissionRefused extends Error {
  override name = "AdmissionRefused";
  constructor(readonly refusal: Refusal) {
    super(refusal === "key_busy" ? "the key is at its concurrency cap" : "the instance is at capacity");
  }
}

/** Gives back an execution slot (or a place in the queue); safe to call more than once. */
export type Release = () => void;

interface Waiter {
  keyId: string;
  grant: () => void;
  refuse: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Admission to execution: a per-key cap counted from admission to the response's end, and an
 * instance cap on executions with a short queue. When a slot frees, the waiter whose key has the
 * fewest executions goes next (the oldest among equals), so a key flooding the queue does not
 * delay another key's request behind all of its own. Every operation costs O(keys waiting).
 */
export class Admission {
  /** Admitted requests per key: executing or queued. */
  private readonly perKey = new Map<string, number>();
  /** Executing requests per key. */
  private readonly running = new Map<string, number>();
  private executing = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly settings: AdmissionSettings) {}

  /**
   * Resolves with a release once the request may execute; rejects with {@link AdmissionRefused}
   * when a cap is reached or the wait is over (`cancel` aborted: the caller is gone).
   */
  admit(keyId: string, cancel?: AbortSignal): Promise<Release> {
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.settings.perKey) return Promise.reject(new AdmissionRefused("key_busy"));
    if (this.executing < this.settings.executions) {
      this.perKey.set(keyId, held + 1);
      return Promise.resolve(this.start(keyId));
    }
    if (this.queue.length >= this.settings.queueLength || cancel?.aborted === true) {
      return Promise.reject(new AdmissionRefused("instance_busy"));
    }
    this.perKey.set(keyId, held + 1);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        keyId,
        grant: () => {
          clearTimeout(waiter.timer);
          cancel?.removeEventListener("abort", waiter.refuse);
          resolve(this.start(keyId));
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

  /** Executions in flight and requests waiting, for metrics and tests. */
  get load(): { executing: number; queued: number } {
    return { executing: this.executing, queued: this.queue.length };
  }

  private start(keyId: string): Release {
    this.executing++;
    this.running.set(keyId, (this.running.get(keyId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.executing--;
      this.decrement(this.running, keyId);
      this.leave(keyId);
      this.next();
    };
  }

  private leave(keyId: string): void {
    this.decrement(this.perKey, keyId);
  }

  private decrement(counts: Map<string, number>, keyId: string): void {
    const count = (counts.get(keyId) ?? 0) - 1;
    if (count > 0) counts.set(keyId, count);
    else counts.delete(keyId);
  }

  /** Hands a free slot to the queued request whose key has the fewest executions. */
  private next(): void {
    if (this.executing >= this.settings.executions || this.queue.length === 0) return;
    let chosen = 0;
    let fewest = Infinity;
    this.queue.forEach((waiter, index) => {
      const running = this.running.get(waiter.keyId) ?? 0;
      if (running < fewest) {
        fewest = running;
        chosen = index;
      }
    });
    const [waiter] = this.queue.splice(chosen, 1);
    waiter?.grant();
  }
}
