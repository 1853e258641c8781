// A connection's cursor (contract §7): a position in a list's order, never an offset. It is the
// base64url of a JSON array: the element type, then the row's sort key and its `id`. Cypher writes
// it (`cursorOf`) and reads it back (`positionOf`, APOC core's base64 and JSON functions); this
// module also checks one arriving in `after` before any Cypher runs, so the database only ever
// reads cursors of the shape it wrote. The format is spelled here once for both sides.

import {
  isServableDate,
  isServableInstant,
  isServableText,
  servableDate,
  servableInstant,
  servableText,
} from "./values.js";

/** A list's order (contract §7). Every order ends with the `id` tie-break, so it is total. */
export type ListOrder =
  /** Newest instant first, whatever zone it was written in; rows without one last. */
  | { newestFirst: string }
  /** Earliest `DATE` first; rows without one last. */
  | { earliestFirst: string }
  /** By `name` in Neo4j's order for stored strings. */
  | "name";

/** Each element type has one order, whatever list it is in: a cursor names its type's order. */
export const ORDERS = {
  Decision: { newestFirst: "decidedAt" },
  Disagreement: { newestFirst: "raisedAt" },
  Commitment: { earliestFirst: "dueOn" },
  Feature: "name",
  Topic: "name",
  Customer: "name",
  Person: "name",
} as const satisfies Record<string, ListOrder>;

export type ElementType = keyof typeof ORDERS;

/**
 * A decoded position: `[type, "epochSeconds", nanosecond, id]` for an instant (the seconds as text:
 * Neo4j's range exceeds JSON numbers' exact integers), `[type, "YYYY-MM-DD", id]` for a date,
 * `[type, name, id]` for a name. A null key is a row without one (it sorts last).
 */
export type Position = [string, ...(number | string | null)[]];

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
const CALENDAR_DATE = /^-?\d{4,9}-\d{2}-\d{2}$/;
/** Epoch seconds as Cypher's `toString` writes them (Neo4j's years run to ±999,999,999). */
const EPOCH_SECONDS = /^-?(0|[1-9]\d{0,16})$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The position `cursor` names in a list of `type`, or why it does not name one: damaged, or
 * written for a list of another element type (and so another order). Strict: the text must be
 * exactly what Cypher writes for some row (canonical base64url with padding, a JSON array of the
 * order's shape), so that Neo4j never reads a cursor differently from this check.
 */
export function decodeCursor(cursor: string, type: ElementType): Position | string {
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
  if (value[0] !== type) return `is a cursor of a list of ${value[0].slice(0, 40)}, not of ${type}`;
  const [, ...key] = value as unknown[];
  const id = key.at(-1);
  if (typeof id !== "string") return damaged;
  const order: ListOrder = ORDERS[type];
  if (order === "name") {
    return key.length === 2 && (key[0] === null || typeof key[0] === "string") ? [type, key[0], id] : damaged;
  }
  if ("earliestFirst" in order) {
    return key.length === 2 && (key[0] === null || (typeof key[0] === "string" && CALENDAR_DATE.test(key[0])))
      ? [type, key[0], id]
      : damaged;
  }
  const [seconds, nanosecond] = key;
  if (key.length !== 3) return damaged;
  if (seconds === null && nanosecond === null) return [type, null, null, id];
  return typeof seconds === "string" &&
    EPOCH_SECONDS.test(seconds) &&
    Number.isInteger(nanosecond) &&
    (nanosecond as number) >= 0 &&
    (nanosecond as number) < 1e9
    ? [type, seconds, nanosecond as number, id]
    : damaged;
}

/** The cursor of a position, as Cypher's {@link cursorOf} writes it (tests compare the two). */
export function encodeCursor(position: Position): string {
  const text = Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
  return text.padEnd(Math.ceil(text.length / 4) * 4, "=");
}

/** The sort key of row `v` in `order`, as a Cypher list (the cursor's middle): nulls without a servable value. */
function keyOf(v: string, order: ListOrder): string {
  if (order === "name") return `[CASE WHEN ${servableText(`${v}.name`)} THEN ${v}.name END]`;
  if ("earliestFirst" in order) {
    const on = `${v}.${order.earliestFirst}`;
    return `[CASE WHEN ${servableDate(on)} THEN toString(${on}) END]`;
  }
  const at = `${v}.${order.newestFirst}`;
  return `CASE WHEN ${servableInstant(at)} THEN [toString(${at}.epochSeconds), ${at}.nanosecond] ELSE [null, null] END`;
}

/** Cypher for the cursor of row `v`, a node of `type`. */
export function cursorOf(v: string, type: ElementType): string {
  return `apoc.text.base64UrlEncode(apoc.convert.toJson(['${type}'] + ${keyOf(v, ORDERS[type])} + [${v}.id]))`;
}

/** Cypher for the position a given cursor parameter names (the request pipeline has checked its shape). */
export function positionOf(parameter: string): string {
  return `apoc.convert.fromJsonList(apoc.text.base64UrlDecode($${parameter}))`;
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
export function comesAfter(v: string, type: ElementType, position: string): string {
  return comesAfterIn(v, type, position, false);
}

/**
 * {@link comesAfter} for a read whose rows all have a servable sort key (an index read bounded to
 * them): the key comparison alone. From a position without a key it is null for every row (a
 * comparison with null), so the read keeps none, as the full test would.
 */
export function keyedComesAfter(v: string, type: ElementType, position: string): string {
  return comesAfterIn(v, type, position, true);
}

function comesAfterIn(v: string, type: ElementType, position: string, keyed: boolean): string {
  const order: ListOrder = ORDERS[type];
  const p = position;
  if (order !== "name" && "newestFirst" in order) {
    const at = `${v}.${order.newestFirst}`;
    const compared = `[-${at}.epochSeconds, -${at}.nanosecond, ${v}.id] > [-toInteger(${p}[1]), -${p}[2], ${p}[3]]`;
    if (keyed) return compared;
    const valued = isServableInstant(at);
    return (
      `CASE WHEN ${p}[1] IS NULL THEN NOT ${valued} AND ${v}.id > ${p}[3]` +
      ` WHEN ${servableInstant(at)} THEN ${compared} ELSE true END`
    );
  }
  if (order === "name") {
    if (keyed) return `[${v}.name, ${v}.id] > [${p}[1], ${p}[2]]`;
    const named = isServableText(`${v}.name`);
    return (
      `CASE WHEN ${p}[1] IS NULL THEN NOT ${named} AND ${v}.id > ${p}[2]` +
      ` WHEN ${servableText(`${v}.name`)} THEN [${v}.name, ${v}.id] > [${p}[1], ${p}[2]] ELSE true END`
    );
  }
  const on = `${v}.${order.earliestFirst}`;
  if (keyed) return `[${on}, ${v}.id] > [date(${p}[1]), ${p}[2]]`;
  const valued = isServableDate(on);
  return (
    `CASE WHEN ${p}[1] IS NULL THEN NOT ${valued} AND ${v}.id > ${p}[2]` +
    ` WHEN ${servableDate(on)} THEN [${on}, ${v}.id] > [date(${p}[1]), ${p}[2]] ELSE true END`
  );
}
