import type { QuotaStore, QuotaWindow } from "./policy.js";

/**
 * Counters in this process: correct for a single instance only (contract §6). The same
 * algorithm as the Redis script; a window's counter is dropped once the window has ended.
 */
export class MemoryQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, { count: number; resetsAt: number }>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  consume(keyId: string, windows: readonly QuotaWindow[]): Promise<{ admitted: boolean; counts: number[] }> {
    this.sweep();
    const entries = windows.map((window) => {
      const name = `${keyId}:${window.name}:${window.id}`;
      return { window, name, count: this.counters.get(name)?.count ?? 0 };
    });
    const admitted = entries.every(({ window, count }) => count < window.limit);
    if (admitted) {
      for (const entry of entries) {
        entry.count += 1;
        this.counters.set(entry.name, { count: entry.count, resetsAt: entry.window.resetsAt });
      }
    }
    return Promise.resolve({ admitted, counts: entries.map(({ count }) => count) });
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [name, counter] of this.counters) if (counter.resetsAt <= now) this.counters.delete(name);
  }
}
