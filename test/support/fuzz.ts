// What the fuzz test sends and what it expects back: random requests (methods, paths, headers,
// encodings, bodies and grammar-built GraphQL documents over the real schema) and the contract's
// promises about every answer (contract §2, §3).
import { request as httpRequest } from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { ERROR_CATALOGUE } from "../../src/errors/catalogue.js";
import { LIMITS } from "../../src/contract.js";

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

type Gen = fc.GeneratorValue;

/** One of `items`, chosen by index (fast-check compares constants deeply; schema objects are cyclic). */
const pick = <T>(g: Gen, items: readonly T[]): T => {
  const item = items[g(fc.integer, { min: 0, max: items.length - 1 })];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
};
const chance = (g: Gen, percent: number) => g(fc.integer, { min: 1, max: 100 }) <= percent;

/** Strings a hostile client might put where a name, a value or a header goes. */
const oddString = (g: Gen) =>
  pick(g, [
    () => g(fc.string, { maxLength: 12 }),
    () => g(fc.string, { unit: "grapheme", maxLength: 8 }),
    () =>
      pick(g, ["", " ", "\u0000", "\uFFFF", "😀", "𝔘", "\\", '"', "{", "null", "__proto__", "constructor"]),
    () => "x".repeat(g(fc.integer, { min: 0, max: 400 })),
  ])();

const name = (g: Gen) =>
  pick(g, ["a", "b", "x", "F", "Frag", "id", "__typename", "n1", "_", "limit", "query", "fragment", "on"]);

/**
 * The JSON value a request sends for a variable of `type`: lists, input objects and enums as
 * JSON, a scalar as its literal's JSON; with mischief, sometimes an odd one.
 */
function variableValue(g: Gen, type: GraphQLInputType, mischief: boolean, depth = 0): unknown {
  const named = getNamedType(type);
  const nullable = isNonNullType(type) ? type.ofType : type;
  // A list (`AND: [DecisionWhere!]`, `in: [Status!]`): its item as a value, one level deeper.
  if (isListType(nullable) && (!mischief || chance(g, 90)))
    return depth >= INPUT_DEPTH ? [] : [variableValue(g, nullable.ofType, mischief, depth + 1)];
  if (isInputObjectType(named) && !isListType(nullable) && (!mischief || chance(g, 90))) {
    const value: Record<string, unknown> = {};
    if (depth >= INPUT_DEPTH) return value;
    for (const field of Object.values(named.getFields()))
      if (
        (isNonNullType(field.type) && field.defaultValue === undefined) ||
        chance(g, inputFieldChance(named))
      )
        value[field.name] = variableValue(g, field.type, mischief, depth + 1);
    return value;
  }
  // An enum's name as a JSON string: `ASC` is not JSON.
  if (isEnumType(named) && !(mischief && chance(g, 10)))
    return pick(
      g,
      named.getValues().map((value) => value.name),
    );
  // A scalar's literal is its JSON (without variables of its own: a value holds none).
  const text = literal(g, type, null, mischief, depth);
  try {
    return JSON.parse(text);
  } catch {
    return oddString(g);
  }
}

/** How deep input objects nest: a `where` tree is recursive (`AND`, `NOT`, links). */
const INPUT_DEPTH = 4;

/**
 * How likely an optional field of an input object is given, in percent: half of a small input's
 * (`orderBy`), about two of a `where` tree's (a dozen fields, several of them trees again).
 */
const inputFieldChance = (input: { getFields: () => object }) =>
  Math.min(50, Math.round(200 / Object.keys(input.getFields()).length));

