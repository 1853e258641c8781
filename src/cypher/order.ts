// The orders of lists (contract §7): each element type's own order, and those `orderBy` chooses
// (v1 additions, part 2), as the domain table names them (src/domain/table.ts). An order is data
// — the property, the kind of value it holds, the direction — rendered by the functions below and by the list reads (lists.ts) and cursors
// (cursor.ts). Rows without a servable value (values.ts) come last in both directions, by `id`;
// every order ends with the `id` tie-break, ascending, so it is total.
import { DOMAIN, ELEMENT_TYPES, propertyType, type Direction, type ElementType } from "../domain/table.js";
import {
  servableDate,
  servableDateBounds,
  servableInstant,
  servableInstantBounds,
  servableInt,
  servableIntBounds,
  servableNumber,
  servableNumberBounds,
  servableText,
} from "./values.js";

/** What an ordered property holds (contract §8's types). */
export type ValueKind = "instant" | "date" | "text" | "int" | "float";

/** The kind of value each stored type orders as. */
const KINDS: Readonly<Record<string, ValueKind>> = {
  DateTime: "instant",
  Date: "date",
  String: "text",
  ID: "text",
  Int: "int",
  Float: "float",
};

/** The properties each element type can be ordered by, by their `…OrderField` enum value (the domain table's orders). */
const ORDER_FIELDS = Object.fromEntries(
  ELEMENT_TYPES.map((type) => {
    const { orders, properties } = DOMAIN[type];
    const fields = Object.entries(orders).map(([field, property]) => {
      const stored = properties[property];
      const kind = stored === undefined ? undefined : KINDS[propertyType(stored).name];
      if (kind === undefined) throw new Error(`${type}: the order ${field} names no orderable property`);
      return [field, [property, kind] as const];
    });
    return [type, Object.fromEntries(fields)];
  }),
) as Readonly<Record<ElementType, Readonly<Record<string, readonly [string, ValueKind]>>>>;

/** Each element type's own order (contract §7): what a list answers without `orderBy`, the table's first. */
const ownOrder = (type: ElementType): [field: string, direction: Direction] => [
  Object.keys(DOMAIN[type].orders)[0] ?? "",
  DOMAIN[type].ownDirection,
];

/** One order of a list of `type`. */
export interface ListOrder {
  type: ElementType;
  /** The enum value naming the field and the direction (`REGRET_SCORE`, `DESC`). */
  field: string;
  direction: Direction;
  property: string;
  kind: ValueKind;
  /**
   * What a cursor of this order names first: the element type for its own order (the cursors
   * written before `orderBy` existed stay valid), `Type/FIELD/DIRECTION` for any other.
   */
  tag: string;
}

/**
 * The order `orderBy` names for a list of `type` (`{field, direction}` as GraphQL coerced it,
 * defaults applied); absent or null, the type's own order. `orderBy` naming the own order is
 * that order, with its cursors.
 */
export function listOrder(type: ElementType, orderBy?: unknown): ListOrder {
  const [ownField, ownDirection] = ownOrder(type);
  const chosen = (orderBy ?? {}) as { field?: unknown; direction?: unknown };
  const field = typeof chosen.field === "string" ? chosen.field : ownField;
  const direction =
    chosen.direction === "ASC" || chosen.direction === "DESC" ? chosen.direction : ownDirection;
  const fields = ORDER_FIELDS[type];
  const known = fields[field];
  if (known === undefined) throw new Error(`${type} has no order field ${field}`);
  const own = field === ownField && direction === ownDirection;
  return {
    type,
    field,
    direction,
    property: known[0],
    kind: known[1],
    tag: own ? type : `${type}/${field}/${direction}`,
  };
}

/** The order a cursor's tag names, if it names one of `type` (see {@link ListOrder.tag}). */
export function orderOfTag(type: ElementType, tag: string): ListOrder | undefined {
  if (tag === type) return listOrder(type);
  const [tagType, field, direction] = tag.split("/");
  const fields = ORDER_FIELDS[type];
  if (
    tagType !== type ||
    field === undefined ||
    !(field in fields) ||
    (direction !== "ASC" && direction !== "DESC")
  )
    return undefined;
  const order = listOrder(type, { field, direction });
  return order.tag === tag ? order : undefined;
}

/** The order's name as a caller writes it (`REGRET_SCORE ASC`), for messages. */
export const orderName = (order: ListOrder): string => `${order.field} ${order.direction}`;

/** The ordered property of row `v`. */
export const valueOf = (v: string, order: ListOrder): string => `${v}.${order.property}`;

/** Per kind of value: the test that a value is servable, and the index-seekable bounds holding exactly those. */
const SERVABLE: Record<ValueKind, { test: (value: string) => string; bounds: (value: string) => string[] }> =
  {
    instant: { test: servableInstant, bounds: servableInstantBounds },
    date: { test: servableDate, bounds: servableDateBounds },
    text: { test: servableText, bounds: (value) => [servableText(value)] },
    int: { test: servableInt, bounds: servableIntBounds },
    float: { test: servableNumber, bounds: servableNumberBounds },
  };

/** True, or false or null, when `value` holds a servable value of the order's kind (for a `CASE WHEN`). */
export const servable = (order: ListOrder, value: string): string => SERVABLE[order.kind].test(value);

/** True (never null) when `value` holds a servable value of the order's kind: the form `NOT` can negate. */
export const isServable = (order: ListOrder, value: string): string =>
  `coalesce(${servable(order, value)}, false)`;

/**
 * True when `value` holds no servable value of the order's kind: `NOT` {@link isServable}. For a
 * text it is written as the type predicate that means the same (every string is `>= ''`), which
 * plans faster: a value-ordered root page's statement in 0.95× the time, paired cold `EXPLAIN`.
 */
export const lacksServable = (order: ListOrder, value: string): string =>
  order.kind === "text" ? `NOT ${value} IS :: STRING NOT NULL` : `NOT ${isServable(order, value)}`;

/**
 * Conditions holding exactly the servable values of the order's kind: index-seekable bounds, the
 * lower first and the upper second (none for a text), and for a number the test that it is exact
 * (an `Int` whole, a `Float` held by a float).
 */
export const servableBounds = (order: ListOrder, value: string): string[] =>
  SERVABLE[order.kind].bounds(value);

/**
 * `ORDER BY` for a list of `v`. Neo4j orders two `DATETIME`s at one instant by their zones
 * (`+02:00` after `Z` after `-05:00`), so instants are compared as epoch seconds and nanoseconds,
 * which ties them for the `id` tie-break; a row's key is then a list (`[0, …]` before `[1]`).
 * Rows without a servable value come last in both directions, by `id`, and the accessors read
 * only those with one.
 */
export function orderBy(v: string, order: ListOrder): string {
  const value = valueOf(v, order);
  const ok = servable(order, value);
  if (order.kind === "instant") {
    const sign = order.direction === "DESC" ? "-" : "";
    return `CASE WHEN ${ok} THEN [0, ${sign}${value}.epochSeconds, ${sign}${value}.nanosecond] ELSE [1] END, ${v}.id`;
  }
  // Ascending, null sorts last; descending, the rows without a value must be put last first.
  if (order.direction === "ASC") return `CASE WHEN ${ok} THEN ${value} END, ${v}.id`;
  return `CASE WHEN ${ok} THEN 0 ELSE 1 END, CASE WHEN ${ok} THEN ${value} END DESC, ${v}.id`;
}
