// Group lists (contract §7, v1 additions): one row per distinct combination of the `by`
// dimensions among the rows the filters keep, computed in the database. The statement is built per
// request: the rows' one start (starts.ts), only the dimensions `by` names, and NumberStats only
// for the statistics the request selects.
import { DOMAIN, ENUMS, propertyType, type DimensionRow, type ElementType } from "../domain/table.js";
import { listOf, type ElementList } from "./element-lists.js";
import { givenArguments, pageSize } from "./lists.js";
import { linkPattern } from "./nested.js";
import type { FieldRequest } from "./request.js";
import { readRows, rowsKeptBy } from "./starts.js";
import { requestedWhere } from "./where.js";
import { requestedWhereSeek } from "./where-seeks.js";
import { lines } from "./text.js";
import { isServableInstant, LARGEST_NUMBER, numberOrNull } from "./values.js";

/** A group dimension: the value a row is grouped by, its sort key and its field's value. */
export interface Dimension {
  /** The enum value naming it in `by`. */
  name: string;
  /** The group field it fills. */
  field: string;
  /** Its value for the row. */
  value: string;
  /** Its value for a row whose instant `property` is known to be servable (RowsRead.servableInstants). */
  servable?: { property: string; value: string };
  /** A property the value reads several times, read once into a variable first (`[variable, property]`). */
  reads?: [string, string];
  /**
   * The property it is, when the label has a range index on it: a group by this dimension alone,
   * with no filter and no statistics, is counted from the index (see {@link indexedCounts}).
   */
  indexed?: string;
  /** For an {@link indexed} property: the test that a value read from its index is servable. */
  keeps?: (value: string) => string;
  /** Its sort key, given the grouped value (a link sorts by the linked node's `id`). */
  key?: (value: string) => string;
  /** The field's value, given the grouped value: computed for the groups kept by `limit` only. */
  output?: (value: string) => string;
}

/** A group list: its rows, its dimensions, and the properties it can summarise as NumberStats. */
export interface GroupList {
  list: ElementList;
  /** The GraphQL type of a group (`DecisionGroup`), whose selection names the statistics asked. */
  type: string;
  dimensions: readonly Dimension[];
  stats: readonly string[];
}

/** The time buckets of contract §7 (v1 additions, part 2), by the dimension naming them in `by`. */
const BUCKETS = {
  DAY: { field: "day", start: (x: string) => `date(${x})`, text: (k: string) => `toString(${k})` },
  WEEK: {
    field: "week",
    start: (x: string) => `date.truncate('week', ${x})`,
    // The ISO week-year of the week's Monday: "2025-W01" starts on 2024-12-30.
    text: (k: string) => `${yearText(`${k}.weekYear`)} + '-W' + right('0' + toString(${k}.week), 2)`,
  },
  MONTH: {
    field: "month",
    start: (x: string) => `date.truncate('month', ${x})`,
    text: (k: string) => `left(toString(${k}), 7)`,
  },
  QUARTER: {
    field: "quarter",
    start: (x: string) => `date.truncate('quarter', ${x})`,
    text: (k: string) => `left(toString(${k}), 4) + '-Q' + toString(${k}.quarter)`,
  },
  YEAR: {
    field: "year",
    start: (x: string) => `date.truncate('year', ${x})`,
    text: (k: string) => `left(toString(${k}), 4)`,
  },
} as const;

export type Bucket = keyof typeof BUCKETS;

/**
 * A year as ISO 8601 writes it: four digits, a sign before a year below 0000 (the ISO week-year of
 * 0000-01-01 and -02 is -0001; the years of servable instants are 0000 to 9999 otherwise).
 */
const yearText = (y: string) =>
  `CASE WHEN ${y} < 0 THEN '-' + right('000' + toString(-${y}), 4) ELSE right('000' + toString(${y}), 4) END`;

/**
 * A time bucket of an instant as a dimension, in UTC: grouped and sorted by the bucket's first day
 * (a `DATE`: the day, the week's Monday, the first day of the month, quarter or year), written as
 * its text (`YYYY-MM-DD`, `YYYY-Www`, `YYYY-MM`, `YYYY-Qn`, `YYYY`) for the groups kept only. An
 * instant written in UTC is truncated as it is, one in another zone converted first. A row without
 * a servable instant (values.ts) is in the group without a bucket.
 */