/** A literal for an argument of `type`: usually well typed, sometimes not, sometimes a variable. */
function literal(
  g: Gen,
  type: GraphQLInputType,
  variables: Variables | null,
  mischief: boolean,
  depth = 0,
): string {
  if (variables !== null && chance(g, 10)) {
    const variable = `v${variables.size}`;
    variables.set(variable, { type: typeName(type), value: variableValue(g, type, mischief, depth) });
    return `$${variable}`;
  }
  if (mischief && chance(g, 10))
    return pick(g, ["null", "1", '"s"', "true", "[1]", "{a: 1}", "ENUM", "-0", "1e999"]);
  const named = getNamedType(type);
  const nullable = isNonNullType(type) ? type.ofType : type;
  // The item's own type, non-null included: a variable standing for an item is declared with it.
  if (isListType(nullable)) return `[${literal(g, nullable.ofType, variables, mischief, depth)}]`;
  if (isEnumType(named))
    return pick(
      g,
      named.getValues().map((value) => value.name),
    );
  if (isInputObjectType(named)) {
    if (depth >= INPUT_DEPTH) return "{}";
    // Required fields (usually), optional ones sometimes: `orderBy: {field: TITLE, direction: ASC}`.
    const fields = Object.values(named.getFields()).filter((field) =>
      isNonNullType(field.type) && field.defaultValue === undefined
        ? !mischief || chance(g, 90)
        : chance(g, inputFieldChance(named)),
    );
    return `{${fields.map((field) => `${field.name}: ${literal(g, field.type, variables, mischief, depth + 1)}`).join(", ")}}`;
  }
  switch (named.name) {
    case "Int":
      return String(
        mischief
          ? pick(g, [1, 20, 100, 0, -1, 101, 2147483647, 2147483648, g(fc.integer)])
          : pick(g, [1, 2, 5, 20, 100]),
      );
    case "Float":
      return String(pick(g, [0, 0.5, 1, -1.5, 1e308]));
    case "Boolean":
      return pick(g, ["true", "false"]);
    case "Date":
      return JSON.stringify(
        mischief
          ? pick(g, ["2024-02-30", "2025-13-01", " 2025-01-01", "0000-01-01", "2025-01-01T00:00:00Z"])
          : pick(g, ["2025-01-01", "2024-02-29", "1999-12-31"]),
      );
    case "DateTime":
      return JSON.stringify(
        mischief
          ? pick(g, ["2025-03-31", "2025-03-31T14:05Z", "2025-02-30T00:00:00Z", "0000-01-01T00:00:00-01:00"])
          : pick(g, [
              "2025-03-31T14:05:00Z",
              "2025-03-31T16:05:00.123456789+02:00",
              "1999-12-31T23:59:59.999Z",
            ]),
      );
    default:
      // Ids, and texts a `search` may hold: Lucene's syntax, accents, other scripts (issue 24).
      return JSON.stringify(
        mischief
          ? oddString(g)
          : pick(g, [
              "t1",
              "d1",
              "d10",
              "p1",
              "f1",
              "nope",
              "a AND (b",
              "title:x*~",
              '\\ + - && || ! ( ) { } [ ] ^ " ~ * ? : /',
              "Prïcing O'Brien",
              "日本 テキ",
            ]),
      );
  }
}

const typeName = (type: GraphQLInputType): string => type.toString();

/** The variables a document declares: type and the value the request sends. */
type Variables = Map<string, { type: string; value: unknown }>;

