// A connection's cursor (contract §7): a position in a list's order, never an offset. It is the
// base64url of a JSON array: the order's tag (the element type, for its own order), then the
// row's sort key and its `id`. Cypher returns a row's position as a list (`cursorOf`) and the
// service writes it as the cursor (`cursorFromCypher`), a text key longer than
// `CURSOR_TEXT_KEY_CODE_POINTS` cut to them; a cursor arriving in `after` is checked here
// before any Cypher runs (`decodeCursor`) and handed to Cypher as the position it names
// (`positionOf`), so the database only ever reads positions of the shape it wrote. The format is
// spelled here once for both sides.

import neo4j from "neo4j-driver";
import { orderName, orderOfTag, servable, lacksServable, valueOf, type ListOrder } from "./order.js";

/**
 * A decoded position: `[tag, "epochSeconds", nanosecond, id]` for an instant (the seconds as text:
 * Neo4j's range exceeds JSON numbers' exact integers), `[tag, "YYYY-MM-DD", id]` for a date,
 * `[tag, text, id]` for a text, `[tag, number, id]` for a number; the tag names the order
 * (`ListOrder.tag`). A null key is a row without one (it sorts last). A text key longer than
 * {@link CURSOR_TEXT_KEY_CODE_POINTS} is cut to them and marked: `[tag, prefix, id, true]`.
 */
export type Position = [string, ...(number | string | boolean | null)[]];

/**
 * How many code points of a text sort key a cursor holds. The ingest may store a name of any
 * length; a cursor holding a 50,000-character key would not fit in a document (10,000
 * characters) or a body (64 KiB), and paging would stop at its row. A longer key is cut, and its
 * statement reads the whole key back from the cursor's row (src/cypher/connections.ts): only
 * when that row has since been deleted does the page start from the cut key, among the rows that
 * share its first 256 code points.
 */
export const CURSOR_TEXT_KEY_CODE_POINTS = 256;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
/** A servable date as Cypher's `toString` writes it: the years 0000–9999 (src/cypher/values.ts). */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Epoch seconds as Cypher's `toString` writes them. */
const EPOCH_SECONDS = /^-?(0|[1-9]\d{0,11})$/;
/** The epoch seconds of the servable instants (src/cypher/values.ts): 0000-01-01T00:00Z to 10000-01-01T00:00Z. */
const SERVABLE_SECONDS = [-62_167_219_200, 253_402_300_800] as const;

