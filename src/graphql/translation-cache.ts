// The translation cache: for a document the service has seen, a root field's Cypher is reused
// instead of translated again. The Neo4j GraphQL Library translates every request from scratch
// (the largest share of the service's CPU time per request after I/O); for one document the
// Cypher text is the same each time, and only the parameters follow the variables.
import { isDeepStrictEqual } from "node:util";
import {
  getArgumentValues,
  getNullableType,
  isListType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import neo4j, { type QueryResult } from "neo4j-driver";
import type { CypherQuery } from "../neo4j/combine.js";
import type { QueryRunner } from "../neo4j/runner.js";

/**
 * `on`: reuse learnt translations (a document is learnt the second time it is seen); `off`: the
 * library translates every request; `verify`: as `on`, learning at first sight, and every reuse
 * is checked against a fresh translation by the library (for tests: a mismatch fails the request).
 */
export type TranslationCacheMode = "on" | "off" | "verify";

/** How a cached query's parameter is rebuilt from the request's variables. */
type Source = { kind: "constant"; value: unknown } | { kind: "variable"; name: string; integer: boolean };

interface Template {
  text: string;
  parameters: [string, Source][];
}

/** What is known of one root field of one operation, for one shape of its variables. */
type Entry = { state: "seen" } | { state: "learnt"; template: Template } | { state: "uncacheable" };

/** Shapes remembered per operation: enough for every null/boolean mix a real client sends. */
const MAX_SHAPES_PER_OPERATION = 64;

interface ExecutionContext {
  executionContext?: unknown;
}

/**
 * Wraps each of `rootFields` (root `@cypher` fields: the library answers them by translating
 * the field to one Cypher query and running it) so that a translation is learnt once per
 * operation and shape of variables, and then reused.
 *
 * The key is the operation's parsed document (Apollo's document store hands the same object to
 * every request with the same text), the field's response key, and each variable's shape: absent,
 * null, true, false, or a value. Literals are part of the document, so only variable values differ
 * between requests with one key. A translation is learnt by translating the field twice more
 * without running it, with every non-null, non-boolean variable replaced by unique placeholders
 * (large positive values, then negative ones): a parameter that follows a variable's placeholders
 * comes from that variable, one that stays the same in all three is a constant, and anything else
 * (a text that changes, a parameter derived from a value) makes the key uncacheable. The template
 * is kept only if rebuilding the real request's parameters from it gives exactly the library's.
 */
export function cacheTranslations(
  schema: GraphQLSchema,
  rootFields: Set<string>,
  mode: TranslationCacheMode,
): TranslationCacheCounts {
  const counts: TranslationCacheCounts = { reused: 0, learnt: 0, uncacheable: 0, translated: 0 };
  const queryType = schema.getQueryType();
  if (mode === "off" || queryType === null || queryType === undefined) return counts;
  const learnt = new WeakMap<OperationDefinitionNode, Map<string, Entry>>();
  for (const field of Object.values(queryType.getFields())) {
    const translateAndRun = field.resolve;
    if (translateAndRun === undefined || !rootFields.has(field.name)) continue;
    field.resolve = async (source, args, context: ExecutionContext, info) => {
      const key = shapeKey(info);
      if (key === undefined) {
        counts.translated++;
        return translateAndRun(source, args, context, info);
      }
      let entries = learnt.get(info.operation);
      if (entries === undefined) learnt.set(info.operation, (entries = new Map<string, Entry>()));
      const entry = entries.get(key);
      const runner = context.executionContext as QueryRunner;
      if (entry?.state === "learnt") {
        const query = { text: entry.template.text, parameters: rebuild(entry.template, info.variableValues) };
        if (mode === "verify")
          await expectSameTranslation(translateAndRun, field, source, context, info, query);
        counts.reused++;
        return valuesOf(field, await runner.run(query.text, query.parameters));
      }
      if (entry?.state === "uncacheable" || (entry === undefined && mode === "on")) {
        if (entry === undefined && entries.size < MAX_SHAPES_PER_OPERATION)
          entries.set(key, { state: "seen" });
        counts.translated++;
        return translateAndRun(source, args, context, info);
      }
      // Seen before (or verifying): run the library's translation, and learn from it.
      let sent: CypherQuery | undefined;
      const recording: QueryRunner = {
        run: (text, parameters = {}) => {
          sent = { text, parameters };
          return runner.run(text, parameters);
        },
      };
      const value: unknown = await translateAndRun(
        source,
        args,
        { ...context, executionContext: recording },
        info,
      );
      if (sent !== undefined) {
        // Anything unexpected while learning leaves the key to the library, never fails the request.
        const template = await learn(translateAndRun, field, source, context, info, sent).catch(
          () => undefined,
        );
        if (entries.size < MAX_SHAPES_PER_OPERATION || entries.has(key)) {
          entries.set(key, template === undefined ? { state: "uncacheable" } : { state: "learnt", template });
        }
        if (template === undefined) counts.uncacheable++;
        else counts.learnt++;
      }
      return value;
    };
  }
  return counts;
}

/** What the cache did, per root field answered: for tests and operators. */
export interface TranslationCacheCounts {
  /** Answered from a learnt translation. */
  reused: number;
  /** Translated by the library and learnt from. */
  learnt: number;
  /** Translated by the library; its key cannot be reused. */
  uncacheable: number;
  /** Translated by the library without learning (first sight, or a list or object variable). */
  translated: number;
}

/** The field's response key and its variables' shapes; undefined when a variable is a list or an object. */
function shapeKey(info: GraphQLResolveInfo): string | undefined {
  let key = info.path.key.toString();
  for (const definition of info.operation.variableDefinitions ?? []) {
    const value: unknown = info.variableValues[definition.variable.name.value];
    // An absent variable leaves its argument to the argument's default; null sets the argument to null.
    if (value === undefined) key += "|u";
    else if (value === null) key += "|n";
    else if (value === true) key += "|t";
    else if (value === false) key += "|f";
    else if (isScalarValue(value)) key += "|v";
    else return undefined;
  }
  return key;
}

/** What a scalar variable's value is once coerced: a string (ID, String, enum), a number, a Date. */
function isScalarValue(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || neo4j.isDate(value);
}

/** Unique stand-ins for the variables that shape the key as values: `sign` 1 or -1 gives two sets. */
function placeholders(info: GraphQLResolveInfo, sign: 1 | -1): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...info.variableValues };
  let index = 0;
  for (const [name, value] of Object.entries(variables)) {
    if (value === null || value === undefined || typeof value === "boolean") continue;
    index++;
    const stand = 1_000_000_000 + index * 1_000;
    if (typeof value === "number") variables[name] = sign * stand;
    else if (typeof value === "string")
      variables[name] = `\u0001kg-graphql:${sign === 1 ? "a" : "b"}:${String(index)}`;
    else variables[name] = new neo4j.types.Date(sign * (100_000 + index), 1, 1);
  }
  return variables;
}