/** A selection set over `type`, `depth` levels at most, with aliases, directives and fragments. */
function selectionSet(
  g: Gen,
  schema: GraphQLSchema,
  type: GraphQLObjectType | GraphQLInterfaceType,
  depth: number,
  context: { variables: Variables; fragments: string[]; budget: number; aliases: number; mischief: boolean },
  /** Response names already selected where this set merges (fragments merge into their parent). */
  used = new Set<string>(),
): string {
  const fields = Object.values(type.getFields());
  const { mischief } = context;
  const count = g(fc.integer, { min: 1, max: mischief && chance(g, 20) ? 60 : 4 });
  const parts: string[] = [];
  // Each selection spends from one budget, so a document stays small whatever its shape.
  for (let i = 0; i < count && (i === 0 || context.budget-- > 0); i++) {
    if (chance(g, 3)) {
      parts.push(mischief ? pick(g, ["__typename", name(g), "unknownField"]) : "__typename");
      continue;
    }
    if (chance(g, 8) && depth > 0) {
      // A named fragment on this type, defined once and spread here.
      const fragmentName = `F${context.fragments.length}`;
      context.fragments.push("");
      const index = context.fragments.length - 1;
      context.fragments[index] =
        `fragment ${fragmentName} on ${type.name} ${selectionSet(g, schema, type, depth - 1, context, used)}`;
      parts.push(`...${fragmentName}`);
      continue;
    }
    if (chance(g, 5) && depth > 0) {
      parts.push(`... on ${type.name} ${selectionSet(g, schema, type, depth - 1, context, used)}`);
      continue;
    }
    if (isInterfaceType(type) && chance(g, 40) && depth > 0) {
      // A type's own fields under an interface (`... on Decision { title }`).
      const possible = pick(g, schema.getPossibleTypes(type));
      parts.push(`... on ${possible.name} ${selectionSet(g, schema, possible, depth - 1, context, used)}`);
      continue;
    }
    // Where no level is left, a leaf (mostly): an object field there would nest too deep.
    const leaves = fields.filter((field) => !isCompositeType(getNamedType(field.type)));
    const field = pick(g, depth > 0 || leaves.length === 0 || (mischief && chance(g, 10)) ? fields : leaves);
    // Without mischief, within the contract's aliases (§5).
    const alias = chance(g, 15) && (mischief || context.aliases++ < LIMITS.aliases) ? `${name(g)}${i}: ` : "";
    // Without mischief, one field per response name where sets merge: no merging conflicts.
    const responseName = alias === "" ? field.name : alias.slice(0, -2);
    if (!mischief && used.has(responseName)) continue;
    used.add(responseName);
    // A made-up `after` is never a cursor: only mischief sends one.
    const args = field.args
      .filter((arg) => mischief || arg.name !== "after")
      .filter((arg) => (isNonNullType(arg.type) && arg.defaultValue === undefined) || chance(g, 40))
      .map((arg: GraphQLArgument) => `${arg.name}: ${literal(g, arg.type, context.variables, mischief)}`);
    const directive = chance(g, 10)
      ? ` @${mischief ? pick(g, ["skip", "deprecated", "nope"]) : pick(g, ["skip", "include"])}(if: ${pick(g, mischief ? ["$flag", "1", "null"] : ["true", "false", "$flag"])})`
      : "";
    if (directive.includes("$flag"))
      context.variables.set("flag", { type: "Boolean!", value: chance(g, 50) });
    const target = getNamedType(field.type);
    const sub =
      isObjectType(target) || isInterfaceType(target)
        ? ` ${selectionSet(g, schema, target, depth - 1, context)}`
        : "";
    parts.push(`${alias}${field.name}${args.length > 0 ? `(${args.join(", ")})` : ""}${directive}${sub}`);
  }
  if (parts.length === 0) parts.push("__typename");
  return `{ ${parts.join(" ")} }`;
}

