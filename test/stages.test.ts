// Pure units of the pipeline's stages, both sides of every boundary, no database or network:
// body parsing, the bracket scan, depth and width, `limit`, the cost estimate, quota arithmetic,
// and how a failure maps to its answer.
import { expect } from "chai";
import { parse, type GraphQLSchema } from "graphql";
import { Neo4jError } from "neo4j-driver";
import type { Request, Response } from "express";
import { ApiError, DocumentRefused } from "../src/errors/catalogue.js";
import { estimateCost } from "../src/graphql/cost.js";
import { findArgumentViolations } from "../src/graphql/argument-checks.js";
import { planDocument } from "../src/graphql/operation-plan.js";
import { bracketSyntaxError, excessBracketNesting, MAX_BRACKET_NESTING } from "../src/graphql/query-shape.js";
import { library, readTypeDefs } from "../src/graphql/schema.js";
import { validateDocument, validationErrors } from "../src/graphql/validation-stage.js";
import { ParsedDocuments } from "../src/graphql/parsed-documents.js";
import { failureResponse } from "../src/http/failure.js";
import { checkQueryLength, parseRequestBody } from "../src/http/request-body.js";
import { documentReference } from "../src/documents/document-reference.js";
import { sha256Hex } from "../src/documents/document-hash.js";
import { Neo4jDidNotAnswer } from "../src/neo4j/deadline.js";
import { decide, quotaWindows } from "../src/quota/policy.js";

