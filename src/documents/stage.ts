import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import type { ApiKeyStore } from "../auth/api-key-store.js";
import { ApiError } from "../errors/catalogue.js";
import type { GraphQLRequest, GraphQLRequestBody } from "../http/request-body.js";
import { sha256Hex } from "./document-hash.js";
import { documentReference } from "./document-reference.js";
import type { PersistedQueryStore } from "./persisted-query-store.js";

/** Where the persisted-documents stage finds texts named by their SHA-256. */
export interface DocumentSources {
  /** Documents remembered for automatic persisted queries, shared by every instance. */
  remembered: PersistedQueryStore;
  /** The keys' trusted documents (contract §10), stored with the keys. */
  keys: Pick<ApiKeyStore, "trustedDocument">;
}

/** Trusted texts kept in this process: a text is named by its hash, so it never goes stale. */
const CACHED_TRUSTED_BYTES = 16 * 1024 * 1024;

const notAllowed = () => new ApiError("document_not_allowed");

/**
 * Contract §10, after the request shape and before the query length: resolves the document a
 * body names to its text (`req.body.query`), and holds a key restricted to trusted documents to
 * them. A hash alone runs a remembered document, a trusted one for a restricted key, or answers
 * `PersistedQueryNotFound` so the client resends the text; text with a hash is checked, and
 * remembered once valid ({@link rememberValidDocument}). What goes on to GraphQL is a plain
 * `query` body: Apollo never sees the extension.
 */
export function resolvePersistedDocument({ remembered, keys }: DocumentSources): RequestHandler {
  const trustedTexts = new LRUCache<string, string>({
    maxSize: CACHED_TRUSTED_BYTES,
    sizeCalculation: (text) => Math.max(1, 2 * text.length),
  });
  const trustedText = async (keyId: string, sha256: string) => {
    const cached = trustedTexts.get(sha256);
    if (cached !== undefined) return cached;
    const text = await keys.trustedDocument(keyId, sha256);
    if (text !== undefined) trustedTexts.set(sha256, text);
    return text;
  };

  return async (req, res, next) => {
    try {
      const body = req.body as GraphQLRequestBody;
      const reference = documentReference(body);
      const trusted = res.locals.caller?.trustedDocuments;
      let query: string;
      if (reference.query !== undefined) {
        if (trusted !== undefined && !trusted.has(reference.sha256 ?? sha256Hex(reference.query)))
          throw notAllowed();
        if (reference.sha256 !== undefined) res.locals.rememberAs = reference.sha256;
        query = reference.query;
      } else if (trusted !== undefined) {
        // A restricted key is answered from its own documents: resending the text would not help.
        const text = trusted.has(reference.sha256)
          ? await trustedText(res.locals.caller?.keyId ?? "", reference.sha256)
          : undefined;
        if (text === undefined) throw notAllowed();
        query = text;
      } else {
        const text = await remembered.get(reference.sha256);
        if (text === undefined) throw new ApiError("PERSISTED_QUERY_NOT_FOUND");
        query = text;
      }
      const extensions = Object.entries(body.extensions ?? {}).filter(([name]) => name !== "persistedQuery");
      req.body = {
        query,
        ...(body.variables !== undefined && { variables: body.variables }),
        ...(body.operationName !== undefined && { operationName: body.operationName }),
        ...(extensions.length > 0 && { extensions: Object.fromEntries(extensions) }),
      } satisfies GraphQLRequest;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * After validation: remembers a text sent with its hash (`res.locals.rememberAs`) for the hash
 * alone to name later. Only a valid document is kept: a text refused for its length, its syntax
 * or the schema would fill the shared store (for 25 hours, up to 64 KiB each) for nothing.
 */
export function rememberValidDocument({ remembered }: Pick<DocumentSources, "remembered">): RequestHandler {
  return async (req, res, next) => {
    try {
      const sha256 = res.locals.rememberAs;
      if (sha256 !== undefined) await remembered.remember(sha256, (req.body as GraphQLRequest).query);
      next();
    } catch (error) {
      next(error);
    }
  };
}
