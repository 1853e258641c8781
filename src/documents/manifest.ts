import { parse } from "graphql";
import { count, LIMITS } from "../contract.js";
import type { DocumentManifest } from "../auth/api-key-store.js";
import { exceedsCodePoints } from "../http/request-body.js";
import { SHA256_HEX, sha256Hex } from "./document-hash.js";

/**
 * A trusted-documents manifest as GraphQL Code Generator's persisted-documents output writes it
 * (`{ "<sha256>": "<document>" }`, contract §10; codegen's `sha256:<hash>` names are read as the
 * bare hash), checked before it is stored and returned by bare hash: every name is the
 * SHA-256 of its text, and every text parses and fits the query length limit (one that does not
 * could never run). Throws an Error naming each problem.
 */
export function readManifest(json: string): DocumentManifest {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`The manifest is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error('The manifest must be a JSON object: { "<sha256>": "<document>", … }.');
  }
  const problems: string[] = [];
  const manifest: Record<string, string> = {};
  for (const [name, text] of Object.entries(value) as [string, unknown][]) {
    // Codegen names each document `sha256:<hash>` when asked for SHA-256, bare hex otherwise.
    const hash = name.startsWith("sha256:") ? name.slice("sha256:".length) : name;
    if (!SHA256_HEX.test(hash))
      problems.push(
        `"${name.slice(0, 80)}" is not a SHA-256: 64 lowercase hex digits, "sha256:" before them or not.`,
      );
    else if (typeof text !== "string") problems.push(`${hash}: the document is not a string.`);
    else if (sha256Hex(text) !== hash)
      problems.push(
        `${hash}: the document hashes to ${sha256Hex(text)} (generate the manifest with SHA-256).`,
      );
    else if (exceedsCodePoints(text, LIMITS.queryCharacters))
      problems.push(`${hash}: the document is longer than ${count(LIMITS.queryCharacters)} characters.`);
    else {
      try {
        parse(text);
      } catch (error) {
        problems.push(
          `${hash}: the document is not GraphQL (${error instanceof Error ? error.message : ""}).`,
        );
      }
      manifest[hash] = text;
    }
  }
  if (problems.length > 0) throw new Error(`The manifest was not registered:\n${problems.join("\n")}`);
  return manifest;
}