/** The code the body stages (shape, persisted document, query length) refuse `text` with, or "accepted". */
function bodyOutcome(text: string): string {
  try {
    const reference = documentReference(parseRequestBody(text));
    if (reference.query !== undefined) checkQueryLength(reference.query);
    return "accepted";
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

describe("documentReference (pure)", () => {
  const query = "{ __typename }";
  const hash = sha256Hex(query);
  const apq = (sha256Hash: unknown, version: unknown = 1) => ({ persistedQuery: { version, sha256Hash } });

  it("takes text alone, text with its own hash, or a hash alone (APQ or documentId)", () => {
    expect(documentReference({ query })).to.deep.equal({ query });
    expect(documentReference({ query, extensions: apq(hash) })).to.deep.equal({ query, sha256: hash });
    expect(documentReference({ extensions: apq(hash) })).to.deep.equal({ sha256: hash });
    expect(documentReference({ documentId: `sha256:${hash}` })).to.deep.equal({ sha256: hash });
    expect(documentReference({ documentId: `sha256:${hash}`, extensions: apq(hash) })).to.deep.equal({
      sha256: hash,
    });
  });

  it("refuses text under another hash as persisted_query_mismatch, one hex digit changed", () => {
    const other = (hash.startsWith("0") ? "1" : "0") + hash.slice(1);
    const outcome = (body: object) => bodyOutcome(JSON.stringify(body));
    expect(outcome({ query, extensions: apq(hash) })).to.equal("accepted");
    expect(outcome({ query, extensions: apq(other) })).to.equal("persisted_query_mismatch");
    expect(outcome({ query: query + " ", extensions: apq(hash) })).to.equal("persisted_query_mismatch");
  });

  it("refuses a malformed hash, version or documentId, and both forms disagreeing, as validation_failed", () => {
    const outcome = (body: object) => bodyOutcome(JSON.stringify(body));
    for (const body of [
      { extensions: apq(hash.toUpperCase()) },
      { extensions: apq(hash.slice(1)) },
      { extensions: apq(hash + "0") },
      { extensions: apq(hash, 2) },
      { extensions: { persistedQuery: "garbage" } },
      { extensions: { persistedQuery: null } },
      { documentId: hash },
      { documentId: `sha1:${hash}` },
      { documentId: 1 },
      { query, documentId: `sha256:${hash}` },
      { documentId: `sha256:${hash}`, extensions: apq("0".repeat(64)) },
      { extensions: {} },
    ])
      expect(outcome(body), JSON.stringify(body)).to.equal("validation_failed");
  });
});

describe("parseRequestBody (pure)", () => {
  it("counts the query in code points: 10,000 pass, 10,001 are query_too_long", () => {
    const body = (length: number) => JSON.stringify({ query: "{ __typename } #" + "😀".repeat(length - 16) });
    expect(bodyOutcome(body(10_000))).to.equal("accepted");
    expect(bodyOutcome(body(10_001))).to.equal("query_too_long");
  });

  it("refuses what is not strict JSON, then what is not a request object, in that order", () => {
    expect(bodyOutcome("")).to.equal("invalid_json");
    expect(bodyOutcome('{"query": "{ a }"} x')).to.equal("invalid_json");
    expect(bodyOutcome('{"query": "a\nb"}')).to.equal("invalid_json");
    expect(bodyOutcome('[{"query": "{ a }"}]')).to.equal("validation_failed");
    expect(bodyOutcome('{"query": 1}')).to.equal("validation_failed");
    expect(bodyOutcome('{"query": "{ a }", "variables": []}')).to.equal("validation_failed");
    expect(bodyOutcome('{"query": "{ a }", "extensions": {"persistedQuery": {}}}')).to.equal(
      "validation_failed",
    );
    expect(bodyOutcome('{"query": "  "}')).to.equal("parse_error");
    expect(
      bodyOutcome('{"query": "{ a }", "variables": null, "operationName": null, "extensions": null}'),
    ).to.equal("accepted");
  });
});

describe("the validation stage's pure parts", () => {
  let schema: GraphQLSchema;
  before(async () => {
    schema = await library(await readTypeDefs()).getSchema();
  });
  const codes = (query: string) =>
    validationErrors(schema, parse(query)).map((error) =>
      typeof error.extensions.code === "string" ? error.extensions.code : "validation_failed",
    );
  /** `{ topics { decisions { topic { … } } } }` with `levels` field levels. */
  const nested = (levels: number) => {
    const names = [
      "topics",
      "decisions",
      "topic",
      "decisions",
      "topic",
      "decisions",
      "topic",
      "decisions",
      "topic",
    ];
    return "{ " + names.slice(0, levels - 1).join(" { ") + " { id" + " }".repeat(levels - 1) + " }";
  };

  it("parses a document once: the stage remembers it by its SHA-256, and Apollo's document store reads that one", async () => {
    const documents = new ParsedDocuments();
    const stage = validateDocument(schema, documents);
    const run = (query: string) =>
      new Promise<unknown>((resolve) => {
        stage({ body: { query } } as Request, {} as Response, resolve);
      });
    const query = "{ topics(limit: 2) { id } }";
    expect(await run(query)).to.equal(undefined);
    const outcome = documents.get(sha256Hex(query));
    expect(outcome !== undefined && "document" in outcome).to.equal(true);
    expect(await run(query)).to.equal(undefined);
    expect(documents.get(sha256Hex(query)), "the same object, not parsed again").to.equal(outcome);
    // Apollo asks under its own prefix (the schema's hash) and gets that object.
    const document = outcome !== undefined && "document" in outcome ? outcome.document : undefined;
    expect(await documents.apolloStore.get(`abc123:${sha256Hex(query)}`)).to.equal(document);
    // A document that does not parse is refused here, in graphql-js's words, and remembered too.
    const refusal = await run("{ topics(limit: 2) { id }");
    expect(refusal).to.be.instanceOf(DocumentRefused);
    expect((refusal as DocumentRefused).refusals).to.deep.equal([
      {
        code: "parse_error",
        message: "Syntax Error: Expected Name, found <EOF>.",
        locations: [{ line: 1, column: 26 }],
      },
    ]);
    expect(await documents.apolloStore.get(`abc123:${sha256Hex("{ topics(limit: 2) { id }")}`)).to.equal(
      undefined,
    );
  });

  it("scans brackets without recursion: 256 levels pass, 257 are reported with their count and where", () => {
    const list = (depth: number) => `{ topics(limit: ${"[".repeat(depth)}1${"]".repeat(depth)}) { id } }`;
    expect(excessBracketNesting(list(MAX_BRACKET_NESTING - 1))).to.equal(undefined); // plus the braces: 256
    expect(excessBracketNesting(list(MAX_BRACKET_NESTING))).to.deep.equal({ levels: 257, inValue: true });
    expect(excessBracketNesting(list(5_000))).to.deep.equal({ levels: 5_001, inValue: true });
    // Selection sets nested that deep: fields, not a value; a value after them does not change it.
    const fields = (depth: number, then = "") => `${"{ a ".repeat(depth)}${then}${"}".repeat(depth)}`;
    expect(excessBracketNesting(fields(MAX_BRACKET_NESTING))).to.equal(undefined);
    expect(excessBracketNesting(fields(MAX_BRACKET_NESTING + 1))).to.deep.equal({
      levels: 257,
      inValue: false,
    });
    expect(excessBracketNesting(fields(300, "b(c: [[[1]]])"))).to.deep.equal({ levels: 303, inValue: false });
    // A value that goes over only below fields already past the contract's 8 levels: fields too deep.
    expect(excessBracketNesting(fields(250, `b(c: ${"[".repeat(8)}1${"]".repeat(8)})`))).to.deep.equal({
      levels: 258,
      inValue: false,
    });
    // A variable's default value is a value too.
    expect(
      excessBracketNesting(`query ($v: [[Int]] = ${"[".repeat(300)}${"]".repeat(300)}) { a }`),
    ).to.deep.equal({
      levels: 300,
      inValue: true,
    });
    expect(excessBracketNesting('{ a(s: "[[[[") }')).to.equal(undefined); // inside a string
    expect(excessBracketNesting('{ "unterminated')).to.equal(undefined); // the parser reports that
  });

  it("finds brackets that never close, or close with the other kind, without recursion and where they fail", () => {
    // Parentheses pair like brackets: a document nested too deep whose parentheses do not pair is a parse error.
    expect(bracketSyntaxError(`query ( ${"{ a ".repeat(300)}${"}".repeat(300)}`)).to.deep.equal({
      message: "Syntax Error: Unexpected <EOF>.",
      locations: [{ line: 1, column: 1509 }],
    });
    expect(bracketSyntaxError("{ a(x: [ ) ] }")).to.deep.equal({
      message: 'Syntax Error: Unexpected ")".',
      locations: [{ line: 1, column: 10 }],
    });
    expect(bracketSyntaxError(") { a }")).to.deep.equal({
      message: 'Syntax Error: Unexpected ")".',
      locations: [{ line: 1, column: 1 }],
    });
    expect(bracketSyntaxError("{ topics(limit: [[1]]) { id } }")).to.equal(undefined);
    expect(bracketSyntaxError(`{ a(b: ${"[".repeat(5_000)}`)).to.deep.equal({
      message: "Syntax Error: Unexpected <EOF>.",
      locations: [{ line: 1, column: 5_008 }],
    });
    expect(bracketSyntaxError("{ a(b: [1}) }")).to.deep.equal({
      message: 'Syntax Error: Unexpected "}".',
      locations: [{ line: 1, column: 10 }],
    });
    expect(bracketSyntaxError('{ a(s: "[[[[") }')).to.equal(undefined); // inside a string
  });

  it("passes 8 field levels and refuses 9 with query_too_deep", () => {
    expect(codes(nested(8))).to.deep.equal([]);
    expect(codes(nested(9))).to.deep.equal(["query_too_deep"]);
  });

  it("passes 50 fields in a selection set and refuses 51, fragments inlined, with query_too_wide", () => {
    const width = (n: number) =>
      `{ topics { ...F } } fragment F on Topic { ${Array(n).fill("id").join(" ")} }`;
    expect(codes(width(50))).to.deep.equal([]);
    expect(codes(width(51))).to.deep.equal(["query_too_wide"]);
  });

  it("passes 30 aliases and 50 directives, and refuses 31 and 51 with query_too_wide", () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(" ")} }`;
    // Two directives a field, so that 51 directives stay within 50 fields.
    const directives = (n: number) =>
      `{ topic(id: "t1") { ${Array.from({ length: Math.ceil(n / 2) }, (_, i) =>
        2 * i + 1 < n ? "id @include(if: true) @skip(if: false)" : "id @include(if: true)",
      ).join(" ")} } }`;
    expect(codes(aliases(30))).to.deep.equal([]);
    expect(codes(aliases(31))).to.deep.equal(["query_too_wide"]);
    expect(codes(directives(50))).to.deep.equal([]);
    expect(codes(directives(51))).to.deep.equal(["query_too_wide"]);
  });

  it("counts aliases and directives over the whole document: every operation, each fragment where it is spread, each spread's own", () => {
    const spread = (n: number) => Array(n).fill("...T @include(if: true)").join(" ");
    const spreads = (n: number) =>
      `{ topics { ${spread(25)} } topic(id: "t1") { ${spread(n - 25)} } } fragment T on Topic { id }`;
    expect(codes(spreads(50))).to.deep.equal([]);
    expect(codes(spreads(51))).to.deep.equal(["query_too_wide"]);
    const aliased = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => `a${i + from}: __typename`).join(" ");
    // Two operations: 15 + 15 pass, 15 + 16 do not (the document holds 31).
    expect(codes(`query A { ${aliased(15)} } query B { ${aliased(15)} }`)).to.deep.equal([]);
    expect(codes(`query A { ${aliased(15)} } query B { ${aliased(16)} }`)).to.deep.equal(["query_too_wide"]);
    // One fragment of 15 aliases, spread twice (30) and three times (45).
    const fragment = `fragment F on Topic { ${aliased(15)} }`;
    expect(codes(`{ topics { ...F } topic(id: "t1") { ...F } } ${fragment}`)).to.deep.equal([]);
    expect(
      codes(`{ topics { ...F } topic(id: "t1") { ...F } more: topics { id } } ${fragment}`),
    ).to.deep.equal(["query_too_wide"]);
    // An operation's own directives count too (an unknown one is also a schema error).
    const fields = Array.from({ length: 25 }, () => "id @include(if: true) @skip(if: false)").join(" ");
    expect(codes(`query Q { topics { ${fields} } }`)).to.deep.equal([]);
    expect(codes(`query Q @x { topics { ${fields} } }`)).to.have.members([
      "query_too_wide",
      "validation_failed",
    ]);
  });

  it("keeps each error's own code when a refused document also breaks the schema", () => {
    expect(codes(`{ nope ${nested(9).slice(1, -1)} }`)).to.have.members([
      "query_too_deep",
      "validation_failed",
    ]);
  });

  it("runs field merging only within the limits: 370 differing same-name fields get the width errors alone", () => {
    const same = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `t: topics(limit: ${(i % 100) + 1}) { id }`).join(" ")} }`;
    expect(codes(same(370))).to.deep.equal(["query_too_wide", "query_too_wide"]); // fields and aliases
    expect(codes(same(2))).to.deep.equal(["validation_failed"]); // within the limits: the merge conflict
  });

  it("checks limit arguments: 1 and 100 pass, 0 and 101 do not, null is the default, variables count", () => {
    const violations = (query: string, variables?: Record<string, unknown>) =>
      findArgumentViolations(planDocument(schema, parse(query), variables)).length;
    expect(violations("{ topics(limit: 1) { decisions(limit: 100) { id } } }")).to.equal(0);
    expect(violations("{ topics(limit: 0) { id } }")).to.equal(1);
    expect(violations("{ topics(limit: 101) { id } }")).to.equal(1);
    expect(violations("{ topics(limit: null) { id } }")).to.equal(0);
    expect(violations("query ($n: Int) { topics(limit: $n) { id } }", { n: 101 })).to.equal(1);
    expect(violations("query ($n: Int) { topics(limit: $n) { id } }", { n: 100 })).to.equal(0);
  });

  it("estimates cost per contract §5: exactly 50,000, and one object more is 50,001", () => {
    const cost = (query: string, variables?: Record<string, unknown>) =>
      estimateCost(planDocument(schema, parse(query), variables));
    const a = "a: topics(limit: 100) { decisions(limit: 100) { decidedBy { name } topic { name } } }";
    const b = "b: topics(limit: 100) { decisions(limit: 99) { decidedBy { name } } }";
    expect(cost(`{ ${a} ${b} }`)).to.equal(50_000);
    expect(cost(`{ ${a} ${b} c: topic(id: "t1") { id } }`)).to.equal(50_001);
    expect(cost("{ topics { id } }")).to.equal(20); // the default limit
    expect(cost("query ($n: Int) { topics(limit: $n) { id } }", { n: 7 })).to.equal(7);
    expect(cost("{ __schema { types { name } } }")).to.equal(0);
  });
});

