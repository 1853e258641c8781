// Lists in their order (contract §7): a root list's page read from an index in order, a list under
// one parent node, a lookup by id and a single-valued link. A root list's statement is built for
// each request from the arguments it gives: its one start, its filters, its cursor's seek.
import { comesAfter, keyedComesAfter } from "./cursor.js";
import type { ElementList, Parent } from "./element-lists.js";
import { conditionsOf } from "./filters.js";
import { instantPage, POSITION, valuePage, type Page } from "./index-pages.js";
import type { ElementType } from "../domain/table.js";
import { listOrder, orderBy, type ListOrder } from "./order.js";
import { given, givenOf, type FieldRequest } from "./request.js";
import { searchOf, searchStart, type Search } from "./search.js";
import { lines, where, whereAny } from "./text.js";
import { keepsFewRows, readRows, rowsKeptBy } from "./starts.js";
import { requestedWhere } from "./where.js";
import { requestedWhereBounds } from "./where-seeks.js";

export { POSITION, type Page } from "./index-pages.js";

/**
 * A page's size: the argument when the request gives it (the request pipeline has refused a value
 * outside 1..100), else 20 (`null` and absent alike). Written for the request rather than as
 * `toInteger(coalesce($limit, 20))` in every read: every character of a new statement costs
 * planning time.
 */
export const pageSize = (request: FieldRequest, argument: "limit" | "first"): string =>
  given(request, argument) ? `$${argument}` : "20";

/** {@link pageSize} as a number. */
export const pageRows = (request: FieldRequest, argument: "limit" | "first"): number =>
  given(request, argument) ? Number(request.arguments[argument]) : 20;

/** The search a root list field's request asks for, if any (contract §7 part 2). */
export const requestedSearch = (list: ElementList, request: FieldRequest): Search | undefined =>
  searchOf(list.v, list.search, request.arguments.search);

/** The order a list field's request asks for: its `orderBy`, else the element type's own (contract §7). */
export const requestedOrder = (type: ElementType, request: FieldRequest): ListOrder =>
  listOrder(type, request.arguments.orderBy);

/** The arguments of a list that the request gives: its parent's and its filters'. */
export function givenArguments(list: ElementList, request: FieldRequest): Set<string> {
  const names = [
    ...(list.parent === undefined ? [] : [list.parent.argument]),
    ...list.filters.flatMap((filter) =>
      filter.kind === "dayRange" ? [filter.since, filter.until] : [filter.argument],
    ),
  ];
  return new Set(givenOf(request, names));
}

/**
 * A root list's page: clauses returning its rows `v` in the requested order, `page.size` of them.
 * With its parent given, that node's relationships (sorted as they come: they are few); with a
 * search, its candidates, likewise; when its filters are estimated to keep few rows
 * ({@link keepsFewRows}), those rows, likewise; else the index of the ordered property, read in
 * order.
 */
export function rootPage(list: ElementList, request: FieldRequest, page: Page): string[] {
  const given = givenArguments(list, request);
  const { type, v } = list;
  const order = requestedOrder(type, request);
  const search = requestedSearch(list, request);
  const conditions = rowConditions(list, request);
  const filters = [...conditions, ...(page.after ? [comesAfter(v, order, POSITION)] : [])];
  const sorted = [`RETURN ${v}`, `ORDER BY ${orderBy(v, order)}`, `LIMIT ${page.size}`];
  const parent = givenParent(list, request);
  if (parent !== undefined) return [...parentRows(list, parent, filters), ...sorted];
  // The search's candidates, few next to the label: sorted as they come, like a parent's rows.
  if (search?.candidates === true) return [searchStart(v, list.search), where(filters), ...sorted];
  // Few rows pass the filters: all of them read from the fewest's index, and sorted.
  if (keepsFewRows(list, request, given, page.rows))
    return [...keptRows(list, request, given, page.after ? [comesAfter(v, order, POSITION)] : []), ...sorted];
  // The index reads below hold only rows with a servable key: the key comparison decides.
  const keyed = [...conditions, ...(page.after ? [keyedComesAfter(v, order, POSITION)] : [])];
  // A `where` bounding the ordered property keeps only rows with a value: no read of those without.
  const bounded = requestedWhereBounds(type, v, request, order.property);
  const read = { list, order, filters: keyed, conditions, bounded, page };
  return order.kind === "instant" ? instantPage(read, given) : valuePage(read);
}

/** Every row a root list's filters and `where` keep (and `also`), read from the fewest's index (starts.ts). */
function keptRows(
  list: ElementList,
  request: FieldRequest,
  given: ReadonlySet<string>,
  also: readonly string[] = [],
): string[] {
  const kept = requestedWhere(list.type, list.v, request);
  // A search without full-text words (`a AND (b`) still keeps only the rows its condition keeps.
  const search = requestedSearch(list, request);
  return readRows(list, given, { search, kept, rowsKept: rowsKeptBy(list, request), also }).clauses;
}

/**
 * Clauses binding every row of a root list's request, when they are few enough to read them all
 * and sort them (at most `size` are wanted): under the parent node it names, or kept by filters
 * estimated to keep few ({@link keepsFewRows}). Undefined otherwise.
 */
export function fewRows(list: ElementList, request: FieldRequest, size: number): string[] | undefined {
  const parent = givenParent(list, request);
  if (parent !== undefined) return parentRows(list, parent, rowConditions(list, request));
  const given = givenArguments(list, request);
  return requestedSearch(list, request)?.candidates !== true && keepsFewRows(list, request, given, size)
    ? keptRows(list, request, given)
    : undefined;
}

/** The conditions a root list's rows pass: its given filters', its search's and its `where`'s. */
export function rowConditions(list: ElementList, request: FieldRequest): string[] {
  const { type, v } = list;
  const given = givenArguments(list, request);
  const search = requestedSearch(list, request);
  const kept = requestedWhere(type, v, request);
  return [
    ...list.filters.flatMap((filter) => conditionsOf(v, filter, given)),
    ...(search === undefined ? [] : [search.condition]),
    ...(kept === undefined ? [] : [kept]),
  ];
}

/**
 * The rows under the parent node a filter names, once each, that pass `filters`: that node's
 * relationships, few next to the label, sorted as they come by the caller.
 */
export function parentRows(list: ElementList, parent: Parent, filters: readonly string[]): string[] {
  const { type, v } = list;
  return [
    `MATCH (${parent.v}:${parent.label} {id: $${parent.argument}})${parent.relationship}(${v}:${type})`,
    `USING INDEX ${parent.v}:${parent.label}(id)`,
    // Duplicate relationships count once (§7).
    `WITH DISTINCT ${v}`,
    ...whereAny(filters),
  ];
}

/** The parent a root list's request names, if the list has one and the request gives it. */
export function givenParent(list: ElementList, request: FieldRequest): Parent | undefined {
  const { parent } = list;
  return parent !== undefined && givenArguments(list, request).has(parent.argument) ? parent : undefined;
}

/** A root list field's statement. */
export function rootList(list: ElementList, request: FieldRequest): string {
  return lines(
    ...rootPage(list, request, {
      size: pageSize(request, "limit"),
      rows: pageRows(request, "limit"),
      after: false,
    }),
  );
}

/** A node found by its unique `id`, or none. */
export function lookupById(label: string, v: string): string {
  return lines(`MATCH (${v}:${label} {id: $id})`, `RETURN ${v}`, "LIMIT 1");
}
