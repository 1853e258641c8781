// A filter is data: the argument it reads, the property it compares and how. One function renders
// the conditions a row must meet; another the index read that starts from a filter. Only the
// filters a request gives are rendered: an absent argument leaves no trace in the Cypher.

/** A root list's filter argument (contract §7). */
export type Filter =
  /** `property = $argument` (exact, case-sensitive for strings). */
  | { kind: "equals"; property: string; argument: string }
  /** `property >= $argument`: an inclusive lower bound; a null value never matches. */
  | { kind: "atLeast"; property: string; argument: string }
  /**
   * A `DATETIME` property within calendar days: on or after 00:00 UTC of `since`, before 00:00 UTC
   * of the day after `until`; a row without the property never matches either.
   */
  | { kind: "dayRange"; property: string; since: string; until: string };

/** The arguments a filter reads. */
export function argumentsOf(filter: Filter): string[] {
  return filter.kind === "dayRange" ? [filter.since, filter.until] : [filter.argument];
}

/** 00:00 UTC of a `Date` argument. */
const dayStart = (value: string) => `datetime({date: date(${value}), timezone: 'Z'})`;

/**
 * The exact conditions on row `v` of the filter's given arguments. Instants compare as epoch
 * seconds: Neo4j orders two `DATETIME`s at one instant by their zones.
 */
export function conditionsOf(v: string, filter: Filter, given: ReadonlySet<string>): string[] {
  const value = `${v}.${filter.property}`;
  switch (filter.kind) {
    case "equals":
      return given.has(filter.argument) ? [`${value} = $${filter.argument}`] : [];
    case "atLeast":
      return given.has(filter.argument) ? [`${value} >= $${filter.argument}`] : [];
    case "dayRange":
      return [
        ...(given.has(filter.since)
          ? [`${value}.epochSeconds >= ${dayStart(`$${filter.since}`)}.epochSeconds`]
          : []),
        ...(given.has(filter.until)
          ? [`${value}.epochSeconds < (${dayStart(`$${filter.until}`)} + duration('P1D')).epochSeconds`]
          : []),
      ];
  }
}

/**
 * Bounds on the property for a read of its range index. A day range is a second wider on each
 * side, because a `DATETIME` at that very instant written with another offset orders a little
 * off; its exact conditions ({@link conditionsOf}) still apply.
 */
export function seekOf(
  v: string,
  filter: Filter,
  given: ReadonlySet<string>,
): { bounds: string[]; exact: boolean } {
  if (filter.kind !== "dayRange") return { bounds: conditionsOf(v, filter, given), exact: true };
  const value = `${v}.${filter.property}`;
  return {
    bounds: [
      ...(given.has(filter.since) ? [`${value} >= ${dayStart(`$${filter.since}`)} - duration('PT1S')`] : []),
      ...(given.has(filter.until)
        ? [`${value} <= ${dayStart(`$${filter.until}`)} + duration('P1DT1S')`]
        : []),
    ],
    exact: false,
  };
}

/** Whether the request gives any of the filter's arguments. */
export function isGiven(filter: Filter, given: ReadonlySet<string>): boolean {
  return argumentsOf(filter).some((argument) => given.has(argument));
}