describe("quota arithmetic (pure)", () => {
  const limits = { requestsPerMinute: 100, requestsPerDay: 10_000, graphqlQueriesPerDay: 5_000 };
  const now = Date.parse("2026-11-24T23:59:59.500Z");
  const windows = quotaWindows(limits, now);

  it("puts a request in its UTC minute and day, and counts whole seconds to each reset", () => {
    expect(windows.map((window) => window.id)).to.deep.equal([
      "2026-11-24T23:59",
      "2026-11-24",
      "2026-11-24",
    ]);
    const decision = decide(windows, { admitted: true, counts: [1, 1, 1] }, now);
    expect(decision.windows.map((state) => state.resetSeconds)).to.deep.equal([1, 1, 1]);
    expect(decision.windows.map((state) => state.remaining)).to.deep.equal([99, 9_999, 4_999]);
  });

  it("admits the 100th request of a minute with none left, and names the exhausted window past it", () => {
    expect(decide(windows, { admitted: true, counts: [100, 100, 100] }, now).windows[0]?.remaining).to.equal(
      0,
    );
    const refused = decide(windows, { admitted: false, counts: [100, 100, 100] }, now);
    expect(refused.refusedBy?.window.code).to.equal("rate_limited");
  });

  it("names the window that resets last when several are spent (day before graphql-day on a tie)", () => {
    const midday = Date.parse("2026-11-24T12:00:00.000Z");
    const refused = decide(
      quotaWindows(limits, midday),
      { admitted: false, counts: [100, 10_000, 5_000] },
      midday,
    );
    expect(refused.refusedBy?.window.code).to.equal("daily_quota_exceeded");
  });
});

