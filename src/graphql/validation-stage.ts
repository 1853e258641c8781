import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import {
  GraphQLError,
  OverlappingFieldsCanBeMergedRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from "graphql";
import { DocumentRefused, isErrorCode, type Refusal } from "../errors/catalogue.js";
import type { GraphQLRequest } from "../http/request-body.js";
import { KnownOperationTypeRule } from "./known-operation-type.js";
import { count, LIMITS } from "../contract.js";
import {
  bracketSyntaxError,
  excessBracketNesting,
  MAX_BRACKET_NESTING,
  queryShapeRules,
} from "./query-shape.js";

/**
 * Every rule but graphql-js's field merging, in one pass: contract §5's depth and width first
 * (the width rule reports when the document is entered), then the schema's rules and ours.
 */
const FIRST_PASS = [
  ...queryShapeRules,
  ...specifiedRules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule),
  KnownOperationTypeRule,
];

/** Remembered validation outcomes: at most this many documents, and this many characters of them. */
const REMEMBERED = { documents: 1_000, characters: 2_000_000 };

/**
 * Validation errors of `document`, each with its contract code, in time linear in the document:
 * field merging, which compares every pair of fields with one response name (fragments inlined),
 * runs only on documents that passed every other rule, depth and width included, which bound it.
 */
export function validationErrors(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  const errors = validate(schema, document, FIRST_PASS);
  return errors.length > 0 ? errors : validate(schema, document, [OverlappingFieldsCanBeMergedRule]);
}

/**
 * The validation stage, just before Apollo (whose own validation is off): refuses brackets nested
 * deeper than any document within the limits (graphql-js's recursive parser would overflow its
 * stack; `parse_error` when they never close, `query_too_deep` when they do), parses the query and validates it ({@link validationErrors}). A refusal carries every
 * error with its own code and location (contract §3). A document that does not parse goes on to
 * Apollo, which answers `parse_error` in graphql-js's words.
 */
export function validateDocument(schema: GraphQLSchema): RequestHandler {
  // What each recent document came to: dashboards send the same few documents again and again,
  // and a document's validity depends on its text alone (variables are checked later).
  const outcomes = new LRUCache<string, { refusal: DocumentRefused | undefined }>({
    max: REMEMBERED.documents,
    maxSize: REMEMBERED.characters,
    sizeCalculation: (_outcome, query) => Math.max(1, query.length),
  });
  return (req, _res, next) => {
    const { query } = req.body as GraphQLRequest;
    const known = outcomes.get(query);
    if (known !== undefined) {
      next(known.refusal);
      return;
    }
    const outcome = outcomeOf(query);
    if (outcome !== "unparsed") outcomes.set(query, { refusal: outcome });
    next(outcome === "unparsed" ? undefined : outcome);
  };

  /** The refusal of `query`, `undefined` when it is valid, or "unparsed" for Apollo to answer. */
  function outcomeOf(query: string): DocumentRefused | undefined | "unparsed" {
    const nesting = excessBracketNesting(query);
    if (nesting !== undefined) {
      // Too deep for the recursive parser; one that could never parse is still a parse error.
      const syntax = bracketSyntaxError(query);
      if (syntax !== undefined) return new DocumentRefused([{ code: "parse_error", ...syntax }]);
      const message = `Query nests brackets ${count(nesting)} levels deep; the maximum is ${MAX_BRACKET_NESTING} (and ${LIMITS.depth} levels of fields).`;
      return new DocumentRefused([{ code: "query_too_deep", message }]);
    }
    let document;
    try {
      document = parse(query);
    } catch (error) {
      if (error instanceof GraphQLError) return "unparsed";
      throw error;
    }
    const refusals = validationErrors(schema, document).map((error): Refusal => ({
      code: isErrorCode(error.extensions.code) ? error.extensions.code : "validation_failed",
      message: error.message,
      ...(error.locations !== undefined && { locations: error.locations }),
    }));
    const [first, ...more] = refusals;
    return first === undefined ? undefined : new DocumentRefused([first, ...more]);
  }
}
