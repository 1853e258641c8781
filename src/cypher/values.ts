// Stored values as the statements read them. The ingest may write a property of another type than
// contract §8 names (a `decidedAt` as text), or an instant or date beyond what the wire format
// writes (Neo4j's run to ±999,999,999 years, where `.epochSeconds` and `± duration` overflow). The
// service answers such a value as a field error (src/graphql/stored-values.ts); orders, cursors,
// filters and groups read only values the wire format can write — the years 0000 to 9999 — and
// count any other as absent, so that no accessor or arithmetic meets a value it fails on.

import neo4j from "neo4j-driver";

const { Date: Neo4jDate, DateTime, Duration } = neo4j.types;

/**
 * The temporal constants statements compare with, as parameters: Neo4j plans a statement's every
 * `datetime('…')`, `date('…')` or `duration('…')` literal (about 2 ms each, while a parameter costs
 * nothing), and a statement held a dozen of them. Each statement carries the ones its text names
 * ({@link constantsOf}); their names are no argument's.
 */
const CONSTANTS = {
  /**
   * The first instant the wire format writes, and the first one after those: 0000 and 10000 UTC,
   * each written at the lowest offset, −18:00. Neo4j orders two DATETIMEs of one instant by their
   * offsets, so at UTC `datetime('9999-12-31T23:00-01:00')` (10000 UTC) would compare below the
   * bound after the last and `datetime('-0001-12-31T23:00-01:00')` (0000 UTC) below the first;
   * at −18:00 every stored DATETIME of the same instant compares at or above either bound.
   */
  firstInstant: new DateTime(-1, 12, 31, 6, 0, 0, 0, -18 * 3600),
  afterLastInstant: new DateTime(9_999, 12, 31, 6, 0, 0, 0, -18 * 3600),
  firstDate: new Neo4jDate(0, 1, 1),
  afterLastDate: new Neo4jDate(10_000, 1, 1),
  /** The earliest and the latest `DATETIME` Neo4j can hold: every stored instant lies between them. */
  earliestInstant: new DateTime(-999_999_999, 1, 1, 0, 0, 0, 0, 18 * 3600),
  latestInstant: new DateTime(999_999_999, 12, 31, 23, 59, 59, 999_999_999, -18 * 3600),
  oneSecond: new Duration(0, 0, 1, 0),
  oneDay: new Duration(0, 1, 0, 0),
  oneDayOneSecond: new Duration(0, 1, 1, 0),
} as const;

export type Constant = keyof typeof CONSTANTS;

/** The first instant of a calendar day (a `Date` argument, src/graphql/strict-date.ts) in UTC. */
export const dayStart = ({
  year,
  month,
  day,
}: InstanceType<typeof Neo4jDate>): InstanceType<typeof DateTime> =>
  new DateTime(year, month, day, 0, 0, 0, 0, 0);

/** A constant as a statement names it. */
export const constant = (name: Constant): string => `$${name}`;

const NAMED = new RegExp(`\\$(${Object.keys(CONSTANTS).join("|")})\\b`, "g");

/** The constants `text` names, as parameters to send with it. */
export function constantsOf(text: string): Partial<Record<Constant, unknown>> {
  const found: Partial<Record<Constant, unknown>> = {};
  for (const [, name] of text.matchAll(NAMED)) found[name as Constant] = CONSTANTS[name as Constant];
  return found;
}

export const FIRST_SERVABLE_INSTANT = constant("firstInstant");
export const AFTER_LAST_SERVABLE_INSTANT = constant("afterLastInstant");
const FIRST_DATE = constant("firstDate");
const AFTER_LAST_DATE = constant("afterLastDate");
/** The largest finite FLOAT: a number beyond it (infinite) or NaN, which JSON cannot write, counts as absent. */
export const LARGEST_NUMBER = "1.7976931348623157e308";

/**
 * Index-seekable bounds holding exactly the servable instants of `at`: a comparison with a
 * `DATETIME` is null for a value of another type, so those fall out too.
 */
export const servableInstantBounds = (at: string): string[] => [
  `${at} >= ${FIRST_SERVABLE_INSTANT}`,
  `${at} < ${AFTER_LAST_SERVABLE_INSTANT}`,
];

/**
 * True when `at` holds an instant the wire format writes, else false or null: the shorter form,
 * for a `CASE WHEN` (every character of a new statement costs planning time).
 */
export const servableInstant = (at: string): string =>
  `${FIRST_SERVABLE_INSTANT} <= ${at} < ${AFTER_LAST_SERVABLE_INSTANT}`;

/** True (never null) when `at` holds an instant the wire format writes: the form `NOT` can negate. */
export const isServableInstant = (at: string): string => `coalesce(${servableInstant(at)}, false)`;

