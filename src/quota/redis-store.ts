import type { RedisClient } from "../redis/connection.js";
import type { QuotaStore, QuotaWindow } from "./policy.js";

/**
 * The admission script, shared with the REST surface (docs/keys-and-quotas.md, "Quotas"). KEYS are one counter
 * per window; ARGV[i] is window i's limit and ARGV[n + i] the Unix time (s) when its counter may
 * expire. Either every counter is below its limit and each is incremented, or nothing changes.
 * Returns { admitted (1|0), count 1, …, count n }: the counts after the request.
 */
export const CONSUME_QUOTA_SCRIPT = `
local n = #KEYS
local counts = {}
local admitted = 1
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if counts[i] >= tonumber(ARGV[i]) then admitted = 0 end
end
if admitted == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('EXPIREAT', KEYS[i], ARGV[n + i]) end
  end
end
table.insert(counts, 1, admitted)
return counts
`;

/** A counter outlives its window by this much, so clocks a little apart still find it. */
const EXPIRY_GRACE_SECONDS = 300;

/**
 * `kg:quota:{<keyId>}:<window>:<window start>`: the braces keep one key's counters in one Redis
 * Cluster slot, as a multi-key script needs.
 */
export const quotaCounterKey = (keyId: string, window: QuotaWindow) =>
  `kg:quota:{${keyId}}:${window.name}:${window.id}`;

type ScriptedRedis = RedisClient & {
  consumeQuota(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
};

/** Counters in Redis, shared by every instance and by the REST surface. */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: ScriptedRedis;

  constructor(redis: RedisClient) {
    // ioredis runs it with EVALSHA, loading the script on the first NOSCRIPT.
    redis.defineCommand("consumeQuota", { lua: CONSUME_QUOTA_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  async consume(keyId: string, windows: readonly QuotaWindow[]) {
    const [admitted, ...counts] = await this.redis.consumeQuota(
      windows.length,
      ...windows.map((window) => quotaCounterKey(keyId, window)),
      ...windows.map((window) => window.limit),
      ...windows.map((window) => Math.ceil(window.resetsAt / 1000) + EXPIRY_GRACE_SECONDS),
    );
    return { admitted: admitted === 1, counts };
  }
}
