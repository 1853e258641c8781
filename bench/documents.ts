// `npm run bench:documents`: adversarial documents of up to 10,000 characters, one family at a
// time, through every stage before execution as a request meets them: the body's JSON, parse,
// validation (depth and width in the same pass as graphql-js's rules), the `limit` check and
// the cost estimate. Prints the worst time of each family over its sizes (contract §3: each stage
// linear in the request; the target is 20 ms a document on this machine). No database needed.
import { getOperationAST, parse, specifiedRules, validate, type GraphQLSchema } from "graphql";
import { KnownOperationTypeRule } from "../src/graphql/known-operation-type.js";
import { estimateCost } from "../src/graphql/cost.js";
import { findArgumentViolations } from "../src/graphql/argument-checks.js";
import { planOperation } from "../src/graphql/operation-plan.js";
import { excessBracketNesting, queryShapeRules } from "../src/graphql/query-shape.js";
import { validationErrors } from "../src/graphql/validation-stage.js";
import { library, readTypeDefs } from "../src/graphql/schema.js";

const MAX_CHARS = 10_000;
const TARGET_MS = 20;
/** Runs of each document; the median is the figure, so a garbage collection in one run does not decide it. */
const REPEATS = 21;

interface Body {
  query: string;
  variables?: Record<string, unknown>;
}

