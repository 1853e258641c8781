import { GraphQLError, GraphQLScalarType, Kind } from "graphql";
import neo4j, { isDate, isDateTime, type Date as Neo4jDate } from "neo4j-driver";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of the proleptic Gregorian calendar (ISO 8601's, and Neo4j's `DATE`'s). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * A value as a message shows it: as JSON (quoted and escaped, so a raw control character stays
 * visible), cut to a few dozen characters — a string inside its quotes.
 */
function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Why `value` is not a contract `Date` (§3: `YYYY-MM-DD` naming a real calendar day; no spaces,
 * no time part, no `2024-02-30`), or `undefined` when it is one.
 */
export function dateProblem(value: string): string | undefined {
  const match = CALENDAR_DATE.exec(value);
  if (match === null)
    return `Date ${shown(value)} is not of the form YYYY-MM-DD (a calendar date: no spaces, no time part).`;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  if (month < 1 || month > 12)
    return `Date ${shown(value)} names no calendar day: there is no month ${month}.`;
  const days = daysIn(year, month);
  if (day < 1 || day > days)
    return `Date ${shown(value)} names no calendar day: ${MONTHS[month - 1] ?? ""} ${match[1] ?? ""} has ${days} days.`;
  return undefined;
}

function parseDate(value: unknown): Neo4jDate<number> {
  if (typeof value !== "string")
    throw new GraphQLError(`Date must be a string of the form YYYY-MM-DD; got ${shown(value)}.`);
  const problem = dateProblem(value);
  if (problem !== undefined) throw new GraphQLError(problem);
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  return new neo4j.types.Date(year, month, day);
}

/**
 * The `Date` scalar, stricter than the library's (which reads any string JavaScript's `Date`
 * accepts, so `2024-02-30` became March 1st and `" 2025-03-31"` passed). Literals and variables
 * are checked alike; the error names the value's problem and answers 422 `validation_failed`.
 * Values from Neo4j (`DATE`) are written as `YYYY-MM-DD`.
 */
export const StrictDate = new GraphQLScalarType<Neo4jDate<number>, string>({
  name: "Date",
  description: "A date, represented as a 'yyyy-mm-dd' string",
  serialize(value) {
    if (isDate(value)) return value.toString();
    if (typeof value === "string" && dateProblem(value) === undefined) return value;
    throw new GraphQLError(`Date cannot represent value: ${String(value)}`);
  },
  parseValue: parseDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING)
      throw new GraphQLError("Date must be a string of the form YYYY-MM-DD.", { nodes: ast });
    return parseDate(ast.value);
  },
});

/** ISO 8601's extended form with seconds; its offset `Z`, `±hh:mm` or `±hh` (whole hours). */
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2})(?::(\d{2}))?)$/;

/**
 * Why `value` is not a contract `DateTime` operand (§7 part 3: an ISO 8601 date and time with
 * seconds, 0 to 9 fractional digits, `Z` or an offset), or `undefined` when it is one.
 */
export function instantProblem(value: string): string | undefined {
  const match = INSTANT.exec(value);
  const form = `DateTime ${shown(value)} is not of the form YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hh)`;
  if (match === null) return `${form}.`;
  const [, day = "", hours, minutes, seconds, , , , offsetHours, offsetMinutes] = match;
  const dayProblem = dateProblem(day);
  if (dayProblem !== undefined) return `DateTime ${shown(value)}: ${dayProblem}`;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59)
    return `${form}: no such time of day.`;
  if (Number(offsetHours ?? 0) > 18 || Number(offsetMinutes ?? 0) > 59) return `${form}: no such offset.`;
  return undefined;
}

/** A valid operand's instant as epoch milliseconds, digits beyond the millisecond truncated. */
function epochMillis(value: string): number {
  const [, day = "", hours, minutes, seconds, fraction = "", , sign, offsetHours, offsetMinutes] =
    INSTANT.exec(value) ?? [];
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const instant = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  instant.setUTCFullYear(year, month - 1, date);
  instant.setUTCHours(
    Number(hours),
    Number(minutes),
    Number(seconds),
    Number(fraction.padEnd(3, "0").slice(0, 3)),
  );
  const offset = (Number(offsetHours ?? 0) * 60 + Number(offsetMinutes ?? 0)) * 60_000;
  return instant.getTime() - (sign === "-" ? -offset : offset);
}

function parseInstant(value: unknown): number {
  if (typeof value !== "string")
    throw new GraphQLError(
      `DateTime must be an ISO 8601 string such as "2025-03-31T14:05:00Z"; got ${shown(value)}.`,
    );
  const problem = instantProblem(value);
  if (problem !== undefined) throw new GraphQLError(problem);
  return epochMillis(value);
}

/**
 * The `DateTime` scalar. Written as the library writes it (ISO 8601 in UTC, three fractional
 * digits); read strictly, as contract §7 part 3 says a `where` operand is, into the instant's epoch
 * milliseconds: the instants a `where` compares to the millisecond, as served (src/cypher/where.ts).
 */
export const StrictDateTime = new GraphQLScalarType<number, string>({
  name: "DateTime",
  description: "A date and time, represented as an ISO-8601 string",
  serialize(value) {
    if (typeof value === "string") return new Date(value).toISOString();
    if (isDateTime(value)) return new Date(value.toString()).toISOString();
    throw new GraphQLError(`DateTime cannot represent value: ${String(value)}`);
  },
  parseValue: parseInstant,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING)
      throw new GraphQLError(`DateTime must be an ISO 8601 string such as "2025-03-31T14:05:00Z".`);
    return parseInstant(ast.value);
  },
});