/** Whether `text` is a date Cypher writes for a servable date: a real calendar day of the years 0000–9999. */
function isServableDate(text: string): boolean {
  const [, year, month, day] = CALENDAR_DATE.exec(text)?.map(Number) ?? [];
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `text` names the epoch seconds of a servable instant. */
const isServableSecond = (text: string): boolean =>
  EPOCH_SECONDS.test(text) && Number(text) >= SERVABLE_SECONDS[0] && Number(text) < SERVABLE_SECONDS[1];
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The position `cursor` names in a list in `order`, or why it does not name one: damaged, or
 * written for a list of another element type or in another order. Strict: the text must be
 * exactly what Cypher writes for some row (canonical base64url with padding, a JSON array of the
 * order's shape), so that Neo4j never reads a cursor differently from this check.
 */
export function decodeCursor(cursor: string, order: ListOrder): Position | string {
  const damaged = "is not a cursor of this list (damaged, or not a cursor)";
  if (!BASE64URL.test(cursor) || cursor.length % 4 !== 0) return damaged;
  const bytes = Buffer.from(cursor, "base64url");
  if (bytes.toString("base64url") !== cursor.replace(/=+$/, "")) return damaged;
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return damaged;
  }
  if (!Array.isArray(value) || typeof value[0] !== "string") return damaged;
  const tag = value[0];
  const [tagType = ""] = tag.split("/");
  if (tagType !== order.type) return `is a cursor of a list of ${tagType.slice(0, 40)}, not of ${order.type}`;
  if (tag !== order.tag) {
    const other = orderOfTag(order.type, tag);
    return other === undefined
      ? damaged
      : `is a cursor of the order ${orderName(other)}, not of ${orderName(order)} (contract §7: a cursor names a position in its own order)`;
  }
  const [, ...key] = value as unknown[];
  if (order.kind === "text" && key.length === 3) {
    const [prefix, id, cut] = key;
    return typeof prefix === "string" && isCutKey(prefix) && typeof id === "string" && cut === true
      ? [tag, prefix, id, true]
      : damaged;
  }
  const id = key.at(-1);
  if (typeof id !== "string") return damaged;
  if (order.kind !== "instant") {
    if (key.length !== 2) return damaged;
    const [at] = key;
    const valid =
      at === null ||
      (order.kind === "int"
        ? Number.isInteger(at) && (at as number) >= -(2 ** 31) && (at as number) < 2 ** 31
        : order.kind === "float"
          ? typeof at === "number" && Number.isFinite(at)
          : typeof at === "string" && (order.kind === "text" || isServableDate(at)));
    return valid ? [tag, at as string | number | null, id] : damaged;
  }
  const [seconds, nanosecond] = key;
  if (key.length !== 3) return damaged;
  if (seconds === null && nanosecond === null) return [tag, null, null, id];
  return typeof seconds === "string" &&
    isServableSecond(seconds) &&
    Number.isInteger(nanosecond) &&
    !Object.is(nanosecond, -0) &&
    (nanosecond as number) >= 0 &&
    (nanosecond as number) < 1e9
    ? [tag, seconds, nanosecond as number, id]
    : damaged;
}

/**
 * The cursor of a position: the base64url of its JSON, padded. A key of −0 is written `-0`
 * (`JSON.stringify` would write `0`): Neo4j orders −0.0 before 0.0 ({@link comesAfter}).
 */
export function encodeCursor(position: Position): string {
  const json = `[${position.map((item) => (Object.is(item, -0) ? "-0" : JSON.stringify(item))).join(",")}]`;
  const text = Buffer.from(json, "utf8").toString("base64url");
  return text.padEnd(Math.ceil(text.length / 4) * 4, "=");
}

/** The sort key of row `v` in `order`, as a Cypher list (the cursor's middle): nulls without a servable value. */
function keyOf(v: string, order: ListOrder): string {
  const value = valueOf(v, order);
  const ok = servable(order, value);
  if (order.kind === "instant")
    return `CASE WHEN ${ok} THEN [toString(${value}.epochSeconds), ${value}.nanosecond] ELSE [null, null] END`;
  return `[CASE WHEN ${ok} THEN ${order.kind === "date" ? `toString(${value})` : value} END]`;
}

/** Cypher for the position of row `v` in `order`, a list {@link cursorFromCypher} writes as its cursor. */
export function cursorOf(v: string, order: ListOrder): string {
  return `['${order.tag}'] + ${keyOf(v, order)} + [${v}.id]`;
}

/** Whether `text` is what a cut key is: exactly {@link CURSOR_TEXT_KEY_CODE_POINTS} code points. */
function isCutKey(text: string): boolean {
  // At most two UTF-16 units a code point: a longer text is never one.
  return (
    text.length <= 2 * CURSOR_TEXT_KEY_CODE_POINTS && Array.from(text).length === CURSOR_TEXT_KEY_CODE_POINTS
  );
}

/**
 * The cursor of a position as Cypher returns it ({@link cursorOf}): its integers (an instant's
 * nanosecond, an `Int` key) arrive as the driver's 64-bit integers and are written as JSON numbers;
 * a text key longer than {@link CURSOR_TEXT_KEY_CODE_POINTS} is cut and marked. (A three-item
 * position's key is a text or a date; a date is ten characters.)
 */
export function cursorFromCypher(position: unknown): string {
  if (!Array.isArray(position) || typeof position[0] !== "string")
    throw new TypeError("not a position Cypher wrote");
  const items = position.map((item: unknown) => (neo4j.isInt(item) ? item.toNumber() : item)) as Position;
  const [tag, key, id] = items;
  if (items.length === 3 && typeof key === "string" && key.length > CURSOR_TEXT_KEY_CODE_POINTS) {
    const codePoints = Array.from(key);
    if (codePoints.length > CURSOR_TEXT_KEY_CODE_POINTS)
      return encodeCursor([tag, codePoints.slice(0, CURSOR_TEXT_KEY_CODE_POINTS).join(""), id ?? null, true]);
  }
  return encodeCursor(items);
}

/** Whether a given `after` names a cut text key ({@link CURSOR_TEXT_KEY_CODE_POINTS}), which its statement reads back by prefix. */
export function namesCutKey(after: unknown): boolean {
  return typeof after === "string" && positionOf(after).at(-1) === true;
}

/**
 * The position a cursor names, as its statement reads it from `$after` (src/cypher/arguments.ts):
 * the cursor's JSON array, integral numbers as Cypher integers (as Cypher wrote them). The request
 * pipeline has refused any other cursor ({@link decodeCursor}); only pre-planning's stand-ins
 * (src/planning/) are other texts, read as a list holding the text so that Neo4j plans the
 * statement with a parameter of the type real requests send.
 */
export function positionOf(cursor: string): unknown[] {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return [cursor];
  }
  if (!Array.isArray(position)) return [cursor];
  // A whole number beyond 2^53 is a FLOAT key (an `Int` key is within 32 bits): as a float, exactly.
  // A number key of −0 stays a float: Neo4j orders −0.0 apart from 0 and 0.0 ({@link comesAfter}).
  return position.map((item: unknown, index) =>
    Number.isSafeInteger(item) && !(index === 1 && Object.is(item, -0)) ? neo4j.int(item as number) : item,
  );
}

