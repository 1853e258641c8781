import { ApiError } from "../errors/catalogue.js";
import type { GraphQLRequestBody } from "../http/request-body.js";
import { isSha256Hex, sha256Hex } from "./document-hash.js";

/**
 * What a request body names as its document (contract §10): its text, with the SHA-256 it was
 * announced under if any (already checked), or only a SHA-256 to look the text up by.
 */
export type DocumentReference = { query: string; sha256?: string } | { query?: undefined; sha256: string };

const refuse = (message: string) => new ApiError("validation_failed", message);

/**
 * Reads `query`, `extensions.persistedQuery` (Apollo's automatic persisted queries) and
 * `documentId` (GraphQL over HTTP's persisted documents). A malformed extension or id is
 * `validation_failed`; text that does not hash to the hash it names is `persisted_query_mismatch`.
 */
export function documentReference(body: GraphQLRequestBody): DocumentReference {
  const announced = announcedHash(body);
  if (body.query === undefined) {
    if (announced === undefined) throw refuse('The request body must have a "query" string.');
    return { sha256: announced };
  }
  if (announced === undefined) return { query: body.query };
  if (body.documentId !== undefined) {
    throw refuse('Send either "query" or "documentId", not both.');
  }
  const actual = sha256Hex(body.query);
  if (actual !== announced) {
    throw new ApiError(
      "persisted_query_mismatch",
      `The query hashes to ${actual}, not to the sha256Hash ${announced} of extensions.persistedQuery.`,
    );
  }
  return { query: body.query, sha256: announced };
}

/** The hash `extensions.persistedQuery` or `documentId` names, checked for form. */
function announcedHash({ extensions, documentId }: GraphQLRequestBody): string | undefined {
  const persisted = extensions?.persistedQuery;
  let fromExtension: string | undefined;
  if (persisted !== undefined) {
    if (typeof persisted !== "object" || persisted === null || Array.isArray(persisted)) {
      throw refuse(
        'extensions.persistedQuery must be an object: { "version": 1, "sha256Hash": "<64 hex>" }.',
      );
    }
    const { version, sha256Hash } = persisted as Record<string, unknown>;
    if (version !== 1) throw refuse("extensions.persistedQuery.version must be 1.");
    if (!isSha256Hex(sha256Hash)) {
      throw refuse("extensions.persistedQuery.sha256Hash must be 64 lowercase hexadecimal digits.");
    }
    fromExtension = sha256Hash;
  }
  if (documentId === undefined) return fromExtension;
  const hash = documentId.startsWith("sha256:") ? documentId.slice("sha256:".length) : "";
  if (!isSha256Hex(hash)) {
    throw refuse('"documentId" must be "sha256:" and 64 lowercase hexadecimal digits.');
  }
  if (fromExtension !== undefined && fromExtension !== hash) {
    throw refuse('"documentId" and extensions.persistedQuery name different documents.');
  }
  return hash;
}
