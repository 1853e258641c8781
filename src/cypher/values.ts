// Stored values as the statements read them. The ingest may write a property of another type than
// contract §8 names (a `decidedAt` as text), or an instant or date beyond what the wire format
// writes (Neo4j's run to ±999,999,999 years, where `.epochSeconds` and `± duration` overflow). The
// service answers such a value as a field error (src/graphql/stored-values.ts); orders, cursors,
// filters and groups read only values the wire format can write — the years 0000 to 9999 — and
// count any other as absent, so that no accessor or arithmetic meets a value it fails on.

/** The first instant and the first one after the instants the wire format writes (ISO 8601's short forms). */
export const FIRST_SERVABLE_INSTANT = "datetime('0000T00Z')";
export const AFTER_LAST_SERVABLE_INSTANT = "datetime('+10000T00Z')";
const FIRST_DATE = "date('0000')";
const AFTER_LAST_DATE = "date('+10000')";
/** The largest finite FLOAT: a number beyond it (infinite) or NaN, which JSON cannot write, counts as absent. */
const LARGEST_NUMBER = "1.7976931348623157e308";

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

/**
 * True when `value` holds a finite number (INTEGER or FLOAT), else false or null (for a `CASE
 * WHEN`): an infinity or NaN, which JSON and GraphQL cannot write, counts as absent.
 */
export const servableNumber = (value: string): string =>
  `-${LARGEST_NUMBER} <= ${value} <= ${LARGEST_NUMBER}`;

/** Index-seekable bounds holding exactly the finite numbers of `value`. */
export const servableNumberBounds = (value: string): string[] => [
  `${value} >= -${LARGEST_NUMBER}`,
  `${value} <= ${LARGEST_NUMBER}`,
];

/** True when `text` holds a string, else false or null (for a `CASE WHEN`): a name of another type sorts as none. */
export const servableText = (text: string): string => `${text} >= ''`;

/** A property's value when it is a number, else null: what NumberStats aggregate. */
export const numberOrNull = (value: string): string =>
  `CASE WHEN ${value} IS :: INTEGER | FLOAT THEN ${value} END`;