/** True when `on` holds a date the wire format writes, else false or null (for a `CASE WHEN`). */
export const servableDate = (on: string): string => `${FIRST_DATE} <= ${on} < ${AFTER_LAST_DATE}`;

/** True (never null) when `on` holds a date the wire format writes. */
export const isServableDate = (on: string): string => `coalesce(${servableDate(on)}, false)`;

/** Index-seekable bounds holding exactly the servable dates of `on`. */
export const servableDateBounds = (on: string): string[] => [
  `${on} >= ${FIRST_DATE}`,
  `${on} < ${AFTER_LAST_DATE}`,
];

/** The largest INTEGER src/graphql/stored-values.ts serves as a `Float`: 2^53 − 1 (`Number.MAX_SAFE_INTEGER`). */
const LARGEST_SAFE_INTEGER = String(Number.MAX_SAFE_INTEGER);

/**
 * The test that `value`, a number within ±{@link LARGEST_NUMBER}, is one the schema serves as a
 * `Float`: a FLOAT, or an INTEGER within ±(2^53 − 1). src/graphql/stored-values.ts serves no
 * INTEGER beyond that, not even one a float holds exactly (2^53, 2^60), so none counts as present.
 * A value of another type is false or null; no type fails it (a list, a map). A `CASE`, not an
 * `OR`: Neo4j 5.26's planner, short of statistics, splits an `OR` in a `WHERE` into a Union of two
 * reads, which loses the index's order and sorts the whole label.
 */
const servedAsFloat = (value: string): string =>
  `CASE WHEN ${value} IS :: FLOAT THEN true ELSE -${LARGEST_SAFE_INTEGER} <= ${value} <= ${LARGEST_SAFE_INTEGER} END`;

/**
 * True when `value` holds a number the schema serves as a `Float` (a finite FLOAT, or an INTEGER
 * within ±(2^53 − 1)), else false or null (for a `CASE WHEN`): an infinity or NaN, which JSON and
 * GraphQL cannot write, counts as absent, and so does an INTEGER beyond 2^53 − 1, which
 * src/graphql/stored-values.ts does not serve and a cursor could not always name exactly.
 */
export const servableNumber = (value: string): string =>
  `-${LARGEST_NUMBER} <= ${value} <= ${LARGEST_NUMBER} AND ${servedAsFloat(value)}`;

/**
 * Conditions holding exactly the servable `Float`s of `value`: index-seekable bounds (lower,
 * upper) and the test that the schema serves it ({@link servedAsFloat}).
 */
export const servableNumberBounds = (value: string): string[] => [
  `${value} >= -${LARGEST_NUMBER}`,
  `${value} <= ${LARGEST_NUMBER}`,
  servedAsFloat(value),
];

/** GraphQL's `Int` (32 bits): an `Int` property's value beyond it, or not whole, the schema cannot serve. */
const INT_BOUNDS = ["-2147483648", "2147483647"] as const;

/**
 * True when `value` holds a whole number within GraphQL's `Int` (an INTEGER, or a FLOAT such as
 * `3.0`), else false or null (for a `CASE WHEN`), as src/graphql/stored-values.ts serves an `Int`
 * and a `where` reads one: any other value counts as absent. `toIntegerOrNull` fails on no type
 * (a list, a map), where `%` would fail the query.
 */
export const servableInt = (value: string): string =>
  `${INT_BOUNDS[0]} <= ${value} <= ${INT_BOUNDS[1]} AND toIntegerOrNull(${value}) = ${value}`;

/**
 * Conditions holding exactly the servable `Int`s of `value`: index-seekable bounds (lower, upper)
 * and the test that the value is whole.
 */
export const servableIntBounds = (value: string): string[] => [
  `${value} >= ${INT_BOUNDS[0]}`,
  `${value} <= ${INT_BOUNDS[1]}`,
  `toIntegerOrNull(${value}) = ${value}`,
];

/** A number property's servability test, by its scalar: `Int` or `Float`. */
export const servableNumberOf = (scalar: string): ((value: string) => string) =>
  scalar === "Int" ? servableInt : servableNumber;

/** True when `text` holds a string, else false or null (for a `CASE WHEN`): a name of another type sorts as none. */
export const servableText = (text: string): string => `${text} >= ''`;

/**
 * A number property's value when it is one the schema serves as its scalar (`Int` or `Float`),
 * else null: what NumberStats aggregate (a NaN, an infinity, an `Int` beyond 32 bits counts as
 * absent, as a `where` reads it).
 */
export const numberOrNull = (value: string, scalar: string): string =>
  `CASE WHEN ${servableNumberOf(scalar)(value)} THEN ${value} END`;