const timeDimension = (bucket: Bucket, property: string): Dimension => {
  const { field, start, text } = BUCKETS[bucket];
  // Read once: a stored DATETIME is decoded on each read, and the value reads it up to four times.
  const at = `${field}_at`;
  const inUtc =
    `WHEN ${at}.offsetSeconds = 0 THEN ${start(at)} ` +
    `ELSE ${start(`datetime({epochSeconds: ${at}.epochSeconds})`)} END`;
  return {
    name: bucket,
    field,
    reads: [at, property],
    value: `CASE WHEN NOT ${isServableInstant(at)} THEN null ${inUtc}`,
    servable: { property, value: `CASE ${inUtc}` },
    output: (k) => `CASE WHEN ${k} IS NULL THEN null ELSE ${text(k)} END`,
  };
};

/** Every time bucket of an instant, as dimensions. */
const timeDimensions = (property: string): Dimension[] =>
  (Object.keys(BUCKETS) as Bucket[]).map((bucket) => timeDimension(bucket, property));

/**
 * A single-valued link as a group dimension: the linked node with the lowest `id` (§7), picked
 * from a pattern comprehension (a third cheaper per row than a sorted `COLLECT` subquery).
 */
const linkDimension = (name: string, field: string, pattern: string, target: string): Dimension => ({
  name,
  field,
  value:
    `reduce(lowest = null, n IN [${pattern} | ${target}] | ` +
    `CASE WHEN lowest IS NULL OR lowest.id IS NULL OR n.id < lowest.id THEN n ELSE lowest END)`,
  key: (value) => `${value}.id`,
});

/**
 * The test that a property's value is one the schema serves: an enum's name among its values, a
 * text, a boolean. A value §3 would report (`'UNKNOWN'` for a status, `'true'` for `shipped`) is
 * missing (contract §7), so its row falls into the one group without a value, as an absent one does.
 */
function servableTest(type: string): (value: string) => string {
  const values = ENUMS[type];
  if (values !== undefined) return (value) => `${value} IN [${values.map((name) => `'${name}'`).join(", ")}]`;
  if (type === "Boolean") return (value) => `${value} IS :: BOOLEAN`;
  if (type === "String") return (value) => `${value} IS :: STRING`;
  throw new Error(`no group dimension of type ${type}`);
}

/** An indexed property's value as a dimension. */
const propertyDimension = (
  name: string,
  field: string,
  v: string,
  property: string,
  type: string,
): Dimension => {
  const keeps = servableTest(type);
  return {
    name,
    field,
    value: `CASE WHEN ${keeps(`${v}.${property}`)} THEN ${v}.${property} END`,
    indexed: property,
    keeps,
  };
};

/** A dimension row of the domain table as the dimensions it names, for the rows `v` of `type`. */
function dimensionsOf(type: ElementType, v: string, row: DimensionRow): Dimension[] {
  if ("timeBucketsOf" in row) return timeDimensions(`${v}.${row.timeBucketsOf}`);
  if ("property" in row) {
    const stored = DOMAIN[type].properties[row.property];
    if (stored === undefined) throw new Error(`${type}: the dimension ${row.by} names no property`);
    return [propertyDimension(row.by, row.property, v, row.property, propertyType(stored).name)];
  }
  const link = DOMAIN[type].links[row.link];
  if (link?.kind !== "single") throw new Error(`${type}: the dimension ${row.by} names no single link`);
  const target = DOMAIN[link.to].v;
  return [linkDimension(row.by, row.link, linkPattern(link, v, target), target)];
}

/** The group list of `type`, from the domain table; the table gives it one. */
export function groupListOf(type: ElementType): GroupList {
  const groups = DOMAIN[type].groups;
  if (groups === undefined) throw new Error(`${type} has no group list`);
  const list = listOf(type);
  return {
    list,
    type: groups.type,
    dimensions: groups.dimensions.flatMap((row) => dimensionsOf(type, list.v, row)),
    stats: groups.stats,
  };
}

/**
 * A property's numeric value, read once per row for its NumberStats (a value of another type is
 * left out). When a given lower bound on it (`regretScoreMin`) kept the rows, every value is a
 * number already: a value of another type compares with a number as null, and is not kept.
 */
