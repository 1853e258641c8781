// How many rows each filter of a root list keeps, estimated from the graph itself: what a read of
// all the rows a filter keeps (a count, groups, a page of few rows: src/cypher/starts.ts) starts
// from, and whether a page reads them all rather than walk its order's index. Each of a list's
// filters has a range index; a read starts from one and checks the others on the rows it gives, so
// the read costs the rows its start keeps. Neo4j's planner cannot tell which of two ranges keeps
// fewer (it has no histograms), and the first filter given was no better a guess: at 1M decisions,
// `until` and `regretScoreMin: 0.9` kept 540,880 and 30,824 rows, and the groups over them took
// 1.0 s from the first and 0.25 s from the second. So the service keeps, per filter, the counts of
// its values (an `equals` filter) or their quantiles (a lower bound, a day range), read in the
// background from the filters' indexes, and a read starts from the filter estimated to keep the
// fewest rows. A sample of each list's rows tells what its filters keep together (a correlation),
// so a page reads and sorts its rows when few pass together, rather than walk its order's index
// through all of them. Only where a read starts follows the estimates: never which rows it keeps.
import neo4j, { type Driver } from "neo4j-driver";
import { DOMAIN, ELEMENT_TYPES, type ElementType, type Filter } from "../domain/table.js";
import { AFTER_LAST_SERVABLE_INSTANT, constantsOf, FIRST_SERVABLE_INSTANT } from "../cypher/values.js";
import type { RowEstimator } from "../cypher/request.js";
import { servableOfBound } from "../cypher/filters.js";
import { answerWithin } from "../neo4j/deadline.js";
import { isDatabaseUnavailable } from "../neo4j/errors.js";

/** Quantiles of a property's values (numbers, or instants as epoch seconds), this many buckets. */
const BUCKETS = 64;
/** At most this many values are read into a property's quantiles: a sample of a larger label. */
const SAMPLE = 100_000;
/** Estimates are read for no more than 1 % of the time: at 1M decisions a read takes seconds. */
const DUTY = 0.01;
/** A round with a failed read is tried again this soon (or at the interval, if sooner). */
const RETRY_MS = 30_000;
/** At most this many rows of a list's label are sampled for its filters given together. */
const SAMPLE_TOGETHER = 20_000;
/** A read of one property's statistics waits no longer than this. */
const READ_TIMEOUT_MS = 60_000;

/** A property's statistics: the rows per value, or the rows with a value and their quantiles. */
type Statistics =
  | { kind: "values"; rows: ReadonlyMap<string, number> }
  | { kind: "quantiles"; rows: number; quantiles: readonly number[] };

/**
 * A sample of a list's rows, for estimates of its filters given together: per row, each filter's
 * value as its statistics compare it (in the list's filter order; null when the row has none the
 * filter could keep), and the label's rows it was drawn from.
 */
export interface RowSample {
  labelled: number;
  rows: readonly (readonly (string | number | null)[])[];
}

/** A value as its statistics key: strings, booleans and numbers apart. */
const valueKey = (value: unknown) => JSON.stringify(value);

/** 00:00 UTC of a `Date` argument (a neo4j-driver `Date`), as epoch seconds. */
function daySeconds(value: unknown): number | undefined {
  if (!neo4j.isDate(value)) return undefined;
  const { year, month, day } = value as { year: unknown; month: unknown; day: unknown };
  const start = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  start.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  return start.getTime() / 1000;
}

/** A numeric argument as a number. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (neo4j.isInt(value)) return (value as { toNumber: () => number }).toNumber();
  return undefined;
}

/**
 * The share of the values within `[low, high)` given their quantiles: the boundaries inside, as a
 * share of all boundaries, at least one bucket when a bound falls between two (a range between
 * two boundaries may hold up to a bucket).
 */
export function shareWithin(quantiles: readonly number[], low: number, high: number): number {
  if (quantiles.length === 0) return 0;
  const inside = quantiles.filter((q) => q >= low && q < high).length;
  const first = quantiles[0] ?? 0;
  const last = quantiles[quantiles.length - 1] ?? 0;
  // Some values lie within whenever the range meets the values' span.
  const meets = low <= last && high > first;
  return Math.min(1, Math.max(inside, meets ? 1 : 0) / Math.max(1, quantiles.length - 1));
}