/**
 * Cypher that is true when row `v` comes strictly after `position` (a variable holding
 * {@link positionOf}) in the order of `type`. A row whose key is null sorts after every row with
 * one, and among its like by `id`. One CASE, its keys compared as lists (Cypher compares lists
 * element by element): Neo4j's planner would expand the same test written as a disjunction into
 * its terms, at tens of milliseconds per new question, and could split it into several seeks of
 * the order's index whose union it must sort, where one seek from the position (the list's
 * `seekOf`) reads the index in order (test/plans.test.ts).
 */
export function comesAfter(v: string, order: ListOrder, position: string): string {
  return comesAfterIn(v, order, position, false);
}

/**
 * {@link comesAfter} for a read whose rows all have a servable sort key (an index read bounded to
 * them): the key comparison alone. From a position without a key it is null for every row (a
 * comparison with null), so the read keeps none, as the full test would.
 */
export function keyedComesAfter(v: string, order: ListOrder, position: string): string {
  return comesAfterIn(v, order, position, true);
}

/** The `id` of a position (see {@link Position}): after an instant's two items, or a value's one. */
export const positionId = (order: ListOrder, position: string): string =>
  `${position}[${order.kind === "instant" ? 3 : 2}]`;

/** The position's key as the property's value (a date's text read back as a `DATE`). */
export const positionValue = (order: ListOrder, position: string): string =>
  order.kind === "date" ? `date(${position}[1])` : `${position}[1]`;

/**
 * 0 for a −0.0, 1 for any other number: Neo4j orders −0.0 before 0.0 (an index, `ORDER BY`) while
 * `=` and list comparison hold them equal, so a number's position compares this too.
 */
const unlessNegativeZero = (x: string) =>
  `CASE WHEN ${x} = 0 AND toString(${x}) STARTS WITH '-' THEN 0 ELSE 1 END`;

function comesAfterIn(v: string, order: ListOrder, position: string, keyed: boolean): string {
  const p = position;
  const value = valueOf(v, order);
  const id = positionId(order, p);
  const numeric = order.kind === "int" || order.kind === "float";
  let compared: string;
  if (order.kind === "instant") {
    const sign = order.direction === "DESC" ? "-" : "";
    compared = `[${sign}${value}.epochSeconds, ${sign}${value}.nanosecond, ${v}.id] > [${sign}toInteger(${p}[1]), ${sign}${p}[2], ${id}]`;
  } else if (numeric && order.direction === "ASC") {
    const at = positionValue(order, p);
    compared = `[${value}, ${unlessNegativeZero(value)}, ${v}.id] > [${at}, ${unlessNegativeZero(at)}, ${id}]`;
  } else if (numeric) {
    const at = positionValue(order, p);
    const [zero, zeroAt] = [unlessNegativeZero(value), unlessNegativeZero(at)];
    compared = `CASE WHEN ${value} = ${at} THEN CASE WHEN ${zero} = ${zeroAt} THEN ${v}.id > ${id} ELSE ${zero} < ${zeroAt} END ELSE ${value} < ${at} END`;
  } else if (order.direction === "ASC") {
    compared = `[${value}, ${v}.id] > [${positionValue(order, p)}, ${id}]`;
  } else {
    // No negation of a text or a date: the equal key's rows by `id`, the others below it.
    const at = positionValue(order, p);
    compared = `CASE WHEN ${value} = ${at} THEN ${v}.id > ${id} ELSE ${value} < ${at} END`;
  }
  if (keyed) return compared;
  return (
    `CASE WHEN ${p}[1] IS NULL THEN ${lacksServable(order, value)} AND ${v}.id > ${id}` +
    ` WHEN ${servable(order, value)} THEN ${compared} ELSE true END`
  );
}
