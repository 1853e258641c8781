import express, { type Request, type RequestHandler } from "express";
import { ApiError } from "../errors/catalogue.js";

/** Contract §5: the body limit (after content decoding) and the query length in code points. */
export const MAX_BODY_BYTES = 65_536;
export const MAX_QUERY_CHARACTERS = 10_000;

/** Contract §2: the content codings a request body may use. */
const ACCEPTED_ENCODINGS = new Set(["identity", "gzip", "deflate", "br"]);

/** A GraphQL-over-HTTP request body, as the contract allows it. */
export interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

const contentCoding = (req: Request) => (req.get("content-encoding") ?? "identity").trim().toLowerCase();

/** 415 unless the body is declared `application/json` in an encoding the contract accepts. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (req.is("application/json") !== "application/json" || !ACCEPTED_ENCODINGS.has(contentCoding(req))) {
    next(new ApiError("unsupported_media_type"));
    return;
  }
  next();
};

/**
 * 413 from `Content-Length` alone: body-parser would read an oversized body to its end before
 * refusing it, so an announced one is refused unread and the connection closed. (With a content
 * coding the header counts encoded bytes; the decoded size is checked while reading.)
 */
export const refuseAnnouncedOversizedBody: RequestHandler = (req, res, next) => {
  const length = Number(req.get("content-length"));
  if (contentCoding(req) === "identity" && length > MAX_BODY_BYTES) {
    res.set("Connection", "close");
    next(new ApiError("payload_too_large"));
    return;
  }
  next();
};

/** Reads (and decodes) the body as text, at most {@link MAX_BODY_BYTES} after decoding. */
export const readBodyText: RequestHandler = express.text({ type: () => true, limit: MAX_BODY_BYTES });

/** Parses the text read by {@link readBodyText} into a checked {@link GraphQLRequestBody}. */
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
 * all `invalid_json`: `JSON.parse` refuses each), then the request shape, the query length in
 * code points, and an empty query — in the contract's order of checks.
 */
export function parseRequestBody(text: string): GraphQLRequestBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", text.trim() === "" ? "The request body is empty." : undefined);
  }
  const body = checkShape(value);
  if (exceedsCodePoints(body.query, MAX_QUERY_CHARACTERS)) throw new ApiError("query_too_long");
  if (body.query.trim() === "") throw new ApiError("parse_error", "The query is empty.");
  return body;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkShape(value: unknown): GraphQLRequestBody {
  const refuse = (message: string) => new ApiError("validation_failed", message);
  if (Array.isArray(value))
    throw refuse("Batched requests are not supported: send one JSON object per request.");
  if (!isObject(value)) throw refuse('The request body must be a JSON object with a "query" string.');
  const { query, variables, operationName, extensions } = value;
  if (typeof query !== "string") throw refuse('The request body must have a "query" string.');
  if (variables !== undefined && variables !== null && !isObject(variables)) {
    throw refuse('"variables" must be a JSON object.');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw refuse('"operationName" must be a string.');
  }
  if (extensions !== undefined && extensions !== null && !isObject(extensions)) {
    throw refuse('"extensions" must be a JSON object.');
  }
  return value as unknown as GraphQLRequestBody;
}

/** True when `text` has more than `max` code points, counted without building an array. */
function exceedsCodePoints(text: string, max: number): boolean {
  if (text.length <= max) return false;
  // A string iterates by code point: a surrogate pair is one character.
  const characters = text[Symbol.iterator]();
  for (let count = 0; !characters.next().done;) if (++count > max) return true;
  return false;
}
