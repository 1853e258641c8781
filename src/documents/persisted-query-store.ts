import { LRUCache } from "lru-cache";
import { RedisFailover, type RedisClient, type RedisConnection } from "../redis/connection.js";

/** Documents remembered by their SHA-256 for automatic persisted queries (contract §10). */
export interface PersistedQueryStore {
  /** The text remembered under `sha256`, kept for another {@link REMEMBERED_FOR_SECONDS} by the read. */
  get(sha256: string): Promise<string | undefined>;
  remember(sha256: string, text: string): Promise<void>;
  /** The most recently used documents, newest first, at most `limit` (for pre-planning). */
  recent(limit: number): Promise<string[]>;
}

/** Contract §10 keeps a document at least 24 h after its last use: a day and an hour. */
export const REMEMBERED_FOR_SECONDS = 25 * 3600;

/** In this process: bounded by size, each document forgotten a day and an hour after its last use. */
export class MemoryPersistedQueryStore implements PersistedQueryStore {
  private readonly documents: LRUCache<string, string>;

  constructor(maxBytes = 32 * 1024 * 1024, clock?: { now: () => number }) {
    this.documents = new LRUCache<string, string>({
      ...(clock && { perf: clock, ttlResolution: 0 }),
      maxSize: maxBytes,
      // UTF-16 in memory; a document is at most 10,000 code points (contract §5).
      sizeCalculation: (text, sha256) => 2 * (text.length + sha256.length),
      ttl: REMEMBERED_FOR_SECONDS * 1000,
      updateAgeOnGet: true,
    });
  }

  get(sha256: string): Promise<string | undefined> {
    return Promise.resolve(this.documents.get(sha256));
  }

  remember(sha256: string, text: string): Promise<void> {
    this.documents.set(sha256, text);
    return Promise.resolve();
  }

  recent(limit: number): Promise<string[]> {
    // An LRU iterates from the most recently used.
    return Promise.resolve([...this.documents.values()].slice(0, limit));
  }
}

/** `kg:apq:<sha256>` (a document is the same for every key, so one copy serves all). */
export const persistedQueryKey = (sha256: string) => `kg:apq:${sha256}`;
/** `kg:apq:recent`: a sorted set of hashes scored by their last use (ms), trimmed to {@link RECENT_KEPT}. */
export const RECENT_KEY = "kg:apq:recent";
export const RECENT_KEPT = 1_000;

/** In Redis, shared by every instance; a read renews the expiry (GETEX). */
export class RedisPersistedQueryStore implements PersistedQueryStore {
  constructor(private readonly redis: RedisClient) {}

  async get(sha256: string): Promise<string | undefined> {
    const text =
      (await this.redis.getex(persistedQueryKey(sha256), "EX", REMEMBERED_FOR_SECONDS)) ?? undefined;
    if (text !== undefined) this.used(sha256);
    return text;
  }

  async remember(sha256: string, text: string): Promise<void> {
    await this.redis.set(persistedQueryKey(sha256), text, "EX", REMEMBERED_FOR_SECONDS);
    this.used(sha256);
  }

  async recent(limit: number): Promise<string[]> {
    const hashes = await this.redis.zrevrange(RECENT_KEY, 0, limit - 1);
    const texts = await Promise.all(hashes.map((sha256) => this.redis.get(persistedQueryKey(sha256))));
    return texts.filter((text): text is string => text !== null);
  }

  /**
   * Records the use in the recency set, without delaying the request: separate commands, not a
   * pipeline, since a Redis Cluster keeps the two keys in different slots; a lost record only
   * leaves a document out of the next pre-planning.
   */
  private used(sha256: string): void {
    this.redis
      .zadd(RECENT_KEY, Date.now(), sha256)
      // Trimmed only when the set grew: a repeated document's use is one command.
      .then((added) => (added > 0 ? this.redis.zremrangebyrank(RECENT_KEY, 0, -RECENT_KEPT - 1) : 0))
      .catch(() => undefined);
  }
}

/**
 * The store the settings ask for: Redis with this process's memory while Redis is down (a
 * document missed there only costs the client one resend), or memory alone without Redis. A
 * document remembered in memory while Redis was down is still found once it is back, and
 * written to Redis then, for every instance.
 */
export function persistedQueryStore(
  redis: RedisConnection | undefined,
  log: (line: string) => void,
): PersistedQueryStore {
  const memory = new MemoryPersistedQueryStore();
  if (redis === undefined) return memory;
  const primary = new RedisPersistedQueryStore(redis.client);
  const failover = new RedisFailover(
    redis.client,
    log,
    {
      down: (reason) =>
        `Persisted queries: Redis is unreachable (${reason}); remembering them in this process until it returns.`,
      back: "Persisted queries: Redis answers again; remembering them in Redis.",
    },
    redis.answers,
  );
  const rememberedWhileDown = async (sha256: string) => {
    const text = await memory.get(sha256);
    if (text !== undefined) await primary.remember(sha256, text);
    return text;
  };
  return {
    get: (sha256) =>
      failover.run(
        async () => (await primary.get(sha256)) ?? (await rememberedWhileDown(sha256)),
        () => memory.get(sha256),
      ),
    remember: (sha256, text) =>
      failover.run(
        () => primary.remember(sha256, text),
        () => memory.remember(sha256, text),
      ),
    recent: (limit) =>
      failover.run(
        () => primary.recent(limit),
        () => memory.recent(limit),
      ),
  };
}