/** The rows a filter keeps with the given arguments, by its property's statistics. */
export function rowsKept(
  statistics: Statistics,
  filter: Filter,
  args: Readonly<Record<string, unknown>>,
): number | undefined {
  if (statistics.kind === "values") {
    if (filter.kind !== "equals") return undefined;
    const value = args[filter.argument];
    return value === undefined || value === null ? undefined : (statistics.rows.get(valueKey(value)) ?? 0);
  }
  const range = rangeKept(filter, args);
  return range === undefined
    ? undefined
    : statistics.rows * shareWithin(statistics.quantiles, range.low, range.high);
}

/**
 * The values `[low, high)` a lower bound or a day range keeps with the given arguments, as its
 * statistics compare them (numbers; instants as epoch seconds, `until` keeping its own day);
 * undefined when its arguments are not given, or for an `equals` filter.
 */
function rangeKept(
  filter: Filter,
  args: Readonly<Record<string, unknown>>,
): { low: number; high: number } | undefined {
  if (filter.kind === "atLeast") {
    const low = numberOf(args[filter.argument]);
    return low === undefined ? undefined : { low, high: Infinity };
  }
  if (filter.kind === "dayRange") {
    const since = daySeconds(args[filter.since]);
    const until = daySeconds(args[filter.until]);
    if (since === undefined && until === undefined) return undefined;
    return { low: since ?? -Infinity, high: until === undefined ? Infinity : until + 86_400 };
  }
  return undefined;
}

/**
 * The rows the given filters keep together, by a sample of the list's rows (`filters` the list's
 * own, in the sample's order; `given` those the request gives). What estimates of single filters
 * cannot see, a correlation, it can: at 1M decisions, `status: DECIDED` and `regretScoreMin: 0.3`
 * keep a fifth and a third of the rows apart, and none together. Undefined when none is given.
 */
export function rowsKeptTogether(
  sample: RowSample,
  filters: readonly Filter[],
  given: readonly Filter[],
  args: Readonly<Record<string, unknown>>,
): number | undefined {
  const tests: ((value: string | number | null) => boolean)[] = [];
  const columns: number[] = [];
  for (const filter of given) {
    const column = filters.indexOf(filter);
    if (column < 0) continue;
    if (filter.kind === "equals") {
      const key = args[filter.argument] === undefined ? undefined : valueKey(args[filter.argument]);
      tests.push((value) => value === key);
    } else {
      const { low, high } = rangeKept(filter, args) ?? { low: -Infinity, high: Infinity };
      tests.push((value) => typeof value === "number" && value >= low && value < high);
    }
    columns.push(column);
  }
  if (tests.length === 0) return undefined;
  if (sample.rows.length === 0) return 0;
  let kept = 0;
  for (const row of sample.rows)
    if (tests.every((test, index) => test(row[columns[index] ?? -1] ?? null))) kept++;
  return (kept / sample.rows.length) * sample.labelled;
}

/**
 * The statement sampling at most {@link SAMPLE_TOGETHER} rows of a list's label, each with its
 * filters' values as {@link statisticsStatement} compares them (others null).
 */
export function sampleStatement(label: string, filters: readonly Filter[]): string {
  const columns = filters.map((filter) => {
    if (filter.kind === "equals") return `n.${filter.property}`;
    const { kept, compared } = rangeValues(`n.${filter.property}`, filter);
    return `CASE WHEN ${kept} THEN ${compared} END`;
  });
  return [
    `CALL () { MATCH (n:${label}) RETURN count(n) AS labelled }`,
    `MATCH (n:${label})`,
    "WHERE rand() * labelled < $sample",
    `RETURN labelled, collect([${columns.join(", ")}]) AS rows`,
  ].join("\n");
}

/**
 * Which stored values `value` of a lower bound or a day range its statistics read (`kept`: a
 * number the bound could keep, one the schema serves; a servable instant, one §3 can serve) and
 * what they compare (`compared`: the number; the instant's epoch seconds).
 */
