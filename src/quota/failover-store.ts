import { RedisFailover, type RedisAnswers, type RedisClient } from "../redis/connection.js";
import type { QuotaStore, QuotaWindow } from "./policy.js";

/** Redis while it answers, this process's counters while it does not (contract §6: quotas fail open). */
export class FailoverQuotaStore implements QuotaStore {
  private readonly failover: RedisFailover;

  constructor(
    redis: Pick<RedisClient, "status">,
    private readonly primary: QuotaStore,
    private readonly fallback: QuotaStore,
    log: (line: string) => void,
    answers: RedisAnswers,
  ) {
    this.failover = new RedisFailover(
      redis,
      log,
      {
        down: (reason) =>
          `Quota counters: Redis is unreachable (${reason}); counting in this process until it returns.`,
        back: "Quota counters: Redis answers again; counting in Redis.",
      },
      answers,
    );
  }

  consume(keyId: string, windows: readonly QuotaWindow[]) {
    return this.failover.run(
      () => this.primary.consume(keyId, windows),
      () => this.fallback.consume(keyId, windows),
    );
  }
}