type Resolve = GraphQLFieldResolver<unknown, unknown>;

/** The library's translation of the field for these variables, without running it. */
async function translate(
  translateAndRun: Resolve,
  field: GraphQLField<unknown, unknown>,
  source: unknown,
  context: ExecutionContext,
  info: GraphQLResolveInfo,
  variableValues: Record<string, unknown>,
): Promise<CypherQuery | undefined> {
  let sent: CypherQuery | undefined;
  const dry: QueryRunner = {
    run: (text, parameters = {}) => {
      sent = { text, parameters };
      return Promise.resolve(emptyResult);
    },
  };
  const fieldNode = info.fieldNodes[0];
  if (fieldNode === undefined) return undefined;
  const args = getArgumentValues(field, fieldNode, variableValues);
  await translateAndRun(source, args, { ...context, executionContext: dry }, { ...info, variableValues });
  return sent;
}

const emptyResult = {
  records: [],
  summary: { counters: { updates: () => ({}) } },
} as unknown as QueryResult;

async function learn(
  translateAndRun: Resolve,
  field: GraphQLField<unknown, unknown>,
  source: unknown,
  context: ExecutionContext,
  info: GraphQLResolveInfo,
  real: CypherQuery,
): Promise<Template | undefined> {
  const sets = [placeholders(info, 1), placeholders(info, -1)] as const;
  const [a, b] = await Promise.all(
    sets.map((set) => translate(translateAndRun, field, source, context, info, set)),
  );
  if (a === undefined || b === undefined || a.text !== real.text || b.text !== real.text) return undefined;
  const names = Object.keys(real.parameters);
  if (!sameNames(names, a.parameters) || !sameNames(names, b.parameters)) return undefined;
  const parameters: [string, Source][] = [];
  for (const name of names) {
    const [value, valueA, valueB] = [real.parameters[name], a.parameters[name], b.parameters[name]];
    const fromA = variableOf(valueA, sets[0]);
    const fromB = variableOf(valueB, sets[1]);
    if (fromA !== undefined && fromB !== undefined && isDeepStrictEqual(fromA, fromB)) {
      parameters.push([name, { kind: "variable", ...fromA }]);
    } else if (isDeepStrictEqual(value, valueA) && isDeepStrictEqual(value, valueB)) {
      parameters.push([name, { kind: "constant", value }]);
    } else {
      return undefined;
    }
  }
  const template = { text: real.text, parameters };
  return isDeepStrictEqual(rebuild(template, info.variableValues), real.parameters) ? template : undefined;
}

