// `where` (contract §7, v1 additions part 3): a tree of conditions, rendered as one Cypher boolean
// on a row. The tree is data the request gives; its values stay in the `$where` parameter and the
// text reads them by path (`` $where.`AND.0.title.eq` ``: see {@link at}), so the text follows the
// tree's shape alone.
// Only what is given is rendered: `{}` and absent fields leave no trace.
//
// A missing value (absent, null, or one §3 would report) fails every operator but `isNull`, and
// `NOT` keeps its row (the contract). A rendered condition is true for a row it keeps, and false
// or null for one it does not: null only where a value is missing, which fails like false through
// `AND` and `OR`, in a `WHERE` and in a `CASE WHEN`. So every negation, `all`'s included, is a
// `CASE WHEN … THEN false ELSE true END`, which reads null as false, or the `NOT` of an existence
// test, which is never null: never a bare `NOT` of a comparison. A text,
// an enum, a boolean or a float is compared as it is (a value of another type compares as null);
// an integer, a date or an instant only once its type's test let it through (`CASE WHEN x IS ::
// DATE … THEN x < $… ELSE false END`), since its comparison could fail the query on another type.
import { DOMAIN, propertyType, type ElementType, type Link } from "../domain/table.js";
import { linkPattern } from "./nested.js";
import type { FieldRequest } from "./request.js";
import { servableDate, servableInstant, servableNumber } from "./values.js";

/** `x` holds a non-null value of Cypher's type `type` (`null IS :: STRING` alone is true). */
const isA = (x: string, type: string) => `${x} IS NOT NULL AND ${x} IS :: ${type}`;

/**
 * `test` on `x` once `x` is known to hold a value of `type`. Cypher does not promise to evaluate
 * `AND` left to right: `x % 1` on a string, or the epoch of an instant of the year 999,999,999, would
 * fail the query; `CASE` decides in order.
 */
const onlyIf = (x: string, type: string, test: string) =>
  `CASE WHEN ${isA(x, type)} THEN ${test} ELSE false END`;

/** The test that a stored value of each type is present and servable (§3), by the type's name: true or false. */
const PRESENT: Readonly<Record<string, (x: string) => string>> = {
  ID: (x) => isA(x, "STRING"),
  String: (x) => isA(x, "STRING"),
  Boolean: (x) => isA(x, "BOOLEAN"),
  Int: (x) => onlyIf(x, "INTEGER | FLOAT", `-2147483648 <= ${x} <= 2147483647 AND ${x} % 1 = 0`),
  Float: (x) => onlyIf(x, "INTEGER | FLOAT", servableNumber(x)),
  Date: (x) => onlyIf(x, "DATE", servableDate(x)),
  DateTime: (x) => onlyIf(x, "ZONED DATETIME", servableInstant(x)),
};

/**
 * The types whose comparison could fail the query on a stored value of another type (`x % 1`, an
 * instant's epoch): compared only once their type's test let the value through. Every other type
 * (texts, enums, booleans, floats) is compared as it is: another type compares as null.
 */
const GUARDED: ReadonlySet<string> = new Set(["Int", "Date", "DateTime"]);

/**
 * An enum's stored value: a string. One outside the enum equals no operand (every operand is one of
 * its values, and enum filters have only `eq` and `in`), so it fails both and `NOT` keeps its row.
 */
const ENUM_PRESENT = (x: string) => isA(x, "STRING");

export const COMPARISONS: Readonly<Record<string, string>> = {
  eq: "=",
  lt: "<",
  lte: "<=",
  gt: ">",
  gte: ">=",
  in: "IN",
  startsWith: "STARTS WITH",
  endsWith: "ENDS WITH",
  contains: "CONTAINS",
};

/**
 * A key or an item below `path` in the `where` parameter, as the statement reads it: one lookup of
 * the whole path in a flat map (`` $where.`AND.0.title.eq` ``), which the statement's binding makes
 * from the tree ({@link whereOperands}). A chain of lookups as deep as the caller's tree
 * (`$where.AND[0].AND[0]…`, 150 deep) overflowed Neo4j's stack, and it never answered the query.
 */
export const at = (path: string, key: string | number) =>
  path.endsWith("`") ? `${path.slice(0, -1)}.${String(key)}\`` : `${path}.\`${String(key)}\``;

