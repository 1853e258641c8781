import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Request, RequestHandler } from "express";
import typeis from "type-is";
import { count, LIMITS } from "../contract.js";
import { ApiError } from "../errors/catalogue.js";
import { closeAfterDiscarding, LINGER_AFTER_REFUSAL } from "./linger.js";
import { continueIfAwaited } from "./server.js";

/** A duration as the 408 message says it: `10 seconds`, `250 ms`. */
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} seconds` : `${ms} ms`);
/** Contract §5: the body limit (after content decoding) and the query length in code points. */
const MAX_BODY_BYTES = LIMITS.bodyBytes;
const MAX_QUERY_CHARACTERS = LIMITS.queryCharacters;
const tooLarge = () =>
  new ApiError("payload_too_large", `The request body is larger than ${count(MAX_BODY_BYTES)} bytes.`);

/** Contract §2: the content codings a request body may use. */
const ACCEPTED_ENCODINGS = new Set(["identity", "gzip", "deflate", "br"]);

/** A GraphQL-over-HTTP request body, as the contract allows it. */
export interface GraphQLRequestBody {
  /** Absent only when the body names a persisted document instead (contract §10). */
  query?: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
  /** GraphQL over HTTP's persisted document: `sha256:<hash>`. */
  documentId?: string;
}

/** A body whose document text is known: given, or found by the persisted-documents stage. */
export type GraphQLRequest = GraphQLRequestBody & { query: string };

const contentCoding = (req: Request) => (req.get("content-encoding") ?? "identity").trim().toLowerCase();

const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** The charset the body declares when it is not UTF-8 (RFC 8259 allows nothing else), else undefined. */
const otherCharset = (req: Request) => {
  const charset = CHARSET_PARAMETER.exec(req.get("content-type") ?? "")?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset) ? undefined : charset;
};

/** Characters of a header value a 415's message repeats: enough to recognise it. */
const QUOTED_HEADER_CHARACTERS = 40;
const quoted = (value: string) => JSON.stringify(value.slice(0, QUOTED_HEADER_CHARACTERS));

/**
 * 415 unless the body is declared `application/json` in UTF-8 and a coding the contract accepts,
 * its message naming which of the three is wrong. The header alone decides: a request that
 * announces no body (no `Content-Length`, no `Transfer-Encoding`: `curl -X POST` without `-d`) is
 * an empty body, `invalid_json` after this (Express's `req.is` would say it has no type at all).
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const charset = otherCharset(req);
  const coding = contentCoding(req);
  if (typeis.is(req.get("content-type") ?? "", ["application/json"]) !== "application/json")
    next(new ApiError("unsupported_media_type"));
  else if (charset !== undefined)
    next(
      new ApiError(
        "unsupported_media_type",
        `Send the request body in UTF-8: Content-Type: application/json with no charset, or charset=utf-8 (it says charset=${quoted(charset)}).`,
      ),
    );
  else if (!ACCEPTED_ENCODINGS.has(coding))
    next(
      new ApiError(
        "unsupported_media_type",
        `Send the request body with no Content-Encoding, or gzip, deflate or br (it says ${quoted(coding)}).`,
      ),
    );
  else next();
};

/**
 * 413 from `Content-Length` alone: body-parser would read an oversized body to its end before
 * refusing it, so an announced one is refused unread, and the connection closed once what the
 * client still sends is dropped ({@link closeAfterDiscarding}). (With a content coding the header
 * counts encoded bytes; the decoded size is checked while reading.)
 */
export const refuseAnnouncedOversizedBody: RequestHandler = (req, res, next) => {
  const length = Number(req.get("content-length"));
  if (contentCoding(req) === "identity" && length > MAX_BODY_BYTES) {
    res.set("Connection", "close");
    closeAfterDiscarding(req, LINGER_AFTER_REFUSAL);
    next(tooLarge());
    return;
  }
  next();
};

const DECODERS: Readonly<Record<string, (() => Transform) | undefined>> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads and decodes the body as UTF-8 text into `req.body`, counting decoded bytes as they come:
 * the 65,537th byte answers 413 at once, a body not complete `timeoutMs` after the headers
 * arrived answers 408, and either closes the connection without reading the rest (contract §2,
 * §3). A body that does not decode (corrupt gzip, bytes that are not UTF-8) is `invalid_json`.
 * A client waiting for `100 Continue` is told to send its body here, once every check before it passed.
 */
export function readBodyText(timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const decoder = DECODERS[contentCoding(req)]?.();
    const source: Readable = decoder === undefined ? req : req.pipe(decoder);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const asked = performance.now();
    continueIfAwaited(res);

    const settle = (error?: ApiError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      source.removeAllListeners("data");
      if (decoder !== undefined) req.unpipe(decoder);
      if (error !== undefined) {
        // A body that stopped decoding part-way still has bytes on the wire: left there, they
        // would be read as the next request of a keep-alive connection.
        if (error.status !== 422 || !req.complete) {
          res.set("Connection", "close");
          closeAfterDiscarding(req, LINGER_AFTER_REFUSAL);
        }
        next(error);
        return;
      }
      res.locals.bodyMs = performance.now() - asked;
      try {
        req.body = UTF8.decode(Buffer.concat(chunks, size));
      } catch {
        next(new ApiError("invalid_json", "The request body is not UTF-8 text."));
        return;
      }
      next();
    };

    const deadline = setTimeout(
      () => {
        settle(
          new ApiError(
            "request_timeout",
            `The request body did not arrive within ${seconds(timeoutMs)} of its headers.`,
          ),
        );
      },
      Math.max(0, res.locals.receivedAt + timeoutMs - performance.now()),
    );
    source.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) settle(tooLarge());
      else chunks.push(chunk);
    });
    source.once("end", () => {
      settle();
    });
    // `on`, not `once`: a second error after the answer must not become an unhandled one.
    source.on("error", () => {
      settle(new ApiError("invalid_json", "The request body could not be decoded."));
    });
  };
}

/**
 * Parses the text read by {@link readBodyText} into a checked {@link GraphQLRequestBody}; the
 * persisted-documents stage comes next, then {@link checkQueryText}.
 */
export const parseGraphQLBody: RequestHandler = (req, _res, next) => {
  try {
    req.body = parseRequestBody(typeof req.body === "string" ? req.body : "");
    next();
  } catch (error) {
    next(error);
  }
};

/**
 * Strict JSON (an empty body, a raw control character inside a string and trailing garbage are
 * all `invalid_json`: `JSON.parse` refuses each), then the request shape (contract §3's order).
 */
export function parseRequestBody(text: string): GraphQLRequestBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", text.trim() === "" ? "The request body is empty." : undefined);
  }
  return checkShape(value);
}

/** The query length in code points, then an empty query (contract §3, after persisted documents). */
export const checkQueryText: RequestHandler = (req, _res, next) => {
  try {
    const { query } = req.body as GraphQLRequest;
    checkQueryLength(query);
    next();
  } catch (error) {
    next(error);
  }
};

/** Throws `query_too_long` or `parse_error` (empty) for a query text the contract refuses unread. */
export function checkQueryLength(query: string): void {
  if (exceedsCodePoints(query, MAX_QUERY_CHARACTERS)) {
    throw new ApiError(
      "query_too_long",
      `The query is longer than ${count(MAX_QUERY_CHARACTERS)} characters.`,
    );
  }
  if (query.trim() === "") throw new ApiError("parse_error", "The query is empty.");
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkShape(value: unknown): GraphQLRequestBody {
  const refuse = (message: string) => new ApiError("validation_failed", message);
  if (Array.isArray(value))
    throw refuse("Batched requests are not supported: send one JSON object per request.");
  if (!isObject(value)) throw refuse('The request body must be a JSON object with a "query" string.');
  const { query, variables, operationName, extensions, documentId } = value;
  const persisted =
    documentId !== undefined || (isObject(extensions) && extensions.persistedQuery !== undefined);
  if (query !== undefined && typeof query !== "string") throw refuse('"query" must be a string.');
  if (query === undefined && !persisted) throw refuse('The request body must have a "query" string.');
  if (documentId !== undefined && typeof documentId !== "string")
    throw refuse('"documentId" must be a string.');
  if (variables !== undefined && variables !== null && !isObject(variables)) {
    throw refuse('"variables" must be a JSON object.');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw refuse('"operationName" must be a string.');
  }
  if (extensions !== undefined && extensions !== null && !isObject(extensions)) {
    throw refuse('"extensions" must be a JSON object.');
  }
  return value;
}

/** True when `text` has more than `max` code points, counted without building an array. */
export function exceedsCodePoints(text: string, max: number): boolean {
  if (text.length <= max) return false;
  // A string iterates by code point: a surrogate pair is one character.
  const characters = text[Symbol.iterator]();
  for (let count = 0; !characters.next().done;) if (++count > max) return true;
  return false;
}
