// Connections (contract §7, v1 additions): Relay-style pages whose cursors are positions in the
// list's order (cursor.ts), never offsets. A connection field's statement returns a map (its
// page's rows, whether more follow, its count when selected); the connection and edge types read
// it. A root connection's statement is built per request: the list's one start and filters, the
// cursor's seek only when `after` is given, the count only when `totalCount` is selected.
import { comesAfter, cursorOf, ORDERS, positionOf, type ElementType } from "./cursor.js";
import { countRows } from "./counts.js";
import type { ElementList } from "./domain.js";
import { pageSize, POSITION, rootPage } from "./lists.js";
import { orderBy } from "./order.js";
import { given, selects, type FieldRequest } from "./request.js";
import { call, lines } from "./text.js";

/** The position of a given `after`, bound to {@link POSITION} for the reads that follow. */
const AT_POSITION = `UNWIND [${positionOf("after")}] AS ${POSITION}`;

/**
 * A connection's map: its page's rows, and `totalCount` and `pageInfo` when the request selects
 * them. Those two are plain fields of the connection type, read from the map: a `@cypher` field
 * there would wrap two more subqueries around each in the request's Cypher, for Neo4j to plan
 * (about 120 of the 200 ms a connection with `totalCount` took to plan, measured at 10k).
 */
function connectionMap(type: ElementType, request: FieldRequest, total: string): string[] {
  const FIRST = pageSize(request, "first");
  const fields = [`rows: rows[..${FIRST}]`];
  if (selects(request, `${type}Connection`, "totalCount")) fields.push(`totalCount: ${total}`);
  if (!selects(request, `${type}Connection`, "pageInfo")) return [`RETURN {${fields.join(", ")}} AS c`];
  fields.push(`pageInfo: {hasNextPage: size(rows) > ${FIRST}, endCursor: endCursor}`);
  return [
    // The page's last row, read back as a node (see asNode) for its cursor.
    ...call(
      ["rows"],
      [asNode(`UNWIND rows[..${FIRST}][-1..] AS n`, "n"), `RETURN ${cursorOf("n", type)} AS endCursor`],
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
    ...(after ? [AT_POSITION] : []),
    ...call(after ? [POSITION] : [], rootPage(list, request, { size: `${FIRST} + 1`, after })),
    `WITH collect(${list.v}) AS rows`,
    ...(counted ? call([], countRows(list, request)) : []),
    ...connectionMap(list.type, request, "total"),
  );
}

/**
 * The connection of a list under one parent node (`this`): all its rows are read (they are few),
 * counted for `totalCount`, and those after the cursor's position sorted for the page.
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
  return lines(
    ...(after ? [AT_POSITION] : []),
    `OPTIONAL MATCH ${pattern}`,
    `WITH ${[...imports, `collect(DISTINCT ${v}) AS every`].join(", ")}`,
    ...call(
      ["every", ...imports],
      [
        `UNWIND every AS ${v}`,
        ...(after ? [`WITH ${v} WHERE ${comesAfter(v, type, POSITION)}`] : []),
        `RETURN ${v}`,
        `ORDER BY ${orderBy(v, ORDERS[type])}`,
        `LIMIT ${FIRST} + 1`,
      ],
      true,
    ),
    `WITH every, collect(${v}) AS rows`,
    ...connectionMap(type, request, "size(every)"),
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

/** The statements of `<Type>Connection` and `<Type>Edge`: the page as edges and nodes, and where it ends. */
export function connectionTypeStatements(type: ElementType): Record<string, string> {
  const v = "n";
  return {
    [`${type}Connection.edges`]: `${asNode(`UNWIND this.rows AS ${v}`, v)} RETURN {cursor: ${cursorOf(v, type)}, node: ${v}} AS e`,
    [`${type}Connection.nodes`]: `${asNode(`UNWIND this.rows AS ${v}`, v)} RETURN ${v}`,
    [`${type}Edge.node`]: `${asNode("this.node", "n")} RETURN n`,
  };
}