function rangeValues(value: string, filter: Filter): { kept: string; compared: string } {
  const servable = servableOfBound(filter);
  return filter.kind === "atLeast"
    ? {
        kept: `${value} >= -1.0e308${servable === undefined ? "" : ` AND ${servable(value)}`}`,
        compared: value,
      }
    : {
        kept: `${value} >= ${FIRST_SERVABLE_INSTANT} AND ${value} < ${AFTER_LAST_SERVABLE_INSTANT}`,
        compared: `${value}.epochSeconds`,
      };
}

/**
 * The statement reading a filter's statistics from its range index: an `equals` filter's rows
 * per value, or a sample of at most {@link SAMPLE} of the values a lower bound or a day range
 * compares (numbers; servable instants as epoch seconds), sorted, as {@link BUCKETS} quantiles.
 */
export function statisticsStatement(label: string, filter: Filter): string {
  const value = `n.${filter.property}`;
  const start = [`MATCH (n:${label})`, `USING INDEX n:${label}(${filter.property})`];
  if (filter.kind === "equals")
    return [...start, `WHERE ${value} IS NOT NULL`, `RETURN ${value} AS value, count(n) AS rows`].join("\n");
  const { kept, compared } = rangeValues(value, filter);
  return [
    `CALL () { MATCH (n:${label}) RETURN count(n) AS labelled }`,
    ...start,
    `WHERE ${kept} AND rand() * labelled < $sample`,
    `WITH labelled, ${compared} AS value ORDER BY value`,
    "WITH labelled, collect(value) AS values",
    "RETURN size(values) AS sampled, labelled,",
    `  [i IN range(0, $buckets) | values[toInteger(round(i * (size(values) - 1) / toFloat($buckets)))]] AS quantiles`,
  ].join("\n");
}

/**
 * The estimates the service's reads start by, read in the background at start-up and again
 * every few minutes (`ROW_ESTIMATES_INTERVAL_MS`). None is known until the first read ends, nor
 * for a filter whose read failed: its lists then start from the first filter given, and pages
 * walk their order's index, as without estimates.
 */
export class RowEstimates implements RowEstimator {
  private statistics = new Map<string, Statistics>();
  private labels = new Map<string, number>();
  private samples = new Map<ElementType, RowSample>();
  version = 0;

  labelRows(type: ElementType): number | undefined {
    return this.labels.get(type);
  }

  rowsKeptTogether(
    type: ElementType,
    given: readonly Filter[],
    args: Readonly<Record<string, unknown>>,
  ): number | undefined {
    const sample = this.samples.get(type);
    const filters = DOMAIN[type].list?.filters ?? [];
    return sample === undefined ? undefined : rowsKeptTogether(sample, filters, given, args);
  }

  rowsKept(type: ElementType, filter: Filter, args: Readonly<Record<string, unknown>>): number | undefined {
    const statistics = this.statistics.get(`${type}.${filter.property}`);
    return statistics === undefined ? undefined : rowsKept(statistics, filter, args);
  }

  /**
   * Reads each list's label count and each of its filters' statistics once, one after another; a
   * failed read keeps the last (one line says which failed, and why the first did). Resolves with
   * the count of failures.
   */
  async read(driver: Driver, database: string, log: (line: string) => void): Promise<number> {
    const statistics = new Map(this.statistics);
    const labels = new Map(this.labels);
    const samples = new Map(this.samples);
    const reads = ELEMENT_TYPES.flatMap((type) => {
      const filters = DOMAIN[type].list?.filters ?? [];
      if (filters.length === 0) return [];
      return [
        { key: type, read: async () => void labels.set(type, await readLabelRows(driver, database, type)) },
        // Filters given together: only where a list has several.
        ...(filters.length < 2
          ? []
          : [
              {
                key: `${type} (a sample)`,
                read: async () => void samples.set(type, await readSample(driver, database, type, filters)),
              },
            ]),
        ...filters.map((filter) => ({
          key: `${type}.${filter.property}`,
          read: async () =>
            void statistics.set(
              `${type}.${filter.property}`,
              await readStatistics(driver, database, type, filter),
            ),
        })),
      ];
    });
    const failed: string[] = [];
    let reason = "";
    let unavailable = false;
    for (const { key, read } of reads) {
      if (unavailable) {
        failed.push(key);
        continue;
      }
      try {
        await read();
      } catch (error) {
        if (failed.length === 0) reason = error instanceof Error ? error.message : String(error);
        failed.push(key);
        // Neo4j is not there: the other reads would fail alike.
        if (isDatabaseUnavailable(error)) unavailable = true;
      }
    }
    this.statistics = statistics;
    this.labels = labels;
    this.samples = samples;
    this.version++;
    if (failed.length > 0)
      log(`Row estimates: ${failed.join(", ")} not read (${reason.split("\n")[0] ?? ""})`);
    return failed.length;
  }

