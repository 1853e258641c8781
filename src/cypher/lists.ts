// Lists in their order (contract §7): a root list's page read from an index in order, a list under
// one parent node, a lookup by id and a single-valued link. A root list's statement is built for
// each request from the arguments it gives: its one start, its filters, its cursor's seek.
import { comesAfter, keyedComesAfter } from "./cursor.js";
import type { ElementList } from "./element-lists.js";
import { conditionsOf } from "./filters.js";
import { instantPage, POSITION, valuePage, type Page } from "./index-pages.js";
import type { ElementType } from "../domain/table.js";
import { listOrder, orderBy, type ListOrder } from "./order.js";
import { given, givenOf, type FieldRequest } from "./request.js";
import { searchOf, searchStart, type Search } from "./search.js";
import { lines, where } from "./text.js";
import { requestedWhere } from "./where.js";

export { POSITION, type Page } from "./index-pages.js";

/**
 * A page's size: the argument when the request gives it (the request pipeline has refused a value
 * outside 1..100), else 20 (`null` and absent alike). Written for the request rather than as
 * `toInteger(coalesce($limit, 20))` in every read: every character of a new statement costs
 * planning time.
 */
export const pageSize = (request: FieldRequest, argument: "limit" | "first"): string =>
  given(request, argument) ? `$${argument}` : "20";

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
 * With its parent given, that node's relationships (sorted as they come: they are few); else the
 * index of the ordered property, read in order.
 */
export function rootPage(list: ElementList, request: FieldRequest, page: Page): string[] {
  const given = givenArguments(list, request);
  const { type, v, parent } = list;
  const order = requestedOrder(type, request);
  const search = requestedSearch(list, request);
  const kept = requestedWhere(type, v, request);
  const conditions = [
    ...list.filters.flatMap((filter) => conditionsOf(v, filter, given)),
    ...(search === undefined ? [] : [search.condition]),
    ...(kept === undefined ? [] : [kept]),
  ];
  const filters = [...conditions, ...(page.after ? [comesAfter(v, order, POSITION)] : [])];
  if (search?.query !== undefined && !(parent !== undefined && given.has(parent.argument))) {
    // The search's candidates, few next to the label: sorted as they come, like a parent's rows.
    return [
      searchStart(v, list.search, search.query),
      where(filters),
      `RETURN ${v}`,
      `ORDER BY ${orderBy(v, order)}`,
      `LIMIT ${page.size}`,
    ];
  }
  if (parent !== undefined && given.has(parent.argument)) {
    return [
      `MATCH (${parent.v}:${parent.label} {id: $${parent.argument}})${parent.relationship}(${v}:${type})`,
      `USING INDEX ${parent.v}:${parent.label}(id)`,
      // Duplicate relationships count once (§7).
      `WITH DISTINCT ${v}`,
      ...(filters.length === 0 ? [] : [where(filters)]),
      `RETURN ${v}`,
      `ORDER BY ${orderBy(v, order)}`,
      `LIMIT ${page.size}`,
    ];
  }
  // The index reads below hold only rows with a servable key: the key comparison decides.
  const keyed = [...conditions, ...(page.after ? [keyedComesAfter(v, order, POSITION)] : [])];
  return order.kind === "instant"
    ? instantPage(list, order, given, keyed, conditions, page)
    : valuePage(list, order, keyed, conditions, page);
}

/** A root list field's statement. */
export function rootList(list: ElementList, request: FieldRequest): string {
  return lines(...rootPage(list, request, { size: pageSize(request, "limit"), after: false }));
}

/** A node found by its unique `id`, or none. */
export function lookupById(label: string, v: string): string {
  return `MATCH (${v}:${label} {id: $id}) RETURN ${v} LIMIT 1`;
}