const statsValue = (list: ElementList, property: string, numeric: ReadonlySet<string>) => {
  const value = `${list.v}.${property}`;
  const stored = DOMAIN[list.type].properties[property];
  if (stored === undefined) throw new Error(`${list.type} has no property ${property} to summarise`);
  const scalar = propertyType(stored).name;
  return `${numeric.has(property) ? value : numberOrNull(value, scalar)} AS ${property}_value`;
};

/** A NumberStats field, and the aggregates its value is made of. */
const STATS_FIELDS = {
  count: ["count"],
  min: ["min"],
  max: ["max"],
  // `sum / count` while the sum is finite, else Neo4j's running mean (see numberStats).
  avg: ["count", "sum", "avg"],
  // Null, not 0, when there are no values.
  sum: ["count", "sum"],
} as const;
type StatsField = keyof typeof STATS_FIELDS;
const isStatsField = (field: string): field is StatsField => field in STATS_FIELDS;

/** A property summarised as NumberStats, with the fields of it the request selects (under any alias). */
interface Stats {
  property: string;
  fields: StatsField[];
}

/**
 * The NumberStats the request selects of a group type, each with its selected fields; one of
 * which only `__typename` is selected needs no value read.
 */
function statsSelected(group: GroupList, request: FieldRequest): Stats[] {
  const selected = Object.values(request.selection?.fieldsByTypeName[group.type] ?? {});
  return group.stats.flatMap((property) => {
    const fields = new Set(
      selected
        .filter((selection) => selection.name === property)
        .flatMap((selection) => Object.values(selection.fieldsByTypeName.NumberStats ?? {}))
        .map((selection) => selection.name)
        .filter(isStatsField),
    );
    return fields.size === 0 ? [] : [{ property, fields: [...fields] }];
  });
}

/** The aggregates of a property's numeric values its selected fields need, as `expression AS name`. */
const statsAggregates = ({ property, fields }: Stats): string[] =>
  [...new Set(fields.flatMap((field) => STATS_FIELDS[field]))].map(
    (aggregate) => `${aggregate}(${property}_value) AS ${property}_${aggregate}`,
  );

/**
 * The selected fields of NumberStats from their aggregates: all null but `count` when there are no
 * values. A sum of finite values can still overflow a float (two near 1.8e308): it is sent as the
 * infinity it is, which the schema answers as a field error (src/graphql/stored-values.ts), not as
 * a null that would say there were no values; so is a mean neither way of computing it can write.
 */
const numberStats = ({ property, fields }: Stats) => {
  const a = (aggregate: string) => `${property}_${aggregate}`;
  const value: Record<StatsField, string> = {
    count: a("count"),
    min: `toFloat(${a("min")})`,
    max: `toFloat(${a("max")})`,
    // Each overflows where the other may not: a sum of two values near 1.8e308, a running mean
    // of 1.7e308 and -1e308 (its step `x - avg`). Both do only for a mean past the largest Float.
    avg: `CASE WHEN ${a("count")} = 0 THEN null WHEN abs(toFloat(${a("sum")})) <= ${LARGEST_NUMBER} THEN toFloat(${a("sum")}) / ${a("count")} ELSE toFloat(${a("avg")}) END`,
    sum: `CASE WHEN ${a("count")} = 0 THEN null ELSE toFloat(${a("sum")}) END`,
  };
  return `{${fields.map((field) => `${field}: ${value[field]}`).join(", ")}}`;
};

/**
 * A group list's statement: the rows the filters keep, one group per distinct combination of the
 * `by` dimensions (a missing value is its own group), ordered by `count` as `orderBy` says, then
 * the dimensions in `by` order ascending with nulls last, then cut to `limit`. The request pipeline
 * has checked `by` (1 to 4 distinct). Groups carry bare aggregates until the cut: maps and
 * formatted months are made for the kept ones. A dimension not in `by` is absent from the map
 * (its field reads null).
 */
