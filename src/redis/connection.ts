import { Cluster, Redis, type RedisOptions } from "ioredis";

/** Redis as `/readyz` and the metrics report it: quotas and remembered documents fail open, so not required. */
export type RedisStatus = "up" | "down" | "not configured";

/** A host and port, as `REDIS_CLUSTER_NODES` and `REDIS_SENTINELS` list them. */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * Where Redis is: one server (`REDIS_URL`), a Redis Cluster found from any of its nodes, or the
 * master of a Sentinel group; the last two with the credentials their nodes share.
 */
export type RedisSettings =
  | { mode: "standalone"; url: string }
  | { mode: "cluster"; nodes: readonly HostPort[]; username?: string; password?: string }
  | {
      mode: "sentinel";
      sentinels: readonly HostPort[];
      master: string;
      username?: string;
      password?: string;
    };

/** A client of either kind: both run the same commands and scripts. */
export type RedisClient = Redis | Cluster;

/** The service's one Redis client, shared by the quota counters and the persisted queries. */
export interface RedisConnection {
  client: RedisClient;
  /** Where it points, for the start-up log (no credentials). */
  description: string;
  /** `down` while disconnected, and while connected but letting commands time out (hung). */
  status: () => RedisStatus;
  /** What its users saw of their last command, for {@link status}. */
  answers: RedisAnswers;
  close: () => Promise<void>;
}

/** What a command of Redis came to: told by its users ({@link RedisFailover}), read by the status. */
export interface RedisAnswers {
  timedOut: () => void;
  answered: () => void;
}

/** Client settings: a dead Redis must cost a request nothing (contract §6 fails open). */
const FAIL_FAST: RedisOptions = {
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  commandTimeout: 500,
};
const retry = (attempt: number) => Math.min(attempt * 200, 2_000);

/** Connects in the background; commands fail at once until it is ready. */
export function connectRedis(settings: RedisSettings): RedisConnection {
  const client = createClient(settings);
  // Connection errors surface as each user's one log line per outage, not one per retry.
  client.on("error", () => undefined);
  // A Redis that holds its connection but does not answer (hung, paused) is connected, and down.
  let hung = false;
  client.on("ready", () => {
    hung = false;
  });
  return {
    client,
    description: describeSettings(settings),
    status: () => (client.status === "ready" && !hung ? "up" : "down"),
    answers: {
      timedOut: () => {
        hung = true;
      },
      answered: () => {
        hung = false;
      },
    },
    close: async () => {
      await client.quit().catch(() => {
        client.disconnect();
      });
    },
  };
}

function createClient(settings: RedisSettings): RedisClient {
  switch (settings.mode) {
    case "standalone":
      return new Redis(settings.url, { ...FAIL_FAST, enableOfflineQueue: false, retryStrategy: retry });
    case "cluster": {
      const { nodes, username, password } = settings;
      // A failed-over master's slots move to its replica: the client follows MOVED answers and
      // refreshes its slot table; meanwhile commands fail at once and callers fall back.
      return new Cluster([...nodes], {
        enableOfflineQueue: false,
        clusterRetryStrategy: retry,
        slotsRefreshTimeout: 1_000,
        redisOptions: { ...FAIL_FAST, ...(username && { username }), ...(password && { password }) },
      });
    }
    case "sentinel": {
      const { sentinels, master, username, password } = settings;
      // The sentinels name the current master; after a failover the client asks them again.
      return new Redis({
        ...FAIL_FAST,
        enableOfflineQueue: false,
        sentinels: [...sentinels],
        name: master,
        sentinelRetryStrategy: retry,
        retryStrategy: retry,
        ...(username && { username }),
        ...(password && { password }),
      });
    }
  }
}

/** For the start-up log: where Redis is, never its credentials. */
function describeSettings(settings: RedisSettings): string {
  const list = (nodes: readonly HostPort[]) =>
    nodes.map(({ host, port }) => `${host}:${String(port)}`).join(", ");
  switch (settings.mode) {
    case "standalone": {
      const { host, pathname } = new URL(settings.url);
      return `Redis at ${host}${pathname.length > 1 ? pathname : ""}`;
    }
    case "cluster":
      return `the Redis Cluster of ${list(settings.nodes)}`;
    case "sentinel":
      return `the Redis master "${settings.master}" of the sentinels ${list(settings.sentinels)}`;
  }
}

/**
 * After a command timed out, how long Redis is left alone: a Redis that holds its connection but
 * does not answer (hung, paused, swapping) would cost every request the command timeout.
 */
export const HUNG_REDIS_PAUSE_MS = 1_000;

/**
 * Redis while it answers, this process's memory while it does not. ioredis refuses commands at
 * once while disconnected (no offline queue), so an outage costs no latency. A Redis that stays
 * connected but lets a command time out is left alone for {@link HUNG_REDIS_PAUSE_MS}, then asked
 * by one request at a time until it answers: while it hangs, about one request a second waits the
 * command timeout, not every one. Each switch is logged once, in the words the user gives.
 */
export class RedisFailover {
  private onFallback = false;
  /** `performance.now()` until which Redis is not asked (0: asked by every request). */
  private pausedUntil = 0;
  /** Whether a request is asking Redis, after a pause, whether it answers again. */
  private probing = false;

  constructor(
    private readonly redis: Pick<RedisClient, "status">,
    private readonly log: (line: string) => void,
    private readonly words: { down: (reason: string) => string; back: string },
    private readonly answers: RedisAnswers,
  ) {}

  async run<T>(primary: () => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (this.redis.status !== "ready") {
      this.switchToFallback(`connection ${this.redis.status}`);
      return fallback();
    }
    const paused = this.pausedUntil > 0;
    if (paused && (this.probing || performance.now() < this.pausedUntil)) return fallback();
    this.probing = paused;
    try {
      const result = await primary();
      this.answers.answered();
      this.pausedUntil = 0;
      if (this.onFallback) {
        this.onFallback = false;
        this.log(this.words.back);
      }
      return result;
    } catch (error) {
      if (error instanceof Error && error.message === COMMAND_TIMED_OUT) {
        this.pausedUntil = performance.now() + HUNG_REDIS_PAUSE_MS;
        this.answers.timedOut();
      }
      this.switchToFallback(describe(error));
    } finally {
      if (paused) this.probing = false;
    }
    return fallback();
  }

  private switchToFallback(reason: string): void {
    if (this.onFallback) return;
    this.onFallback = true;
    this.log(this.words.down(reason));
  }
}

/** ioredis' error for a command not answered within `commandTimeout`. */
const COMMAND_TIMED_OUT = "Command timed out";

const describe = (error: unknown) =>
  error instanceof Error && error.message === COMMAND_TIMED_OUT
    ? "a command timed out"
    : ((error as { code?: string }).code ?? (error instanceof Error ? error.name : "unknown error"));
