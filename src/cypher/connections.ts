// Connections (contract §7, v1 additions): Relay-style pages whose cursors are positions in the
// list's order (cursor.ts), never offsets. A connection's rows (one more than its page, to see
// whether more follow) and its count are read here; the request's projection writes what it
// selects of them, the connection's parts (compile.ts), with no map of the connection's own. A
// root connection's statement is built per request: the list's one start and filters, the
// cursor's seek only when `after` is given, the count only when `totalCount` is selected. A nested
// connection's is written into its parent's query, its variables named apart (`names`).
import { comesAfter, cursorOf, namesCutKey } from "./cursor.js";
import { countRows } from "./counts.js";
import type { ElementList } from "./element-lists.js";
import { fewRows, pageRows, pageSize, POSITION, requestedOrder, rootPage } from "./lists.js";
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
function atPosition(order: ListOrder, request: FieldRequest): string[] {
  if (order.kind !== "text") return [`UNWIND [$after] AS ${POSITION}`];
  return [`WITH ${storedPosition(order, request, "$after", "cursorRow")} AS ${POSITION}`];
}

/**
 * The position `after` names (an expression), its text key read back from its row (see
 * {@link atPosition}): the row with the cursor's `id` that holds its key, or, for a cursor whose
 * key was cut (src/cypher/cursor.ts), a key that starts with it. The row is returned from the
 * subquery as a node and its key read outside it: Neo4j 2026.09 copies a string returned from a
 * `COLLECT {}` into a computed value, which compares by UTF-16 code unit again (measured).
 */
function storedPosition(order: ListOrder, request: FieldRequest, after: string, row: string): string {
  const found = `${row}Found`;
  const holds = namesCutKey(request.arguments.after) ? "STARTS WITH" : "=";
  return (
    `coalesce([${found} IN COLLECT { MATCH (${row}:${order.type} {id: ${after}[2]}) ` +
    `WHERE ${row}.${order.property} ${holds} ${after}[1] RETURN ${row} } | ` +
    `[${after}[0], ${found}.${order.property}, ${after}[2]]][0], ${after})`
  );
}

/**
 * A connection's parts over its rows (`first` + 1 of them, in order), each an expression: the
 * page's nodes, a row's position in the connection's order (which the service writes as the
 * cursor), the count, and whether more rows follow: what the request's projection reads
 * (compile.ts), over a nested connection's rows or a root connection's `c`.
 */
export interface ConnectionParts {
  /** The page's rows: a list of nodes. */
  page: string;
  /** The position of the row held by the variable `n`. */
  cursor: (n: string) => string;
  totalCount: string;
  hasNextPage: string;
  endCursor: string;
}

/** The parts of a connection in `order` over its `rows`, counted by `total`, with `n` free for a row. */
function connectionParts(
  order: ListOrder,
  request: FieldRequest,
  rows: string,
  total: string,
  n: string,
): ConnectionParts {
  const FIRST = pageSize(request, "first");
  return {
    page: `${rows}[..${FIRST}]`,
    cursor: (row) => cursorOf(row, order),
    totalCount: total,
    hasNextPage: `size(${rows}) > ${FIRST}`,
    endCursor: `[${n} IN ${rows}[..${FIRST}][-1..] | ${cursorOf(n, order)}][0]`,
  };
}

/**
 * A root connection's parts as its statement leaves them in `c` ({@link rootConnection}), for the
 * request's projection to read (compile.ts).
 */
export function rootConnectionParts(type: ElementType, request: FieldRequest, c: string): ConnectionParts {
  return connectionParts(requestedOrder(type, request), request, `${c}.rows`, `${c}.total`, "n");
}

/**
 * A root connection: `first` + 1 rows of the root list after the cursor's position, and the count
 * when selected, returned as `c` (`{rows, total}`) for the request's projection to read its parts
 * from ({@link rootConnectionParts}); a count selected alone reads no page. When its rows are few
 * (under a parent node the request names, or few kept by its filters: {@link fewRows}), with the
 * count, they are read once: sorted by one `COLLECT {}`, counted, and those after the position kept.
 */
export function rootConnection(list: ElementList, request: FieldRequest): string {
  const FIRST = pageSize(request, "first");
  const after = given(request, "after");
  const order = requestedOrder(list.type, request);
  const connection = `${list.type}Connection`;
  const counted = selects(request, connection, "totalCount");
  // A count alone reads no page.
  if (!["nodes", "edges", "pageInfo"].some((part) => selects(request, connection, part)))
    return lines(
      ...(counted ? call([], countRows(list, request)) : []),
      `RETURN {${counted ? "total: total" : ""}} AS c`,
    );
  const { v } = list;
  const position = after ? atPosition(order, request) : [];
  const few = counted ? fewRows(list, request, pageRows(request, "first") + 1) : undefined;
  if (few !== undefined) {
    const every = `COLLECT { ${few.join(" ")} RETURN ${v} ORDER BY ${orderBy(v, order)} }`;
    const rows = after ? `[${v} IN every WHERE ${comesAfter(v, order, POSITION)}]` : "every";
    return lines(
      ...position,
      `WITH ${after ? `${POSITION}, ` : ""}${every} AS every`,
      `WITH size(every) AS total, ${rows}[..${FIRST} + 1] AS rows`,
      "RETURN {rows: rows, total: total} AS c",
    );
  }
  return lines(
    ...position,
    ...call(
      after ? [POSITION] : [],
      rootPage(list, request, { size: `${FIRST} + 1`, rows: pageRows(request, "first") + 1, after }),
    ),
    `WITH collect(${v}) AS rows`,
    ...(counted ? call([], countRows(list, request)) : []),
    `RETURN {rows: rows${counted ? ", total: total" : ""}} AS c`,
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
 *
 * Its value is what `project` writes from the connection's parts: the request's projection
 * itself (compile.ts), with no map of the connection's written first to be read again, which
 * plans in 0.87–0.89× the time (docs/performance.md).
 */
export function nestedConnection(
  pattern: string,
  v: string,
  type: ElementType,
  request: FieldRequest,
  names: Names,
  project: (parts: ConnectionParts) => string,
): string {
  const FIRST = pageSize(request, "first");
  const [position, every, rows, n] = [names(POSITION), names("every"), names("rows"), names("n")];
  const order = requestedOrder(type, request);
  const value = (total: string) => project(connectionParts(order, request, rows, total, n));
  // Duplicate relationships count once (§7).
  const kept = requestedWhere(type, v, request);
  const sorted = `COLLECT { MATCH ${pattern} WITH DISTINCT ${v}${kept === undefined ? "" : ` WHERE ${kept}`} RETURN ${v} ORDER BY ${orderBy(v, order)} }`;
  // Without a cursor the page's rows are all of them: the parts cut the page and see whether more follow.
  if (!given(request, "after")) return `[${rows} IN [${sorted}] | ${value(`size(${rows})`)}][0]`;
  const at = order.kind === "text" ? storedPosition(order, request, "$after", names("cursorRow")) : "$after";
  const page = `[${v} IN ${every} WHERE ${comesAfter(v, order, position)}][..${FIRST} + 1]`;
  return (
    `[${position} IN [${at}] | [${every} IN [${sorted}] | ` +
    `[${rows} IN [${page}] | ${value(`size(${every})`)}][0]][0]][0]`
  );
}