export function groups(group: GroupList, request: FieldRequest): string {
  const { list } = group;
  const { v } = list;
  const by = Array.isArray(request.arguments.by) ? (request.arguments.by as unknown[]) : [];
  const dimensions = by.map((name) => {
    const dimension = group.dimensions.find((d) => d.name === name);
    if (dimension === undefined) throw new Error(`${group.type}: no dimension ${String(name)}`);
    return dimension;
  });
  const stats = statsSelected(group, request);
  const fields = dimensions.map((d) => d.field);
  const keys = dimensions.map((d) => (d.key === undefined ? d.field : d.key(d.field)));
  // Ordered before the cut; the maps made of the groups kept follow in that order.
  const dimensionOrder = keys.flatMap((key) => [`${key} IS NULL`, key]);
  const order = `ORDER BY ${[...countOrder(request), ...dimensionOrder].join(", ")}`;
  const given = givenArguments(list, request);
  const numeric = new Set(
    list.filters.flatMap((filter) =>
      filter.kind === "atLeast" && given.has(filter.argument) ? [filter.property] : [],
    ),
  );
  const [only] = dimensions;
  const reads = dimensions.flatMap((d) => (d.reads === undefined ? [] : [`${d.reads[1]} AS ${d.reads[0]}`]));
  const kept = requestedWhere(list.type, v, request);
  const rows = readRows(list, given, {
    kept,
    whereStart: requestedWhereSeek(list.type, v, request),
    rowsKept: rowsKeptBy(list, request),
  });
  // An instant the read keeps servable only (a given day range's) is not checked again.
  const valueOf = (d: Dimension) =>
    d.servable !== undefined && rows.servableInstants.includes(d.servable.property)
      ? d.servable.value
      : d.value;
  const counted =
    dimensions.length === 1 &&
    only?.indexed !== undefined &&
    given.size === 0 &&
    kept === undefined &&
    stats.length === 0
      ? indexedCounts(list.type, v, only)
      : [
          ...rows.clauses,
          ...(reads.length === 0 ? [] : [`WITH ${[v, ...reads].join(", ")}`]),
          `WITH ${[v, ...dimensions.map((d) => `${valueOf(d)} AS ${d.field}`), ...stats.map(({ property }) => statsValue(list, property, numeric))].join(", ")}`,
          `WITH ${[...fields, `count(${v}) AS count`, ...stats.flatMap(statsAggregates)].join(", ")}`,
        ];
  return lines(
    ...counted,
    order,
    `LIMIT ${pageSize(request, "limit")}`,
    `RETURN {${[
      ...dimensions.map((d) => `${d.field}: ${d.output === undefined ? d.field : d.output(d.field)}`),
      "count: count",
      ...stats.map((summary) => `${summary.property}: ${numberStats(summary)}`),
    ].join(", ")}} AS g`,
  );
}

/**
 * How groups are ordered before their dimensions (contract §7, `orderBy: GroupOrder`): largest
 * first by default (absent or null), smallest first, or by the dimensions alone.
 */
function countOrder(request: FieldRequest): string[] {
  const order = request.arguments.orderBy ?? "COUNT_DESC";
  switch (order) {
    case "COUNT_DESC":
      return ["count DESC"];
    case "COUNT_ASC":
      return ["count"];
    case "DIMENSIONS":
      return [];
    default:
      throw new Error(`no group order ${JSON.stringify(order)}`);
  }
}

/**
 * Groups by one indexed property over a whole label: the property's range index holds every
 * non-null value, so its values are counted there (Neo4j reads them from the index, never from the
 * nodes); the servable ones are kept, once per value, and the rows without one are the label's
 * count (the count store) less those kept.
 */
function indexedCounts(label: string, v: string, { field, indexed: property, keeps }: Dimension): string[] {
  if (property === undefined || keeps === undefined) throw new Error(`${field} is not an indexed property`);
  return [
    "CALL () {",
    `  MATCH (${v}:${label})`,
    `  USING INDEX ${v}:${label}(${property})`,
    `  WHERE ${v}.${property} IS NOT NULL`,
    `  RETURN ${v}.${property} AS ${field}, count(${v}) AS count`,
    "}",
    `WITH collect(CASE WHEN ${keeps(field)} THEN {${field}: ${field}, count: count} END) AS valued`,
    `CALL () { MATCH (${v}:${label}) RETURN count(${v}) AS rows }`,
    `WITH valued, rows - reduce(counted = 0, g IN valued | counted + g.count) AS missing`,
    `UNWIND valued + [g IN [{${field}: null, count: missing}] WHERE g.count > 0] AS g`,
    `WITH g.${field} AS ${field}, g.count AS count`,
  ];
}
