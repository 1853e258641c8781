import { Redis } from "ioredis";
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

/** The quota store as `/readyz` and the metrics report it: quotas fail open, so not required. */
export type RedisStatus = "up" | "down" | "not configured";

export interface QuotaSettings {
  limits: QuotaLimits;
  /** Absent: counters in process memory, for a single instance. */
  redisUrl: string | undefined;
}

export interface QuotaCounters {
  quota: Quota;
  /** Where the counters live, for the start-up log (no credentials). */
  description: string;
  /** Whether Redis answers now (for `/readyz` and the metrics). */
  redisStatus: () => RedisStatus;
  close: () => Promise<void>;
}

/** Redis client settings: a dead Redis must cost a request nothing (contract §6 fails open). */
const REDIS_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  commandTimeout: 500,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
};

/** The counters the settings ask for: Redis with an in-process fallback, or in-process only. */
export function createQuotaCounters(
  { limits, redisUrl }: QuotaSettings,
  log: (line: string) => void,
  now: () => number = Date.now,
): QuotaCounters {
  const memory = new MemoryQuotaStore(now);
  if (redisUrl === undefined) {
    return {
      quota: new Quota(limits, memory, now),
      description: "in process memory (REDIS_URL is not set: correct for a single instance only)",
      redisStatus: () => "not configured",
      close: () => Promise.resolve(),
    };
  }
  const redis = new Redis(redisUrl, REDIS_OPTIONS);
  // Connection errors surface as the failover's one log line per outage, not one per retry.
  redis.on("error", () => undefined);
  const store = new FailoverQuotaStore(redis, new RedisQuotaStore(redis), memory, log);
  const { host, pathname } = new URL(redisUrl);
  return {
    quota: new Quota(limits, store, now),
    description: `in Redis at ${host}${pathname.length > 1 ? pathname : ""} (shared by every instance)`,
    redisStatus: () => (redis.status === "ready" ? "up" : "down"),
    close: async () => {
      await redis.quit().catch(() => {
        redis.disconnect();
      });
    },
  };
}
