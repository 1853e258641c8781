import { ApiError } from "../errors/catalogue.js";
import { bearerToken, hashApiKey, hashesEqual } from "./api-key.js";
import type { ApiKeyStore } from "./api-key-store.js";

/** The caller a request runs for. */
export interface Caller {
  keyId: string;
  /** The SHA-256 of each document the key may run, when it is restricted to trusted ones (§10). */
  trustedDocuments?: ReadonlySet<string>;
}

export const REQUIRED_SCOPE = "read";

const UNAUTHORIZED_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="kg-graphql"' };
const INSUFFICIENT_SCOPE_CHALLENGE = {
  "WWW-Authenticate": `Bearer realm="kg-graphql", error="insufficient_scope", scope="${REQUIRED_SCOPE}"`,
};

const MAX_CACHED_LOOKUPS = 10_000;

interface CachedLookup {
  key: { id: string; scopes: string[]; hash: string; trustedDocuments?: ReadonlySet<string> } | null;
  expiresAt: number;
}

/**
 * Decides from the `Authorization` header alone whether a request may proceed (contract §4):
 * 401 for no, malformed, unknown or revoked keys (and for two headers: which one a proxy in
 * front read is anyone's guess), 403 without the `read` scope. Lookups, found
 * or not, are cached for at most `cacheTtlMs` (≤ 60 s), so a revoked key stops working within it,
 * and a change to a key's trusted documents takes effect within it.
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedLookup>();

  constructor(
    private readonly store: Pick<ApiKeyStore, "findByHash">,
    private readonly cacheTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(authorization: string | readonly string[] | undefined): Promise<Caller> {
    if (typeof authorization !== "string" && authorization !== undefined && authorization.length > 1)
      throw new ApiError(
        "unauthorized",
        `Send one Authorization header; this request has ${String(authorization.length)}.`,
        UNAUTHORIZED_CHALLENGE,
      );
    const token = bearerToken(typeof authorization === "string" ? authorization : authorization?.[0]);
    if (token === undefined) throw new ApiError("unauthorized", undefined, UNAUTHORIZED_CHALLENGE);
    const hash = hashApiKey(token);
    const key = await this.lookUp(hash);
    if (key === null || !hashesEqual(key.hash, hash)) {
      throw new ApiError(
        "unauthorized",
        "This API key is not valid (unknown or revoked).",
        UNAUTHORIZED_CHALLENGE,
      );
    }
    if (!key.scopes.includes(REQUIRED_SCOPE)) {
      throw new ApiError("insufficient_scope", undefined, INSUFFICIENT_SCOPE_CHALLENGE);
    }
    return { keyId: key.id, ...(key.trustedDocuments && { trustedDocuments: key.trustedDocuments }) };
  }

  private async lookUp(hash: string): Promise<CachedLookup["key"]> {
    const now = this.now();
    const cached = this.cache.get(hash);
    if (cached !== undefined && cached.expiresAt > now) return cached.key;
    const found = await this.store.findByHash(hash);
    const key =
      found === undefined || found.revokedAt !== null
        ? null
        : {
            id: found.id,
            scopes: found.scopes,
            hash: found.hash,
            ...(found.trustedHashes !== null && { trustedDocuments: new Set(found.trustedHashes) }),
          };
    this.evictExpired(now);
    this.cache.set(hash, { key, expiresAt: now + this.cacheTtlMs });
    return key;
  }

  /** Keeps the cache bounded: expired entries go first, then the oldest (a flood of random keys). */
  private evictExpired(now: number): void {
    if (this.cache.size < MAX_CACHED_LOOKUPS) return;
    for (const [hash, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(hash);
    for (const hash of this.cache.keys()) {
      if (this.cache.size < MAX_CACHED_LOOKUPS) break;
      this.cache.delete(hash);
    }
  }
}
