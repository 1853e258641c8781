// The translation cache: for a document the service has seen, a root field's Cypher is reused
// instead of written again. A root field's resolver writes its query for every request (the
// product's root fields: src/cypher/compile.ts; a field of the library's own: its translation);
// for one document the Cypher text is the same each time, and only the parameters follow the
// variables. "The library" below is that resolver, whichever writes the query.
import { isDeepStrictEqual } from "node:util";
import type { TranslationCacheMode } from "../config.js";
import { LRUCache } from "lru-cache";
import {
  getArgumentValues,
  Kind,
  visit,
  type ASTNode,
  type TypeNode,
  getNullableType,
  isEnumType,
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

/** How a cached query's parameter is rebuilt from the request's variables. */
type Source = { kind: "constant"; value: unknown } | { kind: "variable"; name: string; integer: boolean };

interface Template {
  text: string;
  parameters: [string, Source][];
}

/** What is known of one root field of one operation, for one shape of its variables. */
type Entry = { state: "seen" } | { state: "learnt"; template: Template } | { state: "uncacheable" };

/** What the cache keeps at most: keys, and characters of learnt Cypher (about 2 bytes each). */
const MAX_ENTRIES = 10_000;
const MAX_CYPHER_CHARACTERS = 20_000_000;

interface Operation {
  id: number;
  /** The scalar values written as literals in the document's arguments. */
  literals: Set<unknown>;
}

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
 * null, true, false, or a value, and which other variable or literal that value equals (the library
 * gives equal values one parameter). Literals are part of the document, so only variable values
 * differ between requests with one key. A translation is learnt by translating the field twice more
 * without running it, with every non-null, non-boolean variable replaced by unique placeholders
 * (large positive values, then negative ones): a parameter that follows a variable's placeholders
 * comes from that variable, one that stays the same in all three is a constant, and anything else
 * (a text that changes, a parameter derived from a value) makes the key uncacheable. The template
 * is kept only if rebuilding the real request's parameters from it gives exactly the library's.
 *
 * The service's requests differ only in variables: no JWT, `cypherParams` or Cypher options in
 * their context. A per-request value there would look constant while learning and must not be
 * cached; whoever adds one must key on it or turn the cache off.
 */
export function cacheTranslations(
  schema: GraphQLSchema,
  rootFields: Set<string>,
  mode: TranslationCacheMode,
): TranslationCacheCounts {
  const counts: TranslationCacheCounts = { reused: 0, learnt: 0, uncacheable: 0, translated: 0 };
  const queryType = schema.getQueryType();
  if (mode === "off" || queryType === null || queryType === undefined) return counts;
  // Every operation gets a number for its lifetime; what is learnt is kept in one LRU, bounded by
  // entries and by the characters of the Cypher it holds, whatever Apollo's document store keeps.
  const operationIds = new WeakMap<OperationDefinitionNode, Operation>();
  let nextId = 0;
  const learnt = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    maxSize: MAX_CYPHER_CHARACTERS,
    sizeCalculation: (entry) => (entry.state === "learnt" ? entry.template.text.length : 0) + 64,
  });
  for (const field of Object.values(queryType.getFields())) {
    const translateAndRun = field.resolve;
    if (translateAndRun === undefined || !rootFields.has(field.name)) continue;
    field.resolve = async (source, args, context: ExecutionContext, info) => {
      let operation = operationIds.get(info.operation);
      if (operation === undefined) {
        operation = { id: nextId++, literals: literalValues(info) };
        operationIds.set(info.operation, operation);
      }
      const shape = shapeKey(info, operation.literals);
      if (shape === undefined) {
        counts.translated++;
        return translateAndRun(source, args, context, info);
      }
      const key = `${String(operation.id)}|${shape}`;
      const entry = learnt.get(key);
      const runner = context.executionContext as QueryRunner;
      if (entry?.state === "learnt") {
        const query = { text: entry.template.text, parameters: rebuild(entry.template, info.variableValues) };
        if (mode === "verify")
          await expectSameTranslation(translateAndRun, field, source, context, info, query);
        counts.reused++;
        return valuesOf(field, await runner.run(query.text, query.parameters));
      }
      if (entry?.state === "uncacheable" || (entry === undefined && mode === "on")) {
        if (entry === undefined) learnt.set(key, { state: "seen" });
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
        // Anything unexpected while learning leaves this request to the library and the key
        // unlearnt (a later request tries again); it never fails the request.
        const outcome = await learn(translateAndRun, field, source, context, info, sent).then(
          (template) =>
            template === undefined
              ? ({ state: "uncacheable" } as const)
              : ({ state: "learnt", template } as const),
          () => undefined,
        );
        if (outcome !== undefined) {
          learnt.set(key, outcome);
          if (outcome.state === "learnt") counts.learnt++;
          else counts.uncacheable++;
        }
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

/**
 * The field's response key and its variables' shapes: absent, null, true, false, an enum value
 * itself, or another value, and for the latter which earlier variable or literal of the document
 * it equals (the library gives equal values one parameter). An enum value is part of the key: it
 * may choose the Cypher itself (an `orderBy` field or direction, a group order), and an enum has
 * few values. Undefined when a variable is a list or an object.
 */
function shapeKey(info: GraphQLResolveInfo, literals: Set<unknown>): string | undefined {
  let key = info.path.key.toString();
  const values: unknown[] = [];
  for (const definition of info.operation.variableDefinitions ?? []) {
    const value: unknown = info.variableValues[definition.variable.name.value];
    // An absent variable leaves its argument to the argument's default; null sets the argument to null.
    if (value === undefined) key += "|u";
    else if (value === null) key += "|n";
    else if (value === true) key += "|t";
    else if (value === false) key += "|f";
    else if (isEnumVariable(info, definition.type) && typeof value === "string") {
      key += `|e${value}`;
      values.push(value);
      continue;
    } else if (isScalarValue(value)) {
      const comparable = neo4j.isDate(value) ? value.toString() : value;
      const equal = values.indexOf(comparable);
      key += equal !== -1 ? `|=${String(equal)}` : literals.has(comparable) ? "|=lit" : "|v";
      values.push(comparable);
      continue;
    } else return undefined;
    values.push(undefined);
  }
  return key;
}

/** Every string, number and enum value written as a literal argument in the operation or its fragments. */
function literalValues(info: GraphQLResolveInfo): Set<unknown> {
  const literals = new Set<unknown>();
  const collect = (node: ASTNode) => {
    visit(node, {
      StringValue: (value) => void literals.add(value.value),
      EnumValue: (value) => void literals.add(value.value),
      IntValue: (value) => void literals.add(Number(value.value)),
      FloatValue: (value) => void literals.add(Number(value.value)),
    });
  };
  collect(info.operation);
  for (const fragment of Object.values(info.fragments)) collect(fragment);
  return literals;
}

/** What a scalar variable's value is once coerced: a string (ID, String, enum), a number, a Date. */
function isScalarValue(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || neo4j.isDate(value);
}

/** Whether a variable's type is an enum (or a list of one: such a key is not cached anyway). */
function isEnumVariable(info: GraphQLResolveInfo, type: TypeNode): boolean {
  return isEnumType(info.schema.getType(namedType(type)));
}

/**
 * Unique stand-ins for the variables that shape the key as values (an enum's value is the key's
 * own, and stays): `sign` 1 or -1 gives two sets.
 * Strings mix case and spaces and Float values have a fraction, so that a transformation of the
 * value (case, trimming, rounding) shows as a parameter that is neither a stand-in nor constant.
 */
function placeholders(info: GraphQLResolveInfo, sign: 1 | -1): Record<string, unknown> {
  const floats = new Set(
    (info.operation.variableDefinitions ?? [])
      .filter((definition) => namedType(definition.type) === "Float")
      .map((definition) => definition.variable.name.value),
  );
  const enums = new Set(
    (info.operation.variableDefinitions ?? [])
      .filter((definition) => isEnumVariable(info, definition.type))
      .map((definition) => definition.variable.name.value),
  );
  const variables: Record<string, unknown> = { ...info.variableValues };
  let index = 0;
  for (const [name, value] of Object.entries(variables)) {
    if (value === null || value === undefined || typeof value === "boolean" || enums.has(name)) continue;
    index++;
    const stand = 1_000_000_000 + index * 1_000;
    if (typeof value === "number") variables[name] = sign * (floats.has(name) ? stand + 0.25 : stand);
    else if (typeof value === "string")
      variables[name] = ` \u0001Kg-GraphQL ${sign === 1 ? "A" : "b"} ${String(index)} `;
    else variables[name] = new neo4j.types.Date(sign * (100_000 + index), 1, 1);
  }
  return variables;
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
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
