import { createHash } from "node:crypto";

/** The SHA-256 of a document's UTF-8 bytes, 64 lowercase hex digits: its name in contract §10. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** 64 lowercase hex digits, as Apollo's protocol and codegen's manifests write a SHA-256. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const isSha256Hex = (value: unknown): value is string =>
  typeof value === "string" && SHA256_HEX.test(value);
