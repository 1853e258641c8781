// A filter is data: the argument it reads, the property it compares and how. One function renders
// the conditions a row must meet; another the index read that starts from a filter. Only the
// filters a request gives are rendered: an absent argument leaves no trace in the Cypher. The
// filters themselves are rows of the domain table (src/domain/table.ts).
import { argumentsOf, DOMAIN, ELEMENT_TYPES, propertyType, type Filter } from "../domain/table.js";
import {
  AFTER_LAST_SERVABLE_INSTANT,
  constant,
  FIRST_SERVABLE_INSTANT,
  servableInstant,
  servableNumberOf,
} from "./values.js";

/**
 * Each lower bound's test that a value is one the schema serves as its property's scalar (a NaN,
 * an infinity, an `Int` beyond 32 bits or not whole is not): such a value is absent, as a `where`
 * and the orders read it, and the bound does not keep it. By the table's own filter objects, which
 * the row estimates know the filters by too.
 */
const SERVABLE_BOUNDED: ReadonlyMap<Filter, (value: string) => string> = new Map(
  ELEMENT_TYPES.flatMap((type) => {
    const { list, properties } = DOMAIN[type];
    return (list?.filters ?? []).flatMap((filter) => {
      const stored = properties[filter.property];
      return filter.kind === "atLeast" && stored !== undefined
        ? [[filter, servableNumberOf(propertyType(stored).name)] as const]
        : [];
    });
  }),
);

/** A lower bound's test that a value is one the schema serves (see {@link SERVABLE_BOUNDED}), if it has one. */
export const servableOfBound = (filter: Filter): ((value: string) => string) | undefined =>
  SERVABLE_BOUNDED.get(filter);

/**
 * The exact conditions on row `v` of the filter's given arguments. A `Date` argument is bound as
 * 00:00 UTC of its day (compile.ts), so a day range compares with it as it is. Instants compare as epoch
 * seconds (Neo4j orders two `DATETIME`s at one instant by their zones), read only from a servable
 * instant (values.ts): a value of another type, or beyond the years 0000–9999, never matches.
 * `seeked`: the rows come from this filter's own index read ({@link seekOf}), so every value is a
 * `DATETIME` within a second of the servable years and the epoch seconds are read without that
 * guard (the guard cost a third of a year's groups at 1M: 1.21 s against 0.83 s).
 */
export function conditionsOf(
  v: string,
  filter: Filter,
  given: ReadonlySet<string>,
  seeked = false,
): string[] {
  const value = `${v}.${filter.property}`;
  switch (filter.kind) {
    case "equals":
      return given.has(filter.argument) ? [`${value} = $${filter.argument}`] : [];
    case "atLeast": {
      if (!given.has(filter.argument)) return [];
      const servable = servableOfBound(filter);
      return [`${value} >= $${filter.argument}`, ...(servable === undefined ? [] : [servable(value)])];
    }
    case "dayRange": {
      const bounds = [
        ...(given.has(filter.since) ? [`${value}.epochSeconds >= $${filter.since}.epochSeconds`] : []),
        ...(given.has(filter.until)
          ? [`${value}.epochSeconds < ($${filter.until} + ${constant("oneDay")}).epochSeconds`]
          : []),
      ];
      if (bounds.length === 0) return [];
      return seeked ? bounds : [`CASE WHEN ${servableInstant(value)} THEN ${bounds.join(" AND ")} END`];
    }
  }
}

/**
 * Bounds on the property for a read of its range index. A day range is a second wider on each
 * side, because a `DATETIME` at that very instant written with another offset orders a little
 * off; its exact conditions ({@link conditionsOf}) still apply. A side the request leaves open is
 * bounded by the servable instants (values.ts), so the read never holds one beyond them.
 */
export function seekOf(
  v: string,
  filter: Filter,
  given: ReadonlySet<string>,
): { bounds: string[]; exact: boolean } {
  if (filter.kind !== "dayRange") return { bounds: conditionsOf(v, filter, given), exact: true };
  const value = `${v}.${filter.property}`;
  if (!isGiven(filter, given)) return { bounds: [], exact: false };
  return {
    bounds: [
      given.has(filter.since)
        ? `${value} >= $${filter.since} - ${constant("oneSecond")}`
        : `${value} >= ${FIRST_SERVABLE_INSTANT}`,
      given.has(filter.until)
        ? `${value} <= $${filter.until} + ${constant("oneDayOneSecond")}`
        : `${value} < ${AFTER_LAST_SERVABLE_INSTANT}`,
    ],
    exact: false,
  };
}

/** Whether the request gives any of the filter's arguments. */
export function isGiven(filter: Filter, given: ReadonlySet<string>): boolean {
  return argumentsOf(filter).some((argument) => given.has(argument));
}
