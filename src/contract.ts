// The public contract's numbers (docs/api.md), in one leaf module: the stages that enforce them
// and the configuration's defaults import them from here, and messages are written from them (or
// from the operator's settings in force, where a setting may change them).

/** Limits on a request (contract §2, §5). */
export const LIMITS = {
  /** Request body, after any content decoding. */
  bodyBytes: 65_536,
  /** `query`, in Unicode code points. */
  queryCharacters: 10_000,
  /** Field levels: a root field is level 1, a leaf counts. */
  depth: 8,
  /** Field selections in any one selection set, fragments inlined. */
  fieldsPerSelectionSet: 50,
  aliases: 30,
  directives: 50,
  /** Estimated cost (§5's rule). */
  cost: 50_000,
  /** `limit` on a list field: range and the value of an absent or null one. */
  listLimit: { min: 1, max: 100, default: 20 },
  /** `search`, in Unicode code points (§7, v1 additions part 2). */
  searchCharacters: 200,
  /** One `where` argument (§7, v1 additions part 3): operators in all, link levels, values of an `in`. */
  where: { operators: 30, linkLevels: 4, inValues: 100 },
  /** The ranges of part 4's arguments (§7, v1 additions part 4), which replace `listLimit` there. */
  graph: {
    neighborhood: { depth: { min: 1, max: 3, default: 1 }, limit: { min: 1, max: 200, default: 50 } },
    pathsTo: { maxLength: { min: 1, max: 6, default: 4 }, limit: { min: 1, max: 10, default: 1 } },
    /** A neighborhood's links: at most this many times its `limit`. */
    linksPerNode: 4,
  },
} as const;

/** Defaults of what an operator may set (contract §2, §4, §6, §12). */
export const DEFAULTS = {
  /** A body not complete this long after its headers is refused (408). */
  bodyTimeoutMs: 10_000,
  /** A revoked key stops working within this long (the key cache's longest lifetime). */
  keyCacheMaxMs: 60_000,
  quotas: { requestsPerMinute: 100, requestsPerDay: 10_000, graphqlQueriesPerDay: 5_000 },
  /** Requests one key may have executing at once. */
  concurrentRequestsPerKey: 8,
  /**
   * How long past the query timeout a request may take to be answered, whatever the database does
   * (§2: "the query timeout plus a few seconds").
   */
  deadlineMarginMs: 2_000,
} as const;

/** `Retry-After`, in seconds (contract §3, §12): a key at its cap or a full instance, and a database that cannot be reached. */
export const RETRY_AFTER_SECONDS = { busy: 1, unavailable: 5 } as const;

/**
 * Contract §2 names exact paths: `/api/v1/graphql/`, `/API/V1/GRAPHQL` or an asset's name in other
 * capitals is an unknown path (`404`), not the endpoint. Express matches paths case-insensitively
 * and with a trailing slash unless told otherwise, per app and per router: each is given these.
 */
export const EXACT_PATHS = { caseSensitive: true, strict: true } as const;

/** A count as messages write it: `65,536`. */
export const count = (n: number): string => n.toLocaleString("en-US");