describe("failureResponse (pure)", () => {
  const driverError = (code: string) => new Neo4jError("irrelevant", code, "50N42", "");

  it("answers the database's try-again errors 503 with Retry-After, a timeout 504, anything else 500", () => {
    const answer = (error: unknown) => {
      const { status, code, headers } = failureResponse(error, "r1");
      return { status, code, retryAfter: headers["Retry-After"] };
    };
    expect(answer(driverError("Neo.TransientError.General.DatabaseUnavailable"))).to.deep.equal({
      status: 503,
      code: "service_unavailable",
      retryAfter: "5",
    });
    expect(answer(driverError("ServiceUnavailable")).status).to.equal(503);
    // Neo4j answers, but not this query, for the memory it needed: a 503 that says so.
    for (const code of [
      "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
      "Neo.ClientError.General.TransactionOutOfMemoryError",
    ]) {
      const memory = failureResponse(driverError(code), "r1");
      expect([memory.status, memory.headers["Retry-After"]], code).to.deep.equal([503, "5"]);
      expect(memory.body.errors[0]?.message, code).to.match(/ran out of memory for this query/);
    }
    expect(failureResponse(driverError("ServiceUnavailable"), "r1").body.errors[0]?.message).to.match(
      /cannot be reached/,
    );
    expect(answer(new Neo4jDidNotAnswer("Neo4j did not answer within 3000 ms.")).status).to.equal(503);
    // The driver's words when its pool closed under a request (the service shutting down): no code.
    expect(
      answer(new Neo4jError("Pool is closed, it is no more able to serve requests.", "N/A", "50N42", ""))
        .status,
    ).to.equal(503);
    expect(answer(driverError("Neo.ClientError.Transaction.TransactionTimedOut")).status).to.equal(504);
    expect(answer(driverError("Neo.ClientError.Statement.ArithmeticError")).status).to.equal(500);
    expect(answer(new ApiError("rate_limited", "x", { "Retry-After": "3" }))).to.deep.equal({
      status: 429,
      code: "rate_limited",
      retryAfter: "3",
    });
  });

  it("writes a log line for failures that are not refusals, naming the driver's code only", () => {
    expect(failureResponse(driverError("Neo.ClientError.Statement.ArithmeticError"), "r1").logLine).to.equal(
      "request r1 failed with internal_error: Neo4jError Neo.ClientError.Statement.ArithmeticError",
    );
    expect(failureResponse(new ApiError("not_found"), "r1").logLine).to.equal(undefined);
  });
});
