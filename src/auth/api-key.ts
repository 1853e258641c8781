import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Recognisable in logs, configs and secret scanners (contract §4). */
export const KEY_PREFIX = "kgq_";

/** A new secret: 256 random bits, base64url, after the prefix. Shown once, never stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

/** The only form in which a key is stored or looked up: SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Compares two hex hashes in time independent of where they differ. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The key from an `Authorization` header, or undefined when there is none or it is not a Bearer
 * credential. The scheme name is case-insensitive (RFC 7235).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? "");
  return match?.[1];
}