/** A GraphQL document: usually built from the schema, sometimes text that is not GraphQL at all. */
export function documentArbitrary(
  schema: GraphQLSchema,
): fc.Arbitrary<{ text: string; variables: Record<string, unknown> }> {
  return fc.gen().map((g) => {
    // A third of the documents carry mistakes (unknown names, wrong values, too wide…); the rest
    // are valid, so that they reach execution.
    const mischief = chance(g, 35);
    if (mischief && chance(g, 15)) return { text: oddString(g), variables: {} };
    if (mischief && chance(g, 10)) {
      const text = pick(g, ["mutation { x }", "subscription { x }", "{ __schema { types { name } } }"]);
      return { text, variables: {} };
    }
    const query = schema.getQueryType();
    if (query === null || query === undefined) throw new Error("the schema has no Query type");
    const context = {
      variables: new Map() as Variables,
      fragments: [] as string[],
      budget: 300,
      aliases: 0,
      mischief,
    };
    const body = selectionSet(g, schema, query, g(fc.integer, { min: 0, max: 9 }), context);
    const declared = [...context.variables].map(([variable, { type }]) => `$${variable}: ${type}`);
    const header =
      declared.length > 0 || chance(g, 30)
        ? `query ${name(g)}${declared.length > 0 ? `(${declared.join(", ")})` : ""} `
        : "";
    let text = [header + body, ...context.fragments].join("\n");
    if (mischief && chance(g, 15)) text = text.slice(0, g(fc.integer, { min: 0, max: text.length }));
    if (mischief && chance(g, 10)) text = text.repeat(g(fc.integer, { min: 2, max: 200 }));
    const variables = Object.fromEntries(
      [...context.variables].map(([variable, { value }]) => [variable, value]),
    );
    return { text, variables };
  });
}

/**
 * fast-check's parameters for a property that may take at most most of mocha's timeout `ms` (0:
 * none), leaving time to report: runs and shrinking stop there. A run cut short fails when
 * `failOnInterrupt`; a failure found is reported as far as it was shrunk either way.
 */
export const timeLimit = (ms: number, failOnInterrupt: boolean) =>
  ms === 0 ? [] : [fc.interruptAfterTimeLimit(Math.max(ms - 30_000, ms / 2), { failOnInterrupt })];

/**
 * A property's check that prints its first failure as it happens, with `describe(value)`: shrinking
 * it may outlast the test's timeout, which would leave a CI log with no document at all (the
 * suite's seeds are random).
 */