  /** Reads the estimates now and then every `intervalMs` (never when 0), until stopped. */
  start(
    driver: Driver,
    database: string,
    intervalMs: number,
    log: (line: string) => void,
  ): { stop: () => void } {
    let timer: NodeJS.Timeout | undefined;
    let stopped = intervalMs === 0;
    if (stopped) return { stop: () => undefined };
    const round = async () => {
      const started = performance.now();
      // A read the shutdown cut short is no failure to report.
      const failures = await this.read(driver, database, (line) => {
        if (!stopped) log(line);
      });
      if (stopped) return;
      const took = performance.now() - started;
      // Neo4j down at start-up leaves nothing estimated: tried again soon, not in ten minutes.
      const next = failures > 0 ? Math.min(intervalMs, RETRY_MS) : intervalMs;
      timer = setTimeout(() => void round(), Math.max(next, took / DUTY));
      timer.unref();
    };
    void round();
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }
}

/** One auto-commit query, never retried: a Neo4j that is not there fails the read at once. */
async function readOnce(driver: Driver, database: string, text: string, parameters: Record<string, unknown>) {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  // Named in Neo4j's query log and `SHOW TRANSACTIONS` as pre-planning's queries are.
  const metadata = { app: "kg-graphql", purpose: "row-estimates" };
  return answerWithin(
    session.run(text, parameters, { timeout: READ_TIMEOUT_MS, metadata }),
    READ_TIMEOUT_MS,
  ).finally(() => session.close());
}

/** The rows of a label, from Neo4j's count store. */
async function readLabelRows(driver: Driver, database: string, label: string): Promise<number> {
  const { records } = await readOnce(driver, database, `MATCH (n:${label}) RETURN count(n) AS rows`, {});
  return Number(records[0]?.get("rows") ?? 0);
}

async function readSample(
  driver: Driver,
  database: string,
  label: string,
  filters: readonly Filter[],
): Promise<RowSample> {
  const text = sampleStatement(label, filters);
  const { records } = await readOnce(driver, database, text, {
    sample: SAMPLE_TOGETHER,
    ...constantsOf(text),
  });
  const [record] = records;
  const rows = ((record?.get("rows") as unknown[][] | undefined) ?? []).map((row) =>
    filters.map((filter, column) => {
      const value = row[column];
      if (value === null || value === undefined) return null;
      return filter.kind === "equals" ? valueKey(value) : (numberOf(value) ?? null);
    }),
  );
  return { labelled: Number(record?.get("labelled") ?? 0), rows };
}

async function readStatistics(
  driver: Driver,
  database: string,
  label: string,
  filter: Filter,
): Promise<Statistics> {
  const text = statisticsStatement(label, filter);
  const { records } = await readOnce(driver, database, text, {
    sample: SAMPLE,
    buckets: BUCKETS,
    ...constantsOf(text),
  });
  if (filter.kind === "equals")
    return {
      kind: "values",
      rows: new Map(records.map((record) => [valueKey(record.get("value")), Number(record.get("rows"))])),
    };
  const [record] = records;
  const sampled = Number(record?.get("sampled") ?? 0);
  const labelled = Number(record?.get("labelled") ?? 0);
  const quantiles = ((record?.get("quantiles") as unknown[] | undefined) ?? [])
    .map((q) => numberOf(q))
    .filter((q): q is number => q !== undefined);
  // A sample of `sampled` of about `SAMPLE / labelled` of the values: the rows with a value, scaled.
  const share = labelled <= SAMPLE ? 1 : SAMPLE / labelled;
  return { kind: "quantiles", rows: sampled / share, quantiles: sampled === 0 ? [] : quantiles };
}
