import type { Redis } from "ioredis";
import type { QuotaStore, QuotaWindow } from "./policy.js";

/**
 * Redis while it answers, this process's counters while it does not (contract §6: quotas fail
 * open). ioredis reconnects in the background and refuses commands at once while disconnected
 * (no offline queue), so an outage costs no latency; each switch is logged once.
 */
export class FailoverQuotaStore implements QuotaStore {
  private onFallback = false;

  constructor(
    private readonly redis: Pick<Redis, "status">,
    private readonly primary: QuotaStore,
    private readonly fallback: QuotaStore,
    private readonly log: (line: string) => void,
  ) {}

  async consume(keyId: string, windows: readonly QuotaWindow[]) {
    if (this.redis.status === "ready") {
      try {
        const result = await this.primary.consume(keyId, windows);
        if (this.onFallback) {
          this.onFallback = false;
          this.log("Quota counters: Redis answers again; counting in Redis.");
        }
        return result;
      } catch (error) {
        this.switchToFallback(describe(error));
      }
    } else {
      this.switchToFallback(`connection ${this.redis.status}`);
    }
    return this.fallback.consume(keyId, windows);
  }

  private switchToFallback(reason: string): void {
    if (this.onFallback) return;
    this.onFallback = true;
    this.log(`Quota counters: Redis is unreachable (${reason}); counting in this process until it returns.`);
  }
}

const describe = (error: unknown) =>
  (error as { code?: string }).code ?? (error instanceof Error ? error.name : "unknown error");
