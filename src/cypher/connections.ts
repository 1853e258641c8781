// Connections (contract §7, v1 additions): Relay-style pages whose cursors are positions in the
// list's order (cursor.ts), never offsets. A connection field's statement returns a map (its
// page's nodes, their edges, its count, its page info, each only when selected) that the request's
// query projects (compile.ts). A root connection's statement is built per request: the list's one
// start and filters, the cursor's seek only when `after` is given, the count only when
// `totalCount` is selected. A nested connection's is written into its parent's query, its
// variables named apart (`names`).
import { comesAfter, cursorOf } from "./cursor.js";
import { countRows } from "./counts.js";
import type { ElementList } from "./element-lists.js";
import {
  givenParent,
  pageSize,
  parentRows,
  POSITION,
  requestedOrder,
  rootPage,
  rowConditions,
} from "./lists.js";
import type { ElementType } from "../domain/table.js";
import { orderBy, type ListOrder } from "./order.js";
import { given, selects, type FieldRequest } from "./request.js";
import { call, lines } from "./text.js";
import { requestedWhere } from "./where.js";

/** How a nested connection names its variables apart from its parent query's (compile.ts). */
export type Names = (base: string) => string;

/**
 * The position of a given `after` (arguments.ts), bound to {@link POSITION} for the reads that
 * follow. A text key is read back from the cursor's row when that row still holds it: Neo4j orders
 * stored strings by code point, but compares a string parameter with a stored string by UTF-16
 * code unit (U+1F600 before U+E000, measured on 5.26.30 and 2026.09.0), so only a stored key
 * compares as the rows are ordered. A row since deleted or renamed leaves the cursor's own key.
 */
function atPosition(order: ListOrder): string[] {
  if (order.kind !== "text") return [`UNWIND [$after] AS ${POSITION}`];
  return [`WITH ${storedPosition(order, "$after", "cursorRow")} AS ${POSITION}`];
}

/**
 * The position `after` names (an expression), its text key read back from its row (see
 * {@link atPosition}). The row is returned from the subquery as a node and its key read outside
 * it: Neo4j 2026.09 copies a string returned from a `COLLECT {}` into a computed value, which
 * compares by UTF-16 code unit again (measured).
 */
function storedPosition(order: ListOrder, after: string, row: string): string {
  const found = `${row}Found`;
  return (
    `coalesce([${found} IN COLLECT { MATCH (${row}:${order.type} {id: ${after}[2]}) ` +
    `WHERE ${row}.${order.property} = ${after}[1] RETURN ${row} } | ` +
    `[${after}[0], ${found}.${order.property}, ${after}[2]]][0], ${after})`
  );
}

/**
 * A connection's map from its rows (`first` + 1 of them, in order): the page's `nodes`, their
 * `edges` (each row with its position in the connection's order, which the service writes as the
 * cursor) when selected, and `totalCount` and `pageInfo` when selected. Each is an expression
 * over the rows: no subquery of its own for Neo4j to plan.
 */
function connectionMap(
  order: ListOrder,
  request: FieldRequest,
  rows: string,
  total: string,
  n: string,
): string {
  const connection = `${order.type}Connection`;
  const FIRST = pageSize(request, "first");
  const fields = [`nodes: ${rows}[..${FIRST}]`];
  if (selects(request, connection, "edges"))
    fields.push(`edges: [${n} IN ${rows}[..${FIRST}] | {cursor: ${cursorOf(n, order)}, node: ${n}}]`);
  if (selects(request, connection, "totalCount")) fields.push(`totalCount: ${total}`);
  if (selects(request, connection, "pageInfo"))
    fields.push(
      `pageInfo: {hasNextPage: size(${rows}) > ${FIRST}, endCursor: [${n} IN ${rows}[..${FIRST}][-1..] | ${cursorOf(n, order)}][0]}`,
    );
  return `{${fields.join(", ")}}`;
}

/**
 * A root connection: `first` + 1 rows of the root list after the cursor's position, and the count
 * when selected. Under a parent node the request names, with the count, its rows are read once
 * (they are few): sorted by one `COLLECT {}`, counted, and those after the position kept.
 */
export function rootConnection(list: ElementList, request: FieldRequest): string {
  const FIRST = pageSize(request, "first");
  const after = given(request, "after");
  const order = requestedOrder(list.type, request);
  const counted = selects(request, `${list.type}Connection`, "totalCount");
  const parent = givenParent(list, request);
  const { v } = list;
  const position = after ? atPosition(order) : [];
  if (counted && parent !== undefined) {
    const every = `COLLECT { ${parentRows(list, parent, rowConditions(list, request)).join(" ")} RETURN ${v} ORDER BY ${orderBy(v, order)} }`;
    const rows = after ? `[${v} IN every WHERE ${comesAfter(v, order, POSITION)}]` : "every";
    return lines(
      ...position,
      `WITH ${after ? `${POSITION}, ` : ""}${every} AS every`,
      `WITH size(every) AS total, ${rows}[..${FIRST} + 1] AS rows`,
      `RETURN ${connectionMap(order, request, "rows", "total", "n")} AS c`,
    );
  }
  return lines(
    ...position,
    ...call(after ? [POSITION] : [], rootPage(list, request, { size: `${FIRST} + 1`, after })),
    `WITH collect(${v}) AS rows`,
    ...(counted ? call([], countRows(list, request)) : []),
    `RETURN ${connectionMap(order, request, "rows", "total", "n")} AS c`,
  );
}

/**
 * The connection of a list under one node (the pattern's start, in the query around it) in the
 * requested order, as an expression of that query (compile.ts), its variables named apart
 * (`names`): all its rows are read (they are few) and sorted by one `COLLECT {}` subquery, counted
 * for `totalCount`, and those after the cursor's position kept for the page; the rest are list
 * expressions binding their values, so the connection is one subquery for Neo4j to plan (two with
 * a text cursor, whose key is read back from its row). No `collect()` aggregation: Neo4j 5.26
 * refuses one inside a subquery expression of a `RETURN` that projects other values.
 */
export function nestedConnection(
  pattern: string,
  v: string,
  type: ElementType,
  request: FieldRequest,
  names: Names,
): string {
  const FIRST = pageSize(request, "first");
  const [position, every, rows, n] = [names(POSITION), names("every"), names("rows"), names("n")];
  const order = requestedOrder(type, request);
  // Duplicate relationships count once (§7).
  const kept = requestedWhere(type, v, request);
  const sorted = `COLLECT { MATCH ${pattern} WITH DISTINCT ${v}${kept === undefined ? "" : ` WHERE ${kept}`} RETURN ${v} ORDER BY ${orderBy(v, order)} }`;
  // Without a cursor the page's rows are all of them: the map cuts the page and sees whether more follow.
  if (!given(request, "after"))
    return `[${rows} IN [${sorted}] | ${connectionMap(order, request, rows, `size(${rows})`, n)}][0]`;
  const at = order.kind === "text" ? storedPosition(order, "$after", names("cursorRow")) : "$after";
  const page = `[${v} IN ${every} WHERE ${comesAfter(v, order, position)}][..${FIRST} + 1]`;
  return (
    `[${position} IN [${at}] | [${every} IN [${sorted}] | ` +
    `[${rows} IN [${page}] | ${connectionMap(order, request, rows, `size(${every})`, n)}][0]][0]][0]`
  );
}