/** The largest `build(n)` that fits in 10,000 characters, and a few smaller ones. */
function sizes(build: (n: number) => Body): Body[] {
  let n = 1;
  while (build(n * 2).query.length <= MAX_CHARS) n *= 2;
  let high = n * 2;
  while (high - n > 1) {
    const mid = Math.floor((n + high) / 2);
    if (build(mid).query.length <= MAX_CHARS) n = mid;
    else high = mid;
  }
  return [Math.max(1, Math.floor(n / 4)), Math.max(1, Math.floor(n / 2)), n].map(build);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const FAMILIES: Record<string, (n: number) => Body> = {
  "fan-out (each fragment spreads the next twice)": (n) => ({
    query:
      "{ topics(limit: 1) { ...F0 } }\n" +
      range(n)
        .map((i) => `fragment F${i} on Topic { ...F${i + 1} ...F${i + 1} }`)
        .join("\n") +
      `\nfragment F${n} on Topic { id }`,
  }),
  "fan-out, 50 spreads a level": (n) => ({
    query:
      "{ topics(limit: 1) { ...F0 } }\n" +
      range(n)
        .map(
          (i) =>
            `fragment F${i} on Topic { ${Array(50)
              .fill(`...F${i + 1}`)
              .join(" ")} }`,
        )
        .join("\n") +
      `\nfragment F${n} on Topic { id }`,
  }),
  "deep nesting": (n) => ({
    query: "{ " + "topics { decisions { topic { ".repeat(n) + "id" + " } } }".repeat(n) + " }",
  }),
  "many aliases": (n) => ({
    query: `{ ${range(n)
      .map((i) => `a${i}: __typename`)
      .join(" ")} }`,
  }),
  "many fields in one set": (n) => ({ query: `{ topics { ${Array(n).fill("id").join(" ")} } }` }),
  "same name, different arguments": (n) => ({
    query: `{ ${range(n)
      .map((i) => `t: topics(limit: ${(i % 100) + 1}) { id }`)
      .join(" ")} }`,
  }),
  "many fragments": (n) => ({
    query:
      `{ topics { ${range(n)
        .map((i) => `...F${i}`)
        .join(" ")} } }\n` +
      range(n)
        .map((i) => `fragment F${i} on Topic { id }`)
        .join("\n"),
  }),
  "fragment cycle": (n) => ({
    query:
      "{ topics { ...F0 } }\n" +
      range(n)
        .map((i) => `fragment F${i} on Topic { decisions { topic { ...F${(i + 1) % n} } } }`)
        .join("\n"),
  }),
  "many directives": (n) => ({ query: `{ topics { id ${"@skip(if: false) ".repeat(n)}} }` }),
  "long string": (n) => ({ query: `{ topic(id: "${"x".repeat(n)}") { id } }` }),
  "deep object literal": (n) => ({ query: `{ topics(limit: ${"{a: ".repeat(n)}1${"}".repeat(n)}) { id } }` }),
  "deep list literal": (n) => ({ query: `{ topics(limit: ${"[".repeat(n)}1${"]".repeat(n)}) { id } }` }),
  "many variables": (n) => ({
    query: `query (${range(n)
      .map((i) => `$v${i}: Int`)
      .join(", ")}) { topics(limit: $v0) { id } }`,
    variables: Object.fromEntries(range(n).map((i) => [`v${i}`, 1])),
  }),
  "many operations": (n) => ({
    query: range(n)
      .map((i) => `query Q${i} { topics { id } }`)
      .join("\n"),
  }),
};

/** Every stage before execution, as the pipeline runs them; returns the milliseconds taken. */
/** How validation ran before the validation stage: every rule in one pass, as Apollo runs them. */
const ONE_PASS = [...specifiedRules, KnownOperationTypeRule, ...queryShapeRules];

/**
 * Every stage before execution, as the pipeline runs them (or, `onePass`, as it ran before the
 * validation stage); returns the milliseconds taken, or `Infinity` when the parser overflowed its
 * stack (a 500).
 */
function preExecution(schema: GraphQLSchema, body: Body, onePass = false): number {
  const text = JSON.stringify(body);
  const started = performance.now();
  const request = JSON.parse(text) as Body;
  if (!onePass && excessBracketNesting(request.query) !== undefined) return performance.now() - started;
  let document;
  try {
    document = parse(request.query);
  } catch (error) {
    if (error instanceof RangeError) return Infinity;
    return performance.now() - started;
  }
  const errors = onePass ? validate(schema, document, ONE_PASS) : validationErrors(schema, document);
  if (errors.length === 0) {
    const operation = getOperationAST(document);
    if (operation !== null && operation !== undefined) {
      const plan = planOperation(schema, document, operation, request.variables);
      // Variables that do not coerce are refused as validation_failed, with no walk.
      if ("root" in plan) {
        findArgumentViolations(plan);
        estimateCost(plan);
      }
    }
  }
  return performance.now() - started;
}

const neoSchema = library(await readTypeDefs());
const schema = await neoSchema.getSchema();
// Warm up: the first runs of a process compile graphql-js's and our code.
for (const build of Object.values(FAMILIES)) for (const body of sizes(build)) preExecution(schema, body);
let over = 0;
process.stdout.write(
  `Each family's worst document (median of ${REPEATS} runs), its slowest single run, and the same documents validated in one pass with every rule (before the validation stage), up to ${MAX_CHARS} characters:\n`,
);
for (const [family, build] of Object.entries(FAMILIES)) {
  let worstMedian = 0;
  let worstChars = 0;
  let slowest = 0;
  let before = 0;
  for (const body of sizes(build)) {
    const median = (runs: number[]) => runs.sort((a, b) => a - b)[Math.floor(REPEATS / 2)] ?? 0;
    const runs = Array.from({ length: REPEATS }, () => preExecution(schema, body));
    const ms = median(runs);
    slowest = Math.max(slowest, ...runs);
    if (ms > worstMedian) [worstMedian, worstChars] = [ms, body.query.length];
    before = Math.max(
      before,
      median(Array.from({ length: REPEATS }, () => preExecution(schema, body, true))),
    );
  }
  if (worstMedian > TARGET_MS) over++;
  const shown = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : "stack overflow (500)");
  process.stdout.write(
    `  ${family.padEnd(48)} ${worstMedian.toFixed(1).padStart(6)} ms (${String(worstChars).padStart(5)} chars), slowest run ${slowest.toFixed(1).padStart(6)} ms; one pass as before: ${shown(before)}${worstMedian > TARGET_MS ? "  OVER THE TARGET" : ""}\n`,
  );
}
process.stdout.write(
  over === 0 ? `Every family under ${TARGET_MS} ms.\n` : `${over} families over ${TARGET_MS} ms.\n`,
);