export function printingFirstFailure<T extends object>(
  check: (value: T) => Promise<void>,
  describe: (value: NoInfer<T>) => string,
): (value: T) => Promise<void> {
  let failed = false;
  return async (value) => {
    try {
      await check(value);
    } catch (error) {
      if (!failed)
        console.log(
          `      first failure, before shrinking: ${describe(value)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      failed = true;
      throw error;
    }
  };
}

/** A generated document as a line a CI log keeps. */
export function described({ text, variables }: { text: string; variables: Record<string, unknown> }): string {
  return `${JSON.stringify(text)} with ${JSON.stringify(variables)}`.slice(0, 3000);
}

/**
 * The generator's documents, each with its parse when it parses and passes GraphQL's validation
 * against `schema` (most do), else none.
 */
export function validatedDocumentArbitrary(
  schema: GraphQLSchema,
): fc.Arbitrary<{ text: string; variables: Record<string, unknown>; valid?: DocumentNode }> {
  return documentArbitrary(schema).map((generated) => {
    let document: DocumentNode;
    try {
      document = parse(generated.text);
    } catch {
      return generated; // the generator's mischief
    }
    return validate(schema, document).length === 0 ? { ...generated, valid: document } : generated;
  });
}

const ENCODINGS = {
  identity: (body: Buffer) => body,
  gzip: (body: Buffer) => gzipSync(body),
  deflate: (body: Buffer) => deflateSync(body),
  br: (body: Buffer) => brotliCompressSync(body),
} as const;

/** A whole request: method, path, headers and a body that is usually, not always, a request object. */
export function requestArbitrary(schema: GraphQLSchema, key: string): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(documentArbitrary(schema), fc.jsonValue({ maxDepth: 3 }), fc.gen())
    .map(([document, json, g]) => {
      // Half the requests are well formed at the HTTP level, so their documents reach GraphQL.
      const wellFormed = chance(g, 50);
      const method =
        wellFormed || chance(g, 70)
          ? "POST"
          : pick(g, ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "TRACE"]);
      const path =
        wellFormed || chance(g, 80)
          ? pick(g, ["/api/v1/graphql", "/v1/graphql"])
          : pick(g, [
              "/",
              "/api/v1/graphql/",
              "/API/V1/GRAPHQL",
              "/healthz",
              "/readyz",
              "/metrics",
              "/x?y=%zz",
              "//v1/graphql",
            ]);
      const headers: Record<string, string> = {};
      if (wellFormed || chance(g, 90)) {
        headers.authorization =
          wellFormed || chance(g, 80)
            ? `${pick(g, ["Bearer", "bearer", "BEARER"])} ${key}`
            : pick(g, ["Bearer", "Basic abc", `Bearer ${key}x`, "Bearer kgq_", `Bearer  ${key}`]);
      }
      if (wellFormed || chance(g, 90)) {
        headers["content-type"] =
          wellFormed || chance(g, 80)
            ? pick(g, ["application/json", "application/json; charset=utf-8", "Application/JSON"])
            : pick(g, [
                "text/plain",
                "application/graphql",
                "application/json; charset=latin1",
                "multipart/form-data",
                "x",
              ]);
      }
      if (chance(g, 30)) {
        headers.accept = pick(g, [
          "application/json",
          "application/graphql-response+json",
          "application/xml",
          "text/html",
          "*/*",
          "application/graphql-response+json;q=0.9, application/json;q=0.1",
          "garbage;;q=x",
        ]);
      }
      if (chance(g, 20))
        headers["x-request-id"] = pick(g, ["abc-123", "", "x".repeat(129), "a b", "日本"].map(ascii));
      const encoding =
        wellFormed || chance(g, 60) ? "identity" : pick(g, ["gzip", "deflate", "br", "compress", "gzip, br"]);
      if (encoding !== "identity" || chance(g, 5)) headers["content-encoding"] = encoding;

      let payload: unknown;
      if (wellFormed || chance(g, 70)) {
        const request: Record<string, unknown> = { query: document.text };
        if (Object.keys(document.variables).length > 0 || chance(g, 20)) {
          request.variables =
            wellFormed || chance(g, 85) ? document.variables : pick(g, [json, { v0: json }, null]);
        }
        if (chance(g, 15)) request.operationName = pick(g, wellFormed ? [null] : [null, "a", "Frag", json]);
        if (!wellFormed && chance(g, 20)) {
          request.extensions = pick(g, [
            null,
            json,
            { persistedQuery: { version: 1, sha256Hash: "abc" } },
            { persistedQuery: json },
          ]);
        }
        if (!wellFormed && chance(g, 10)) request.query = json;
        if (!wellFormed && chance(g, 5)) delete request.query;
        payload = !wellFormed && chance(g, 5) ? [request] : request;
      } else {
        payload = json;
      }
      let text = JSON.stringify(payload);
      if (!wellFormed && chance(g, 10)) text = text.slice(0, g(fc.integer, { min: 0, max: text.length }));
      if (!wellFormed && chance(g, 10)) text += pick(g, ["x", "}", "\n", " "]);
      let body: Buffer = Buffer.from(text, "utf8");
      if (!wellFormed && chance(g, 4)) body = Buffer.alloc(g(fc.integer, { min: 65_000, max: 70_000 }), "a");
      const encode = ENCODINGS[encoding as keyof typeof ENCODINGS] as ((b: Buffer) => Buffer) | undefined;
      body = encode !== undefined && (wellFormed || !chance(g, 20)) ? encode(body) : body;
      if (method === "GET" || method === "HEAD") body = Buffer.alloc(0);
      return { method, path, headers, body };
    });
}

/** Header values must be sendable: HTTP forbids control characters and non-Latin-1 there. */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, "?");

/** Sends `request` as it is, with a Content-Length, and reads the whole answer. */
export function send(
  url: string,
  { method, path, headers, body }: FuzzRequest,
  timeoutMs: number,
): Promise<FuzzAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body.length > 0 && { "content-length": String(body.length) }) },
      timeout: timeoutMs,
    });
    req.once("timeout", () => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    req.once("error", reject);
    req.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
        });
      });
    });
    req.end(body);
  });
}

/** Statuses a code of the catalogue answers with. */
const STATUS_OF: ReadonlyMap<string, number> = new Map(
  Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code, status]),
);

/**
 * Contract §2/§3 on one answer; throws with what is wrong. Health, metrics and explorer answers
 * (non-GraphQL paths) only need a status of their own and no internals.
 */
export function checkAnswer(request: FuzzRequest, answer: FuzzAnswer, key: string): void {
  const fail = (problem: string) => {
    throw new Error(
      `${problem}\nrequest: ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${JSON.stringify(request.body.toString("utf8").slice(0, 300))}\nanswer: ${answer.status} ${answer.text.slice(0, 500)}`,
    );
  };
  const { status, headers, text } = answer;
  if (status === 500) fail("500: a bug");
  if (status === 406) fail("406: never for any Accept");
  const requestId = headers["x-request-id"];
  if (typeof requestId !== "string" || !/^[A-Za-z0-9._:-]{1,128}$/.test(requestId))
    fail("no valid X-Request-Id");
  if (text.includes(key)) fail("the key is in the answer");
  if (/\n\s+at |\.ts:\d+|\.js:\d+/.test(text)) fail("a stack is in the answer");
  if (/\bMATCH \(|\bRETURN \w|apoc\.|Neo4jError|bolt:\/\//.test(text))
    fail("Cypher or driver text is in the answer");
  if (request.method === "HEAD") {
    if (text !== "") fail("a HEAD answer has a body");
    return;
  }
  const isApiPath = ["/api/v1/graphql", "/v1/graphql"].includes(request.path);
  if (status === 200 && (!isApiPath || request.method === "GET")) return; // probes, metrics, explorer
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail("the body is not JSON");
  }
  if (status === 200) {
    if (typeof body !== "object" || body === null || !("data" in body)) fail("a 200 without data");
    // Field errors (contract §3): at a path, with a catalogue code other than a bug's, and the request id.
    for (const error of ((body as { errors?: unknown }).errors ?? []) as Record<string, unknown>[]) {
      const { code, requestId: echoed } = (error.extensions ?? {}) as Record<string, unknown>;
      if (!Array.isArray(error.path)) fail("a field error without a path");
      if (typeof code !== "string" || !STATUS_OF.has(code) || code === "internal_error")
        fail(`field error code ${String(code)}`);
      if (echoed !== requestId) fail("a field error's requestId differs from X-Request-Id");
    }
    return;
  }
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) fail("no errors array");
  const keys = Object.keys(body as object);
  if (keys.length !== 1) fail(`extra members in an error body: ${keys.join(", ")}`);
  for (const error of errors as Record<string, unknown>[]) {
    const { message, extensions, locations, ...rest } = error;
    if (Object.keys(rest).length > 0) fail(`extra members in an error: ${Object.keys(rest).join(", ")}`);
    if (typeof message !== "string" || message === "") fail("an error without a message");
    if (locations !== undefined && !Array.isArray(locations)) fail("locations is not a list");
    const { code, requestId: echoed, ...more } = (extensions ?? {}) as Record<string, unknown>;
    if (Object.keys(more).length > 0) fail(`extra members in extensions: ${Object.keys(more).join(", ")}`);
    if (typeof code !== "string" || !STATUS_OF.has(code))
      fail(`code ${String(code)} is not in the catalogue`);
    if (echoed !== requestId) fail("extensions.requestId differs from X-Request-Id");
    const expected = STATUS_OF.get(code as string);
    if ((errors as unknown[]).length === 1 && expected !== status)
      fail(`${String(code)} answered ${status}, not ${expected}`);
    if ((errors as unknown[]).length > 1 && status !== 422) fail("several errors not under 422");
  }
}
