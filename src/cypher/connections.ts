// Connections (contract §7, v1 additions): Relay-style pages whose cursors are positions in the
// list's order (cursor.ts), never offsets. A connection field's statement returns a map (its
// page's rows, whether more follow, its count when selected); the connection and edge types read
// it. A root connection's statement is built per request: the list's one start and filters, the
// cursor's seek only when `after` is given, the count only when `totalCount` is selected.
import { comesAfter, cursorOf } from "./cursor.js";
import { countRows } from "./counts.js";
import type { ElementList } from "./domain.js";
import { pageSize, POSITION, requestedOrder, rootPage } from "./lists.js";
import { orderBy, type ElementType, type ListOrder } from "./order.js";
import { given, selects, type FieldRequest } from "./request.js";
import { call, lines } from "./text.js";

/**
 * The position of a given `after` (arguments.ts), bound to {@link POSITION} for the reads that
 * follow. A text key is read back from the cursor's row when that row still holds it: Neo4j orders
 * stored strings by code point, but compares a string parameter with a stored string by UTF-16
 * code unit (U+1F600 before U+E000, measured on 5.26.30 and 2026.09.0), so only a stored key
 * compares as the rows are ordered. A row since deleted or renamed leaves the cursor's own key.
 */
function atPosition(order: ListOrder): string[] {
  if (order.kind !== "text") return [`UNWIND [$after] AS ${POSITION}`];
  const key = `cursorRow.${order.property}`;
  return [
    "UNWIND [$after] AS cursor",
    `OPTIONAL MATCH (cursorRow:${order.type} {id: cursor[2]})`,
    `WITH *, CASE WHEN ${key} = cursor[1] THEN [cursor[0], ${key}, cursor[2]] ELSE cursor END AS ${POSITION}`,
  ];
}

/**
 * A connection's map: its page's rows, their edges (each row with its cursor in the connection's
 * order) when `edges` is selected, and `totalCount` and `pageInfo` when the request selects them.
 * Those are plain fields of the connection type, read from the map: a `@cypher` field there would
 * wrap two more subqueries around each in the request's Cypher, for Neo4j to plan (about 120 of
 * the 200 ms a connection with `totalCount` took to plan, measured at 10k).
 */
function connectionMap(order: ListOrder, request: FieldRequest, total: string): string[] {
  const connection = `${order.type}Connection`;
  const FIRST = pageSize(request, "first");
  const fields = [`rows: rows[..${FIRST}]`];
  if (selects(request, connection, "edges"))
    fields.push(`edges: [n IN rows[..${FIRST}] | {cursor: ${cursorOf("n", order)}, node: n}]`);
  if (selects(request, connection, "totalCount")) fields.push(`totalCount: ${total}`);
  if (!selects(request, connection, "pageInfo")) return [`RETURN {${fields.join(", ")}} AS c`];
  fields.push(`pageInfo: {hasNextPage: size(rows) > ${FIRST}, endCursor: endCursor}`);
  return [
    // The page's last row, read back as a node (see asNode) for its cursor.
    ...call(
      ["rows"],
      [asNode(`UNWIND rows[..${FIRST}][-1..] AS n`, "n"), `RETURN ${cursorOf("n", order)} AS endCursor`],
      true,
    ),
    `RETURN {${fields.join(", ")}} AS c`,
  ];
}

/** A root connection: `first` + 1 rows of the root list after the cursor's position, and the count when selected. */
export function rootConnection(list: ElementList, request: FieldRequest): string {
  const FIRST = pageSize(request, "first");
  const after = given(request, "after");
  const counted = selects(request, `${list.type}Connection`, "totalCount");
  return lines(
    ...(after ? atPosition(requestedOrder(list.type, request)) : []),
    ...call(after ? [POSITION] : [], rootPage(list, request, { size: `${FIRST} + 1`, after })),
    `WITH collect(${list.v}) AS rows`,
    ...(counted ? call([], countRows(list, request)) : []),
    ...connectionMap(requestedOrder(list.type, request), request, "total"),
  );
}

/**
 * The connection of a list under one parent node (`this`) in the requested order: all its rows
 * are read (they are few) and sorted, counted for `totalCount`, and those after the cursor's
 * position kept for the page. Sorted before `collect`, which keeps the rows' order, rather than in a
 * subquery over the collected rows: one subquery fewer for Neo4j to plan (6–8% of a statement
 * with one such connection, docs/performance.md).
 */
export function nestedConnection(
  pattern: string,
  v: string,
  type: ElementType,
  request: FieldRequest,
): string {
  const FIRST = pageSize(request, "first");
  const after = given(request, "after");
  const imports = after ? [POSITION] : [];
  const order = requestedOrder(type, request);
  // Without a cursor the page's rows are all of them: the map cuts the page and sees whether more follow.
  const read = after
    ? [
        `WITH ${POSITION}, collect(${v}) AS every`,
        `WITH every, [${v} IN every WHERE ${comesAfter(v, order, POSITION)}][..${FIRST} + 1] AS rows`,
      ]
    : [`WITH collect(${v}) AS rows`];
  return lines(
    ...(after ? atPosition(order) : []),
    `OPTIONAL MATCH ${pattern}`,
    // Duplicate relationships count once (§7).
    `WITH DISTINCT ${[...imports, v].join(", ")}`,
    `ORDER BY ${orderBy(v, order)}`,
    ...read,
    ...connectionMap(order, request, after ? "size(every)" : "size(rows)"),
  );
}

/**
 * A node kept in a connection's or group's map, read back as a node. `MATCH (v)` on the bound
 * variable (a filter, no read) gives it a node's type again: Neo4j 5.26 answers null for the second
 * read of one property of a value of unknown type (`v { .id, a: v.id }`, a field under two aliases).
 */
export function asNode(expression: string, v: string): string {
  return expression.startsWith("UNWIND ")
    ? `${expression} MATCH (${v})`
    : `WITH ${expression} AS ${v} MATCH (${v})`;
}

/** The statements of `<Type>Connection` and `<Type>Edge`: the page as edges and nodes. */
export function connectionTypeStatements(type: ElementType): Record<string, string> {
  const v = "n";
  return {
    [`${type}Connection.edges`]: "UNWIND this.edges AS e RETURN e",
    [`${type}Connection.nodes`]: `${asNode(`UNWIND this.rows AS ${v}`, v)} RETURN ${v}`,
    [`${type}Edge.node`]: `${asNode("this.node", "n")} RETURN n`,
  };
}
