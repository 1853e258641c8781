import type { RequestHandler } from "express";
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
import { FiniteFloatRule } from "./finite-float.js";
import { KnownOperationTypeRule } from "./known-operation-type.js";
import { count, LIMITS } from "../contract.js";
import { sha256Hex } from "../documents/document-hash.js";
import type { DocumentOutcome, ParsedDocuments } from "./parsed-documents.js";
import {
  bracketSyntaxError,
  excessBracketNesting,
  excessValueNesting,
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
  FiniteFloatRule,
];

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
 * more than {@link MAX_BRACKET_NESTING} deep (graphql-js's recursive parser would overflow its
 * stack; `parse_error` when they never close, else `validation_failed` when an argument's value
 * nests that deep, as for a variable's, and `query_too_deep` when fields do), parses the query
 * (`parse_error` in graphql-js's words when it does not parse) and validates it
 * ({@link validationErrors}). A refusal carries every error with its own code and location
 * (contract §3). The parsed document is remembered by its text's SHA-256 in `documents`, where
 * Apollo and every later stage read it: a document is parsed once.
 */
export function validateDocument(schema: GraphQLSchema, documents: ParsedDocuments): RequestHandler {
  return (req, _res, next) => {
    const { query, variables } = req.body as GraphQLRequest;
    const hash = sha256Hex(query);
    let outcome = documents.get(hash);
    if (outcome === undefined) {
      outcome = outcomeOf(query);
      documents.remember(hash, outcome, query.length);
    }
    if ("refusal" in outcome) {
      next(outcome.refusal);
      return;
    }
    // The variables after the document (§3's order: a document that does not parse is a parse error).
    if (excessValueNesting(variables)) {
      const message = `Variables nest objects and lists more than ${MAX_BRACKET_NESTING} levels deep; the maximum is ${MAX_BRACKET_NESTING}.`;
      next(new DocumentRefused([{ code: "validation_failed", message }]));
      return;
    }
    next();
  };

  /** The parsed and valid document of `query`, or its refusal. */
  function outcomeOf(query: string): DocumentOutcome {
    const nesting = excessBracketNesting(query);
    if (nesting !== undefined) {
      // Too deep for the recursive parser; one that could never parse is still a parse error.
      const syntax = bracketSyntaxError(query);
      if (syntax !== undefined) return { refusal: new DocumentRefused([{ code: "parse_error", ...syntax }]) };
      // A value nested too deep is refused as a variable nested too deep is; fields, as too deep.
      if (nesting.inValue) {
        const message = `Query nests brackets ${count(nesting.levels)} levels deep in an argument's value or a variable's definition; the maximum is ${MAX_BRACKET_NESTING}.`;
        return { refusal: new DocumentRefused([{ code: "validation_failed", message }]) };
      }
      const message = `Query nests brackets ${count(nesting.levels)} levels deep; the maximum is ${MAX_BRACKET_NESTING} (and ${LIMITS.depth} levels of fields).`;
      return { refusal: new DocumentRefused([{ code: "query_too_deep", message }]) };
    }
    let document;
    try {
      document = parse(query);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const { message, locations } = error;
      return {
        refusal: new DocumentRefused([
          { code: "parse_error", message, ...(locations !== undefined && { locations }) },
        ]),
      };
    }
    const refusals = validationErrors(schema, document).map((error): Refusal => ({
      code: isErrorCode(error.extensions.code) ? error.extensions.code : "validation_failed",
      message: error.message,
      ...(error.locations !== undefined && { locations: error.locations }),
    }));
    const [first, ...more] = refusals;
    return first === undefined ? { document } : { refusal: new DocumentRefused([first, ...more]) };
  }
}
