import type { ErrorCode } from "../errors/catalogue.js";

/** The per-key request allowances of contract §6; the defaults are the contract's values. */
export interface QuotaLimits {
  requestsPerMinute: number;
  requestsPerDay: number;
  graphqlQueriesPerDay: number;
}

/** One fixed window of one policy, at the moment a request arrives. */
export interface QuotaWindow {
  /** The policy's name in the `RateLimit` headers and in the Redis key. */
  name: "minute" | "day" | "graphql-day";
  limit: number;
  /** Window length in seconds (the policy's `w`). */
  seconds: number;
  /** The window's UTC start, `2026-11-21T10:05` or `2026-11-21`: part of the counter's key. */
  id: string;
  /** Epoch milliseconds at which the window ends and its count starts again from 0. */
  resetsAt: number;
  /** The contract code when this window refuses a request. */
  code: ErrorCode;
}

/** The contract code of each window's 429 (contract §6). */
export const QUOTA_REFUSAL_CODES = {
  minute: "rate_limited",
  day: "daily_quota_exceeded",
  "graphql-day": "graphql_quota_exceeded",
} as const satisfies Record<QuotaWindow["name"], ErrorCode>;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The three windows a GraphQL request counts against at `now` (UTC clock minute and day). */
export function quotaWindows(limits: QuotaLimits, now: number): QuotaWindow[] {
  const minuteStart = now - (now % MINUTE_MS);
  const dayStart = now - (now % DAY_MS);
  const iso = (epoch: number) => new Date(epoch).toISOString();
  const day = { seconds: 86_400, id: iso(dayStart).slice(0, 10), resetsAt: dayStart + DAY_MS };
  return [
    {
      name: "minute",
      limit: limits.requestsPerMinute,
      seconds: 60,
      id: iso(minuteStart).slice(0, 16),
      resetsAt: minuteStart + MINUTE_MS,
      code: QUOTA_REFUSAL_CODES.minute,
    },
    { name: "day", limit: limits.requestsPerDay, ...day, code: QUOTA_REFUSAL_CODES.day },
    {
      name: "graphql-day",
      limit: limits.graphqlQueriesPerDay,
      ...day,
      code: QUOTA_REFUSAL_CODES["graphql-day"],
    },
  ];
}

/** Where the counters live: Redis (shared) or this process. */
export interface QuotaStore {
  /**
   * Atomically: when every window's count is below its limit, adds one to each and answers the
   * new counts; otherwise changes nothing and answers the current counts.
   */
  consume(keyId: string, windows: readonly QuotaWindow[]): Promise<{ admitted: boolean; counts: number[] }>;
}

export interface WindowState {
  window: QuotaWindow;
  /** Requests left in the window after this one (`r`). */
  remaining: number;
  /** Whole seconds until the window resets (`t`). */
  resetSeconds: number;
}

export interface QuotaDecision {
  admitted: boolean;
  windows: WindowState[];
  /** When refused: the exhausted window that resets last, whose code and wait the caller gets. */
  refusedBy?: WindowState;
}

/** Turns a store's answer into what the caller is told. */
export function decide(
  windows: readonly QuotaWindow[],
  { admitted, counts }: { admitted: boolean; counts: number[] },
  now: number,
): QuotaDecision {
  const states = windows.map((window, i) => ({
    window,
    remaining: Math.max(0, window.limit - (counts[i] ?? 0)),
    resetSeconds: Math.ceil((window.resetsAt - now) / 1000),
  }));
  if (admitted) return { admitted, windows: states };
  // Exhausted windows; the first of those resetting last wins a tie (day before graphql-day).
  const refusedBy = states
    .filter((state, i) => (counts[i] ?? 0) >= state.window.limit)
    .reduce((last, state) => (state.resetSeconds > last.resetSeconds ? state : last));
  return { admitted, windows: states, refusedBy };
}

/** The IETF RateLimit header fields draft's two headers (contract §6). */
export function rateLimitHeaders({ windows }: QuotaDecision): Record<string, string> {
  return {
    "RateLimit-Policy": windows
      .map(({ window }) => `"${window.name}";q=${window.limit};w=${window.seconds}`)
      .join(", "),
    RateLimit: windows
      .map(({ window, remaining, resetSeconds }) => `"${window.name}";r=${remaining};t=${resetSeconds}`)
      .join(", "),
  };
}