/** The paths a statement's text reads in its `$where` parameter (see {@link at}). */
const WHERE_OPERAND = /\$where\.`([^`]+)`/g;

/**
 * The `$where` parameter a statement reads: each path its text names (see {@link at}), with the
 * value at that path in the `where` argument (`null` where it has none).
 */
export function whereOperands(statement: string, where: unknown): Record<string, unknown> {
  const operands: Record<string, unknown> = {};
  for (const [, path = ""] of statement.matchAll(WHERE_OPERAND)) {
    let value: unknown = where;
    for (const key of path.split(".")) {
      value =
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    operands[path] = value ?? null;
  }
  return operands;
}

export const entriesOf = (value: unknown): [string, unknown][] =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.entries(value).filter(([, given]) => given !== null && given !== undefined)
    : [];

/** The conjunction of conditions; `undefined` (no condition) holds for every row. */
function all(conditions: readonly (string | undefined)[]): string | undefined {
  const given = conditions.filter((condition) => condition !== undefined);
  if (given.length === 0) return undefined;
  return given.length === 1 ? given[0] : given.map((condition) => `(${condition})`).join(" AND ");
}

/** The state of one rendering: a number per link subquery, naming its variable apart. */
interface Rendering {
  /**
   * A condition that never holds (`OR: []`, `NOT: {}`), as a test of the parameter rather than the
   * literal `false`: Neo4j 5.26 folds `false` away with the label the read's index hint needs, and
   * refuses the query.
   */
  never: string;
  /** The row variable's base for a link's targets (`d`), numbered apart. */
  variable: (base: string) => string;
}

/**
 * A filter input on the stored value `x` of GraphQL type `type`, its operators at `path`: each
 * given operator must hold. `isNull: b` holds when the value's presence differs from `b`.
 */
function filterCondition(x: string, type: string, filter: unknown, path: string): string | undefined {
  const present = (PRESENT[type] ?? ENUM_PRESENT)(x);
  // Instants compare to the millisecond as served: the operand is its epoch milliseconds (strict-date.ts).
  const value = type === "DateTime" ? `${x}.epochMillis` : x;
  // A float must also be one the wire writes (a finite number in range).
  const served = type === "Float" ? `${servableNumber(x)} AND ` : "";
  return all(
    entriesOf(filter).map(([operator]) => {
      if (operator === "isNull") return `(${present}) <> ${at(path, operator)}`;
      const comparison = COMPARISONS[operator];
      if (comparison === undefined) throw new Error(`no where operator ${operator}`);
      const operand = at(path, operator);
      if (!GUARDED.has(type)) return `${served}${x} ${comparison} ${operand}`;
      // Compared only once present: a value of another type never reaches the comparison.
      return `CASE WHEN ${present} THEN ${value} ${comparison} ${operand} ELSE false END`;
    }),
  );
}

/** A count's filter (`count: IntFilter`): a count is never missing. */
function countCondition(count: string, filter: unknown, path: string): string | undefined {
  return all(
    entriesOf(filter).map(([operator]) => {
      if (operator === "isNull") return `NOT ${at(path, operator)}`;
      const comparison = COMPARISONS[operator];
      if (comparison === undefined) throw new Error(`no count operator ${operator}`);
      return `${count} ${comparison} ${at(path, operator)}`;
    }),
  );
}

/**
 * A single link's condition: the target §7 serves (the lowest `id`) exists and matches. `{}` still
 * asks that it exists.
 */
function singleLinkCondition(
  v: string,
  link: Link,
  where: unknown,
  path: string,
  rendering: Rendering,
): string {
  const t = rendering.variable(DOMAIN[link.to].v);
  const condition = whereOf(link.to, t, where, path, rendering);
  // Any target exists when the lowest-id one does: `{}` needs no order.
  if (condition === undefined) return `EXISTS { MATCH ${linkPattern(link, v, t)} }`;
  return [
    `EXISTS { MATCH ${linkPattern(link, v, t)}`,
    `WITH ${t} ORDER BY ${t}.id LIMIT 1`,
    `WITH ${t} WHERE ${condition}`,
    `RETURN ${t} }`,
  ].join(" ");
}

/**
 * A to-many link's conditions on all its targets (distinct, as the nested list of that name):
 * `some` and `none` an existence test that stops at the first deciding target, `all` the absence of
 * a target failing it, `count` a count that collects nothing. Each is one conjunct of the `where`
 * holding the link (see {@link conjunction}).
 */
function linkConditions(v: string, link: Link, links: unknown, path: string, rendering: Rendering): string[] {
  const tests = entriesOf(links).map(([form, where]) => {
    const t = rendering.variable(DOMAIN[link.to].v);
    const pattern = linkPattern(link, v, t);
    const formPath = at(path, form);
    if (form === "count")
      return countCondition(`COUNT { MATCH ${pattern} RETURN DISTINCT ${t} }`, where, formPath);
    const condition = whereOf(link.to, t, where, formPath, rendering);
    const exists = (test: string | undefined) =>
      `EXISTS { MATCH ${pattern}${test === undefined ? "" : ` WHERE ${test}`} }`;
    switch (form) {
      case "some":
        return exists(condition);
      case "none":
        return `NOT ${exists(condition)}`;
      case "all":
        return condition === undefined ? undefined : `NOT ${exists(negation(t, condition))}`;
      default:
        throw new Error(`no link form ${form}`);
    }
  });
  return tests.filter((test) => test !== undefined);
}

/** A condition holding a subquery: a link's existence test or count. */
const SUBQUERY = /\b(?:EXISTS|COUNT) \{/;

/**
 * A disjunction or a negation as one opaque test. Left bare, Neo4j's planner splits a disjunction
 * (and a negated conjunction) beside an index read into a union whose other branch scans the whole
 * label: a page of 20 rows read every decision. `CASE` keeps it one filter on the rows read.
 *
 * A `CASE` holding subqueries is itself a subquery on row `v`: `EXISTS { WITH v WHERE CASE … }`.
 * Neo4j plans the subqueries of an expression again for each way it weighs of reading the rows
 * the expression filters (each index a condition could start from, then each nesting level's own),
 * so a caller's `where` with link tests inside `OR`, `NOT` or `all`, nested three deep, took 41 s to
 * plan as bare `CASE`s (fuzz seed 527574547) and 0.84 s with each behind its `EXISTS`, planned once.
 */
function opaque(v: string, condition: string): string {
  const test = `CASE WHEN ${condition} THEN true ELSE false END`;
  return SUBQUERY.test(condition) ? `EXISTS { WITH ${v} WHERE ${test} }` : test;
}

const [NEGATED_START, NEGATED_END] = ["CASE WHEN ", " THEN false ELSE true END"];

/**
 * The negation of a condition on row `v`, opaque too: `NOT` of a test that is true or false, never
 * null. `NOT` of a negation is the condition itself (or its opaque test), so a tree of nested
 * `NOT`s (a caller's 8,000 of them fit in a request's variables, and count toward no bound) renders
 * as one or none: the text stays as small as the conditions it holds.
 */
function negation(v: string, condition: string): string {
  if (condition.startsWith(NEGATED_START) && condition.endsWith(NEGATED_END))
    return condition.slice(NEGATED_START.length, -NEGATED_END.length);
  // An existence test is true or false, never null: `NOT` negates it.
  if (condition.startsWith("NOT ") && isOneExistsTest(condition.slice("NOT ".length)))
    return condition.slice("NOT ".length);
  if (isOneExistsTest(condition)) return `NOT ${condition}`;
  if (SUBQUERY.test(condition)) return `NOT ${opaque(v, condition)}`;
  return `${NEGATED_START}${condition}${NEGATED_END}`;
}

/**
 * Whether a condition is one `EXISTS { … }` and nothing else: its first brace closes at its end.
 * Braces appear in a rendered condition only around subqueries (values are parameters).
 */
function isOneExistsTest(condition: string): boolean {
  if (!condition.startsWith("EXISTS {") || !condition.endsWith("}")) return false;
  let depth = 0;
  for (let index = "EXISTS ".length; index < condition.length; index++) {
    const char = condition[index];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index === condition.length - 1;
  }
  return false;
}

/** How many link tests of one conjunction are written as one opaque test (see {@link conjunction}). */
const OPAQUE_LINK_TESTS = 3;

/**
 * A conjunction on row `v` as Neo4j plans it fastest. Left bare, each condition holding a subquery
 * is a pattern predicate Neo4j's planner places on its own, and it weighs their orders against each
 * other: a caller's `where` of 30 operators with five link tests at one level took 8 s to plan
 * (1.6 s for one read of it, against 0.35 s as one opaque test and 0.11 s without the links).
 * So {@link OPAQUE_LINK_TESTS} or more such conditions go together into one opaque test, after the
 * plain ones, which stay bare for Neo4j to check first. Fewer stay bare: two single-link tests as
 * one opaque test planned in 830 against 573 ms and ran in 57 against 30 ms (bench:cold's `where`).
 * The conditions are the `where`'s own and those of its top-level `AND`s, one-item `OR`s and link
 * forms: Neo4j sees them as one conjunction, so they are counted as one.
 */
function conjunction(v: string, conditions: readonly string[]): string | undefined {
  const links = conditions.filter((condition) => SUBQUERY.test(condition));
  if (links.length < OPAQUE_LINK_TESTS) return all(conditions);
  const plain = conditions.filter((condition) => !SUBQUERY.test(condition));
  return all([...plain, opaque(v, links.map((condition) => `(${condition})`).join(" AND "))]);
}

/** A `…Where` of `type` on row `v`, its values at `path`; `undefined` when it holds for every row. */
function whereOf(type: ElementType, v: string, where: unknown, path: string, rendering: Rendering) {
  const conditions = conjunctsOf(type, v, where, path, rendering);
  // A condition that never holds decides the conjunction (`conjunctsOf` gives it alone).
  return conditions === undefined ? rendering.never : conjunction(v, conditions);
}

/**
 * The conditions a `…Where` puts on row `v`, each to hold: a top-level `AND`'s items' own
 * conditions among them. Undefined when one of them never holds.
 */
function conjunctsOf(
  type: ElementType,
  v: string,
  where: unknown,
  path: string,
  rendering: Rendering,
): string[] | undefined {
  const row = DOMAIN[type];
  const conditions: string[] = [];
  for (const [field, value] of entriesOf(where)) {
    const fieldPath = at(path, field);
    let condition: string | undefined;
    if (field === "AND") {
      const items = Array.isArray(value) ? value : [];
      for (const [index, item] of items.entries()) {
        const own = conjunctsOf(type, v, item, at(fieldPath, index), rendering);
        if (own === undefined) return undefined;
        conditions.push(...own);
      }
      continue;
    }
    if (field === "OR" && Array.isArray(value) && value.length === 1) {
      // One alternative: its own conditions, each a conjunct.
      const own = conjunctsOf(type, v, value[0], at(fieldPath, 0), rendering);
      if (own === undefined) return undefined;
      conditions.push(...own);
      continue;
    }
    if (field === "OR") {
      const items = Array.isArray(value) ? value : [];
      const alternatives = items.map((item, index) =>
        whereOf(type, v, item, at(fieldPath, index), rendering),
      );
      // One alternative that always holds makes the OR hold; those that never hold are left out,
      // and with none left (or none given) it never holds. So every alternative written holds an
      // operator, and a tree that counts none (`{OR: [{NOT: {}}, {OR: …}]}`) nests no deeper.
      if (alternatives.some((alternative) => alternative === undefined)) continue;
      const possible = alternatives.filter((alternative) => alternative !== rendering.never);
      const [only] = possible;
      if (only === undefined) return undefined;
      condition =
        possible.length === 1
          ? only
          : opaque(v, possible.map((alternative) => `(${alternative})`).join(" OR "));
    } else if (field === "NOT") {
      const negated = whereOf(type, v, value, fieldPath, rendering);
      if (negated === undefined) return undefined;
      // The negation of what never holds holds for every row.
      if (negated === rendering.never) continue;
      condition = negation(v, negated);
    } else {
      const stored = row.properties[field];
      const link = row.links[field];
      if (stored !== undefined)
        condition = filterCondition(`${v}.${field}`, propertyType(stored).name, value, fieldPath);
      else if (link === undefined) throw new Error(`${type} has no where field ${field}`);
      else if (link.kind === "single") condition = singleLinkCondition(v, link, value, fieldPath, rendering);
      else {
        conditions.push(...linkConditions(v, link, value, fieldPath, rendering));
        continue;
      }
    }
    if (condition !== undefined) conditions.push(condition);
  }
  return conditions;
}

/**
 * The condition a `where` argument (as GraphQL coerced it, its values read from `parameter`) puts
 * on row `v` of `type`, or `undefined` when it keeps every row (absent, null or `{}`). Link
 * subqueries name their rows `<v>w1`, `<v>w2`… apart from every other variable of the query.
 */
export function whereCondition(
  type: ElementType,
  v: string,
  where: unknown,
  parameter = "$where",
): string | undefined {
  let next = 0;
  const rendering: Rendering = {
    never: `${parameter} IS NULL`,
    variable: (base) => `${base}${v}w${String(++next)}`,
  };
  return whereOf(type, v, where, parameter, rendering);
}

/** The condition a list field's request puts on its rows `v` with its `where` argument, if any. */
export const requestedWhere = (type: ElementType, v: string, request: FieldRequest): string | undefined =>
  whereCondition(type, v, request.arguments.where);
