// Group lists (contract §7, v1 additions): one row per distinct combination of the `by`
// dimensions among the rows the filters keep, computed in the database. The statement is built per
// request: the rows' one start (starts.ts), only the dimensions `by` names, and NumberStats only
// for the statistics the request selects.
import type { ElementList } from "./domain.js";
import { givenArguments, pageSize } from "./lists.js";
import { selects, type FieldRequest } from "./request.js";
import { readRows } from "./starts.js";
import { lines } from "./text.js";
import { isServableInstant, numberOrNull } from "./values.js";

/** A group dimension: the value a row is grouped by, its sort key and its field's value. */
export interface Dimension {
  /** The enum value naming it in `by`. */
  name: string;
  /** The group field it fills. */
  field: string;
  /** Its value for the row. */
  value: string;
  /** A property the value reads several times, read once into a variable first (`[variable, property]`). */
  reads?: [string, string];
  /**
   * The property it is, when the label has a range index on it: a group by this dimension alone,
   * with no filter and no statistics, is counted from the index (see {@link indexedCounts}).
   */
  indexed?: string;
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

/**
 * A month as a dimension: grouped by the instant's UTC month as the integer `year * 12 + month - 1`
 * (read from the value's own fields when it was written in UTC, else converted; 4× cheaper per row
 * than formatting), sorted by it, and written `YYYY-MM` for the groups kept. A row without a
 * servable instant (values.ts) is in the group without a month.
 */
export const monthDimension = (property: string): Dimension => {
  // Read once: a stored DATETIME is decoded on each read, and the value reads it four times.
  const at = "month_at";
  const utc = `datetime({epochSeconds: ${at}.epochSeconds})`;
  const first = (k: string) => `toString(date({year: 0, month: 1}) + duration({months: ${k}}))`;
  return {
    name: "MONTH",
    field: "month",
    reads: [at, property],
    value:
      `CASE WHEN NOT ${isServableInstant(at)} THEN null WHEN ${at}.offsetSeconds = 0 THEN ${at}.year * 12 + ${at}.month - 1 ` +
      `ELSE ${utc}.year * 12 + ${utc}.month - 1 END`,
    output: (k) => `CASE WHEN ${k} IS NULL THEN null ELSE left(${first(k)}, size(${first(k)}) - 3) END`,
  };
};

/**
 * A single-valued link as a group dimension: the linked node with the lowest `id` (§7), picked
 * from a pattern comprehension (a third cheaper per row than a sorted `COLLECT` subquery).
 */
export const linkDimension = (name: string, field: string, pattern: string, target: string): Dimension => ({
  name,
  field,
  value:
    `reduce(lowest = null, n IN [${pattern} | ${target}] | ` +
    `CASE WHEN lowest IS NULL OR lowest.id IS NULL OR n.id < lowest.id THEN n ELSE lowest END)`,
  key: (value) => `${value}.id`,
});

/** An indexed property's value as a dimension. */
export const propertyDimension = (name: string, field: string, v: string, property: string): Dimension => ({
  name,
  field,
  value: `${v}.${property}`,
  indexed: property,
});

/** A property's numeric value, read once per row for its NumberStats (a value of another type is left out). */
const statsValue = (v: string, property: string) =>
  `${numberOrNull(`${v}.${property}`)} AS ${property}_value`;

/** The aggregates NumberStats is made of, over a property's numeric values, as `name: expression`. */
const statsAggregates = (property: string): string[] =>
  ["count", "min", "max", "sum"].map(
    (aggregate) => `${aggregate}(${property}_value) AS ${property}_${aggregate}`,
  );

/** NumberStats from its aggregates (`avg` is `sum / count`): all null but `count` when there are no values. */
const numberStats = (property: string) => {
  const a = (aggregate: string) => `${property}_${aggregate}`;
  return (
    `{count: ${a("count")}, min: toFloat(${a("min")}), max: toFloat(${a("max")}), avg: CASE WHEN ${a("count")} = 0 THEN null ELSE toFloat(${a("sum")}) / ${a("count")} END, ` +
    `sum: CASE WHEN ${a("count")} = 0 THEN null ELSE toFloat(${a("sum")}) END}`
  );
};

/**
 * A group list's statement: the rows the filters keep, one group per distinct combination of the
 * `by` dimensions (a missing value is its own group), ordered by `count` descending, then the
 * dimensions in `by` order ascending with nulls last, then cut to `limit`. The request pipeline
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
  const stats = group.stats.filter((property) => selects(request, group.type, property));
  const fields = dimensions.map((d) => d.field);
  const keys = dimensions.map((d) => (d.key === undefined ? d.field : d.key(d.field)));
  // Ordered before the cut and again as the maps are returned, where the library reads them.
  const order = `ORDER BY ${["count DESC", ...keys.flatMap((key) => [`${key} IS NULL`, key])].join(", ")}`;
  const given = givenArguments(list, request);
  const [only] = dimensions;
  const reads = dimensions.flatMap((d) => (d.reads === undefined ? [] : [`${d.reads[1]} AS ${d.reads[0]}`]));
  const counted =
    dimensions.length === 1 && only?.indexed !== undefined && given.size === 0 && stats.length === 0
      ? indexedCounts(list.type, v, only.field, only.indexed)
      : [
          ...readRows(list, given).clauses,
          ...(reads.length === 0 ? [] : [`WITH ${[v, ...reads].join(", ")}`]),
          `WITH ${[v, ...dimensions.map((d) => `${d.value} AS ${d.field}`), ...stats.map((property) => statsValue(v, property))].join(", ")}`,
          `WITH ${[...fields, `count(${v}) AS count`, ...stats.flatMap(statsAggregates)].join(", ")}`,
        ];
  return lines(
    ...counted,
    order,
    `LIMIT ${pageSize(request, "limit")}`,
    `RETURN {${[
      ...dimensions.map((d) => `${d.field}: ${d.output === undefined ? d.field : d.output(d.field)}`),
      "count: count",
      ...stats.map((property) => `${property}: ${numberStats(property)}`),
    ].join(", ")}} AS g`,
    order,
  );
}

/**
 * Groups by one indexed property over a whole label: the property's range index holds every
 * non-null value, so its values are counted there (Neo4j reads them from the index, never from the
 * nodes); the rows without a value are the label's count (the count store) less those counted.
 */
function indexedCounts(label: string, v: string, field: string, property: string): string[] {
  return [
    "CALL () {",
    `  MATCH (${v}:${label})`,
    `  USING INDEX ${v}:${label}(${property})`,
    `  WHERE ${v}.${property} IS NOT NULL`,
    `  RETURN ${v}.${property} AS ${field}, count(${v}) AS count`,
    "}",
    `WITH collect({${field}: ${field}, count: count}) AS valued`,
    `CALL () { MATCH (${v}:${label}) RETURN count(${v}) AS rows }`,
    `WITH valued, rows - reduce(counted = 0, g IN valued | counted + g.count) AS missing`,
    `UNWIND valued + [g IN [{${field}: null, count: missing}] WHERE g.count > 0] AS g`,
    `WITH g.${field} AS ${field}, g.count AS count`,
  ];
}
