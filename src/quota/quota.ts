import { connectRedis, type RedisConnection, type RedisStatus } from "../redis/connection.js";
import { FailoverQuotaStore } from "./failover-store.js";
import { MemoryQuotaStore } from "./memory-store.js";
import { decide, quotaWindows, type QuotaDecision, type QuotaLimits, type QuotaStore } from "./policy.js";
import { RedisQuotaStore } from "./redis-store.js";

/** Admits or refuses each authenticated request against the key's three windows (contract §6). */
export class Quota {
  constructor(
    readonly limits: QuotaLimits,
    private readonly store: QuotaStore,
    private readonly now: () => number = Date.now,
  ) {}

  async admit(keyId: string): Promise<QuotaDecision> {
    const now = this.now();
    const windows = quotaWindows(this.limits, now);
    return decide(windows, await this.store.consume(keyId, windows), now);
  }
}

export type { RedisStatus };

export interface QuotaSettings {
  limits: QuotaLimits;
  /** One Redis server (tests); absent with no `redis` either: counters in process memory. */
  redisUrl?: string | undefined;
  /** A connection to share (the service's one client): used instead of `redisUrl`, not closed by `close`. */
  redis?: RedisConnection;
}

export interface QuotaCounters {
  quota: Quota;
  /** Where the counters live, for the start-up log (no credentials). */
  description: string;
  /** Whether Redis answers now (for `/readyz` and the metrics). */
  redisStatus: () => RedisStatus;
  close: () => Promise<void>;
}

/** The counters the settings ask for: Redis with an in-process fallback, or in-process only. */
export function createQuotaCounters(
  { limits, redisUrl, redis: shared }: QuotaSettings,
  log: (line: string) => void,
  now: () => number = Date.now,
): QuotaCounters {
  const memory = new MemoryQuotaStore(now);
  const redis =
    shared ?? (redisUrl === undefined ? undefined : connectRedis({ mode: "standalone", url: redisUrl }));
  if (redis === undefined) {
    return {
      quota: new Quota(limits, memory, now),
      description: "in process memory (REDIS_URL is not set: correct for a single instance only)",
      redisStatus: () => "not configured",
      close: () => Promise.resolve(),
    };
  }
  const store = new FailoverQuotaStore(
    redis.client,
    new RedisQuotaStore(redis.client),
    memory,
    log,
    redis.answers,
  );
  return {
    quota: new Quota(limits, store, now),
    description: `in ${redis.description} (shared by every instance)`,
    redisStatus: redis.status,
    close: shared === undefined ? redis.close : () => Promise.resolve(),
  };
}