function sameNames(names: string[], parameters: Record<string, unknown>): boolean {
  const other = Object.keys(parameters);
  return other.length === names.length && names.every((name) => Object.hasOwn(parameters, name));
}

/** Which placeholder a parameter's value is, as given or as a Neo4j Integer. */
function variableOf(
  value: unknown,
  set: Record<string, unknown>,
): { name: string; integer: boolean } | undefined {
  const integer = neo4j.isInt(value);
  const plain = integer ? value.toNumber() : value;
  if (plain === null || plain === undefined || typeof plain === "boolean") return undefined;
  for (const [name, stand] of Object.entries(set)) if (stand === plain) return { name, integer };
  return undefined;
}

function rebuild(template: Template, variables: Record<string, unknown>): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  for (const [name, source] of template.parameters) {
    if (source.kind === "constant") parameters[name] = source.value;
    else {
      const value = variables[source.name];
      parameters[name] = source.integer ? neo4j.int(value as number) : value;
    }
  }
  return parameters;
}

/**
 * The field's value from its query's rows, as the library's `@cypher` root field resolver
 * computes it (`schema/resolvers/query/cypher.js` in @neo4j/graphql 7): the first column of each
 * row, nodes as their properties, integers as numbers; the first row for a field that is not a list.
 */
function valuesOf(field: GraphQLField<unknown, unknown>, result: QueryResult): unknown {
  const values = result.records.map((record) => {
    const value: unknown = record.get(0);
    if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
    if (value === null || value === undefined || value === false) return undefined;
    if (neo4j.isInt(value)) return value.toNumber();
    if (neo4j.isNode(value)) return value.properties;
    return value;
  });
  return isListType(getNullableType(field.type)) ? values : values[0];
}

async function expectSameTranslation(
  translateAndRun: Resolve,
  field: GraphQLField<unknown, unknown>,
  source: unknown,
  context: ExecutionContext,
  info: GraphQLResolveInfo,
  cached: CypherQuery,
): Promise<void> {
  const fresh = await translate(translateAndRun, field, source, context, info, info.variableValues);
  if (!isDeepStrictEqual(fresh, cached)) {
    throw new Error(
      `translation cache: ${field.name} as ${info.path.key.toString()} differs from the library's translation`,
    );
  }
}
