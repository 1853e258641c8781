// The `@cypher` statements of typeDefs/, generated from the few shapes below so that each rule of
// contract §7 is spelled once: `npm run typedefs` writes them into the committed SDL files, and
// test/typedefs.test.ts fails when a file and its template drift apart. Only what contract §8
// names is read: no derived property, no helper label, so a graph written by the ingest job a
// moment ago answers correctly.
import { comesAfter, cursorOf, ORDERS, positionOf, type ElementType, type ListOrder } from "./cursor.js";

/**
 * `ORDER BY` for a list of `v`. Neo4j orders two `DATETIME`s at one instant by their zones
 * (`+02:00` after `Z` after `-05:00`), so instants are compared as epoch seconds and nanoseconds,
 * which ties them for the `id` tie-break. `IS NULL` first: a descending order would put nulls first.
 */
export function orderBy(v: string, order: ListOrder): string {
  if (order === "name") return `${v}.name, ${v}.id`;
  if ("newestFirst" in order) {
    const at = `${v}.${order.newestFirst}`;
    return `${at} IS NULL, ${at}.epochSeconds DESC, ${at}.nanosecond DESC, ${v}.id`;
  }
  const on = `${v}.${order.earliestFirst}`;
  return `${on} IS NULL, ${on}, ${v}.id`;
}

/** The earliest `DATETIME` Neo4j can hold: every stored instant is at or after it. */
const EARLIEST_INSTANT = "datetime('-999999999-01-01T00:00:00+18:00')";
/** The latest `DATETIME` Neo4j can hold: every stored instant is at or before it. */
const LATEST_INSTANT = "datetime('+999999999-12-31T23:59:59.999999999-18:00')";

/** How many rows a statement reads, and from where. */
interface Page {
  /** `LIMIT`: a list's `limit`, or one more than a connection's `first` (to see whether more follow). */
  size: string;
  /** The variable holding the position the rows come strictly after (a connection's `after`). */
  after?: string;
}

/** A list's page: the request pipeline has refused a `limit` outside 1..100; `null` means 20. */
const LIST_PAGE: Page = { size: "toInteger(coalesce($limit, 20))" };
/** A connection's `first` (1..100, checked likewise; `null` means 20). */
const FIRST = "toInteger(coalesce($first, 20))";
/** A connection's rows: `first` and one more, after the position its `after` names. */
const CONNECTION_PAGE: Page = { size: `${FIRST} + 1`, after: "position" };

/** How a statement names an argument: `$status` in a field's own statement, `f.status` in a count. */
type Ref = (argument: string) => string;
const PARAMETER: Ref = (argument) => `$${argument}`;
/** A connection keeps its list's arguments in its map (`filters`), for `totalCount` to read later. */
const KEPT: Ref = (argument) => `this.filters.${argument}`;

/** A row condition on an argument, true when the argument is null. */
type Filter = (ref: Ref) => string;

/** A node found by its unique `id`, or none. */
export function lookupById(label: string, v: string): string {
  return `MATCH (${v}:${label} {id: $id}) RETURN ${v} LIMIT 1`;
}

/** A single-valued link (`decidedBy`, `topic`…): with several targets, the lowest `id` (§7). */
export function singleLink(pattern: string, v: string): string {
  return `MATCH ${pattern} RETURN ${v} ORDER BY ${v}.id LIMIT 1`;
}

/**
 * A list under one parent node (`this`): its relationships are few, so they are sorted as they
 * come. `DISTINCT`: duplicate relationships count once (§7).
 */
export function nestedList(pattern: string, v: string, order: ListOrder): string {
  return lines(
    `MATCH ${pattern}`,
    `WITH DISTINCT ${v}`,
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${LIST_PAGE.size}`,
  );
}

/**
 * The connection of a list under one parent node: all its rows are read (they are few), counted
 * for `totalCount`, and those after the cursor's position sorted for the page.
 */
export function nestedConnection(pattern: string, v: string, type: ElementType): string {
  const { size, after = "position" } = CONNECTION_PAGE;
  return lines(
    `UNWIND [${positionOf("after")}] AS ${after}`,
    `OPTIONAL MATCH ${pattern}`,
    `WITH ${after}, collect(DISTINCT ${v}) AS every`,
    `OPTIONAL CALL (every, ${after}) {`,
    ...indent([
      `UNWIND every AS ${v}`,
      `WITH ${v} WHERE ${comesAfter(v, type, after)}`,
      `RETURN ${v}`,
      `ORDER BY ${orderBy(v, ORDERS[type])}`,
      `LIMIT ${size}`,
    ]),
    "}",
    `WITH every, collect(${v}) AS rows`,
    connectionMap("size(every)", "{}"),
  );
}

/** A connection's map: its page, whether rows follow, its count if known, its list's arguments. */
function connectionMap(total: string, filters: string): string {
  return `RETURN {rows: rows[..${FIRST}], hasNextPage: size(rows) > ${FIRST}, total: ${total}, filters: ${filters}} AS c`;
}

/** A root list field's source: its type (the node label) and the argument-driven conditions on each row. */
export interface RootList {
  type: ElementType;
  v: string;
  filters: Filter[];
  /**
   * A filter naming one parent node: with it, the list starts from that node (found through the
   * `id` constraint's index) and the label's own indexes are not read at all.
   */
  parent?: { argument: string; label: string; v: string; relationship: string };
}

/** A root list's rows as a whole (for a count or groups): its filters and where a read can start. */
interface Source {
  label: ElementType;
  v: string;
  filters: Filter[];
  starts: Start[];
}

/** `$argument IS NULL OR v.property = $argument`: a filter that an absent argument leaves open. */
export function equals(v: string, property: string, argument = property): Filter {
  return (ref) => `(${ref(argument)} IS NULL OR ${v}.${property} = ${ref(argument)})`;
}

/** An inclusive lower bound; a row whose value is null never matches a given bound (§7). */
export function atLeast(v: string, property: string, argument: string): Filter {
  return (ref) => `(${ref(argument)} IS NULL OR ${v}.${property} >= ${ref(argument)})`;
}

/** 00:00 UTC of a `Date` argument. */
const dayStart = (value: string) => `datetime({date: date(${value}), timezone: 'Z'})`;

/** A calendar-date range on an instant (`since`, `until`: §7); a row without one never matches. */
interface DayRange {
  since?: string;
  until?: string;
}

/** The range's exact conditions, on epoch seconds (zones aside). */
function dayRangeFilters(at: string, range: DayRange): Filter[] {
  const { since, until } = range;
  return [
    ...(since === undefined
      ? []
      : [
          (ref: Ref) =>
            `(${ref(since)} IS NULL OR ${at}.epochSeconds >= ${dayStart(ref(since))}.epochSeconds)`,
        ]),
    ...(until === undefined
      ? []
      : [
          (ref: Ref) =>
            `(${ref(until)} IS NULL OR ${at}.epochSeconds < (${dayStart(ref(until))} + duration('P1D')).epochSeconds)`,
        ]),
  ];
}

/** The range's bounds for an index seek: a second wider, since an instant in another zone orders a little off. */
function dayRangeSeek(at: string, range: DayRange, ref: Ref): string[] {
  const { since, until } = range;
  return [
    since === undefined
      ? `${at} IS NOT NULL`
      : `${at} >= CASE WHEN ${ref(since)} IS NULL THEN ${EARLIEST_INSTANT} ELSE ${dayStart(ref(since))} - duration('PT1S') END`,
    ...(until === undefined
      ? []
      : [
          `${at} <= CASE WHEN ${ref(until)} IS NULL THEN ${LATEST_INSTANT} ELSE ${dayStart(ref(until))} + duration('P1DT1S') END`,
        ]),
  ];
}

/**
 * A root list ordered newest `property` first. The label's range index on `property` is read in
 * descending order up to one page of rows that pass the filters; that index holds only rows with
 * a value, so:
 *
 * - rows at the page's last instant but in another zone (or cut by the LIMIT) may lie just past
 *   it in the index: the second read takes that instant's neighbourhood (±1 s);
 * - undated rows come last, in `id` order: the third read walks the `id` constraint's index, and
 *   only when the dated rows did not fill the page (and no date bound excludes undated rows).
 *
 * The three reads together hold the page; the final `ORDER BY` puts it in contract order.
 * `since` keeps instants from 00:00 UTC of that date, `until` those before the next day's: the
 * index range is a second wider, because a `DATETIME` at that very instant written with another
 * offset orders a little off; the exact bounds compare epoch seconds. A connection's page starts
 * after its cursor's position: the dated read seeks from that instant (a second later, likewise),
 * the undated read from that `id`, and an undated position skips the dated read.
 */
export function newestFirstRootList(
  list: RootList,
  property: string,
  range: DayRange = {},
  page: Page = LIST_PAGE,
): string {
  const { type: label, v } = list;
  const at = `${v}.${property}`;
  const p = page.after;
  const keyset = p === undefined ? [] : [comesAfter(v, label, p)];
  const rowFilters = [...dayRangeFilters(at, range), ...list.filters].map((filter) => filter(PARAMETER));
  const filters = [...rowFilters, ...keyset];
  // The undated read runs only without a date range: the list's own filters suffice there.
  const undatedFilters = [...list.filters.map((filter) => filter(PARAMETER)), ...keyset];
  const seek = [
    ...dayRangeSeek(at, range, PARAMETER),
    ...(p === undefined
      ? []
      : [
          `${at} <= CASE WHEN ${p} IS NULL THEN ${LATEST_INSTANT} WHEN ${p}[1] IS NULL THEN ${EARLIEST_INSTANT} ` +
            `ELSE datetime({epochSeconds: toInteger(${p}[1]), nanosecond: ${p}[2]}) + duration('PT1S') END`,
        ]),
  ];
  const imports = p === undefined ? "" : p;
  const and = (...names: string[]) => names.filter((name) => name !== "").join(", ");
  const dated = [range.since, range.until].filter((argument) => argument !== undefined);
  const labelReads = [
    `CALL (${imports}) {`,
    ...indent([
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${property})`,
      where([...seek, ...filters]),
      `WITH ${v} ORDER BY ${at} DESC LIMIT ${page.size}`,
      `RETURN collect(${v}) AS page`,
    ]),
    "}",
    `CALL (${and("page", imports)}) {`,
    ...indent([
      `WITH page[-1].${property} AS edge WHERE size(page) = ${page.size}`,
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${property})`,
      where([`${at} >= edge - duration('PT1S') AND ${at} <= edge + duration('PT1S')`, ...filters]),
      `RETURN collect(${v}) AS ties`,
    ]),
    "}",
    // OPTIONAL CALL around a guard: planned as Apply over a Filter, so the `id` index is not
    // touched when the page is full (a plain `WITH … WHERE` was merged into the scan's filter).
    `OPTIONAL CALL (${and("page", imports)}) {`,
    ...indent([
      `WITH ${and("page", imports)} WHERE size(page) < ${page.size}${dated.map((argument) => ` AND $${argument} IS NULL`).join("")}`,
      `CALL (${imports}) {`,
      ...indent([
        `MATCH (${v}:${label})`,
        `USING INDEX ${v}:${label}(id)`,
        where([
          p === undefined
            ? `${v}.id IS NOT NULL AND ${at} IS NULL`
            : `${v}.id >= CASE WHEN ${p} IS NULL OR ${p}[1] IS NOT NULL THEN '' ELSE ${p}[3] END AND ${at} IS NULL`,
          ...undatedFilters,
        ]),
        `WITH ${v} ORDER BY ${v}.id LIMIT ${page.size}`,
        `RETURN collect(${v}) AS undated`,
      ]),
      "}",
      "RETURN undated",
    ]),
    "}",
    // `page[..0]`, not `[]`: an untyped empty list makes the rows of unknown type, and Neo4j 5.26
    // then answers null for the second read of one property (`{ .id, a: this0.id }`: a field
    // selected under two aliases).
    `UNWIND page + ties + coalesce(undated, page[..0]) AS ${v}`,
    `RETURN ${v}`,
  ];
  return rootList(list, filters, labelReads, page);
}

/**
 * A root list ordered by `name`: the label's range index on `name` is read in order (from the
 * cursor's name, for a connection's page), the filters are checked as rows come, and the `id`
 * tie-break sorts only rows of one name (a partial top).
 */
export function byNameRootList(list: RootList, page: Page = LIST_PAGE): string {
  const { type: label, v } = list;
  const p = page.after;
  const filters = [
    ...list.filters.map((filter) => filter(PARAMETER)),
    ...(p === undefined ? [] : [comesAfter(v, label, p)]),
  ];
  const labelReads = [
    `MATCH (${v}:${label})`,
    `USING INDEX ${v}:${label}(name)`,
    where([
      p === undefined
        ? `${v}.name IS NOT NULL`
        : `${v}.name >= CASE WHEN ${p} IS NULL THEN '' ELSE coalesce(${p}[1], '') END`,
      ...filters,
    ]),
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, "name")}`,
    `LIMIT ${page.size}`,
  ];
  return rootList(list, filters, labelReads, page);
}

/**
 * The root skeleton: with a parent filter, that node's relationships (sorted as they come);
 * without, the label's ordered reads. `WITH $x AS x WHERE x IS NULL` is planned as a guard (Apply
 * over a Filter), so with a parent the label's indexes are not read. `UNION` drops duplicates.
 */
function rootList(list: RootList, filters: string[], labelReads: string[], page: Page): string {
  const { type: label, v, parent } = list;
  const order = ORDERS[label];
  if (parent === undefined) return lines(...labelReads);
  return lines(
    `CALL (${page.after ?? ""}) {`,
    ...indent([
      `MATCH (${parent.v}:${parent.label} {id: $${parent.argument}})${parent.relationship}(${v}:${label})`,
      `USING INDEX ${parent.v}:${parent.label}(id)`,
      `WITH DISTINCT ${v}`,
      ...(filters.length === 0 ? [] : [where(filters)]),
      `RETURN ${v}`,
      "UNION",
      `WITH $${parent.argument} AS ${parent.argument} WHERE ${parent.argument} IS NULL`,
      ...labelReads,
    ]),
    "}",
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${page.size}`,
  );
}

/**
 * A root connection: the root list's statement reads `first` + 1 rows after the cursor's position;
 * the map keeps the list's arguments for `totalCount`, which only a request selecting it computes.
 */
function rootConnection(arguments_: string[], list: (page: Page) => string, v: string): string {
  const { after = "position" } = CONNECTION_PAGE;
  return lines(
    `UNWIND [${positionOf("after")}] AS ${after}`,
    `CALL (${after}) {`,
    ...indent([list(CONNECTION_PAGE)]),
    "}",
    `WITH collect(${v}) AS rows`,
    connectionMap("null", `{${arguments_.map((argument) => `${argument}: $${argument}`).join(", ")}}`),
  );
}

/** Where a read of a root list's whole rows (a count, groups) can start: an indexed read for one argument. */
interface Start {
  argument: string;
  /** The `MATCH` reading only the rows that argument keeps (through an index), and its conditions. */
  read: (ref: Ref) => { match: string[]; where: string[] };
  /**
   * Whether the read keeps exactly the rows its argument's filter keeps (an equality, a bound, a
   * parent), so that alone it needs no filter checked per row; a date range reads a second wider.
   */
  exact: boolean;
}

/**
 * A root list's rows that its filters keep, all of them (for a count or groups), as `UNION ALL`
 * branches of which exactly one runs: the first of `source.starts` whose argument is given reads
 * its index (or its parent's relationships) and the other filters are checked on those rows
 * only, or not at all when it is the only argument given and its read is exact (an index count
 * then costs what stock's bare `count` does); with none given, `whole` reads the label.
 * `open(conditions)` starts each branch; `finish` ends an indexed read.
 */
function filteredBranches(
  source: Source,
  ref: Ref,
  open: (conditions: string[]) => string,
  whole: string[],
  finish: (read: { match: string[]; where: string[] }, filters: string[]) => string[],
): string[][] {
  const filters = source.filters.map((filter) => filter(ref));
  const absent = (argument: string) => `${ref(argument)} IS NULL`;
  const starts = source.starts.map((start) => start.argument);
  const filtered = source.filters.flatMap(argumentsOf);
  const unread = filtered.filter((argument) => !starts.includes(argument));
  if (unread.length > 0) throw new Error(`${source.label}: no start reads by ${unread.join(", ")}`);
  return [
    [open(starts.map(absent)), ...whole],
    ...source.starts.flatMap((start, index) => {
      const before = starts.slice(0, index).map(absent);
      const given = `${ref(start.argument)} IS NOT NULL`;
      const others = starts.filter((argument) => argument !== start.argument);
      if (!start.exact || others.length === 0)
        return [[open([...before, given]), ...finish(start.read(ref), start.exact ? [] : filters)]];
      return [
        [open([...before, given, ...others.map(absent)]), ...finish(start.read(ref), [])],
        [
          open([
            ...before,
            given,
            `(${others.map((argument) => `${ref(argument)} IS NOT NULL`).join(" OR ")})`,
          ]),
          ...finish(start.read(ref), filters),
        ],
      ];
    }),
  ];
}

/** The arguments a filter reads. */
function argumentsOf(filter: Filter): string[] {
  const read: string[] = [];
  filter((argument) => {
    read.push(argument);
    return "null";
  });
  return [...new Set(read)];
}

/** `UNION ALL` between branches. */
function unionAll(branches: string[][]): string[] {
  return branches.flatMap((branch, index) => (index === 0 ? branch : ["UNION ALL", ...branch]));
}

/**
 * `totalCount` of a connection type: the count its map holds (a list under a parent), else the
 * count of the root list with the arguments it kept. With none, Neo4j's count store answers; with
 * some, one filter's index (see {@link filteredBranches}).
 */
function connectionTotal(source: Source): string {
  const { label, v } = source;
  const branches = filteredBranches(
    source,
    KEPT,
    (conditions) => `WITH this WHERE ${["this.total IS NULL", ...conditions].join(" AND ")}`,
    [`CALL () { MATCH (${v}:${label}) RETURN count(${v}) AS n }`, "RETURN n"],
    (read, filters) => ["CALL (this) {", ...indent(countFrom(read, filters, v)), "}", "RETURN n"],
  );
  return lines(
    "CALL (this) {",
    ...indent(unionAll([["WITH this WHERE this.total IS NOT NULL", "RETURN this.total AS n"], ...branches])),
    "}",
    "RETURN n",
  );
}

/** A group dimension (contract §7): the value a row is grouped by, its sort key and its field's value. */
interface Dimension {
  /** The enum value naming it in `by`. */
  name: string;
  /** The group field it fills. */
  field: string;
  /** Its value for row `v` (a node for a link), computed only when `by` names it. */
  value: string;
  /** Its sort key, given the grouped value (a link sorts by the linked node's `id`). */
  key?: (value: string) => string;
  /** The field's value, given the grouped value: computed for the groups kept by `limit` only. */
  output?: (value: string) => string;
}

/**
 * A month as a dimension: grouped by the instant's UTC month as the integer `year * 12 + month - 1`
 * (read from the value's own fields when it was written in UTC, else converted; 4× cheaper per row
 * than formatting), sorted by it, and written `YYYY-MM` (a year beyond four digits keeps its sign
 * and digits) for the groups kept.
 */
const monthDimension = (at: string): Dimension => {
  const utc = `datetime({epochSeconds: ${at}.epochSeconds})`;
  const first = (k: string) => `toString(date({year: 0, month: 1}) + duration({months: ${k}}))`;
  return {
    name: "MONTH",
    field: "month",
    value:
      `CASE WHEN ${at} IS NULL THEN null WHEN ${at}.offsetSeconds = 0 THEN ${at}.year * 12 + ${at}.month - 1 ` +
      `ELSE ${utc}.year * 12 + ${utc}.month - 1 END`,
    output: (k) => `CASE WHEN ${k} IS NULL THEN null ELSE left(${first(k)}, size(${first(k)}) - 3) END`,
  };
};

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

/** The aggregates NumberStats is made of, over a property's non-null values, as `name: expression`. */
const statsAggregates = (v: string, property: string): [string, string][] => {
  const x = `${v}.${property}`;
  return ["count", "min", "max", "sum"].map((aggregate) => [
    `${property}_${aggregate}`,
    `${aggregate}(${x})`,
  ]);
};

/** NumberStats from its aggregates (`avg` is `sum / count`): all null but `count` when there are no values. */
const numberStats = (property: string) => {
  const a = (aggregate: string) => `${property}_${aggregate}`;
  return (
    `{count: ${a("count")}, min: toFloat(${a("min")}), max: toFloat(${a("max")}), avg: CASE WHEN ${a("count")} = 0 THEN null ELSE toFloat(${a("sum")}) / ${a("count")} END, ` +
    `sum: CASE WHEN ${a("count")} = 0 THEN null ELSE toFloat(${a("sum")}) END}`
  );
};

/**
 * A group list (contract §7): the rows the filters keep (see {@link filteredBranches}), one group
 * per distinct combination of the `by` dimensions (a dimension not in `by` is null; a missing value
 * is its own group), ordered by `count` descending, then the dimensions in `by` order ascending
 * with nulls last, then cut to `limit`. The request pipeline has checked `by` (1 to 4 distinct).
 * Groups carry bare aggregates until the cut: maps and formatted months are made for the kept ones.
 */
function groups(source: Source, dimensions: Dimension[], stats: string[] = []): string {
  const { label, v } = source;
  const branches = filteredBranches(
    source,
    PARAMETER,
    (conditions) => `WITH $by AS by WHERE ${conditions.length === 0 ? "true" : conditions.join(" AND ")}`,
    [`MATCH (${v}:${label})`, `RETURN ${v}`],
    (read, filters) => [...read.match, where([...read.where, ...filters]), `RETURN ${v}`],
  );
  const fields = dimensions.map((d) => d.field);
  const aggregates = stats.flatMap((property) => statsAggregates(v, property));
  const keyOf = (d: Dimension) => (d.key === undefined ? d.field : d.key(d.field));
  const outputOf = (d: Dimension) => (d.output === undefined ? d.field : d.output(d.field));
  // Ordered before the cut and again as the maps are returned, where the library reads them.
  const order = `ORDER BY count DESC, ${[0, 1, 2, 3].map((i) => `keys[${String(i)}] IS NULL, keys[${String(i)}]`).join(", ")}`;
  return lines(
    "CALL () {",
    ...indent(unionAll(branches)),
    "}",
    `WITH ${v},`,
    ...indent([
      dimensions.map((d) => `CASE WHEN '${d.name}' IN $by THEN ${d.value} END AS ${d.field}`).join(",\n"),
    ]),
    `WITH ${[...fields, `count(${v}) AS count`, ...aggregates.map(([name, aggregate]) => `${aggregate} AS ${name}`)].join(", ")}`,
    `WITH *, [dimension IN $by | CASE dimension ${dimensions
      .map((d) => `WHEN '${d.name}' THEN ${keyOf(d)}`)
      .join(" ")} END] AS keys`,
    order,
    `LIMIT ${LIST_PAGE.size}`,
    `RETURN {${[
      ...dimensions.map((d) => `${d.field}: ${outputOf(d)}`),
      "count: count",
      ...stats.map((property) => `${property}: ${numberStats(property)}`),
    ].join(", ")}} AS g`,
    order,
  );
}

/** A count from one start: `count(v)`, not `DISTINCT`: an index seek and a parent's `WITH DISTINCT` give each node once. */
function countFrom(read: { match: string[]; where: string[] }, filters: string[], v: string): string[] {
  return [...read.match, where([...read.where, ...filters]), `RETURN count(${v}) AS n`];
}

/** An indexed read of `label` rows whose `property` the condition bounds. */
function indexRead(label: string, v: string, property: string, condition: string) {
  return { match: [`MATCH (${v}:${label})`, `USING INDEX ${v}:${label}(${property})`], where: [condition] };
}

/** A parent's rows, for a read of the whole list started from it. */
function parentRead(list: RootList, ref: Ref) {
  const { parent, v, type } = list;
  if (parent === undefined) throw new Error(`${type} has no parent filter`);
  return {
    match: [
      `MATCH (${parent.v}:${parent.label} {id: ${ref(parent.argument)}})${parent.relationship}(${v}:${type})`,
      `USING INDEX ${parent.v}:${parent.label}(id)`,
      `WITH DISTINCT ${v}`,
    ],
    where: [],
  };
}

/**
 * A node kept in a connection's or group's map, read back as a node. `MATCH (v)` on the bound
 * variable (a filter, no read) gives it a node's type again: Neo4j 5.26 answers null for the second
 * read of one property of a value of unknown type (`v { .id, a: v.id }`, a field under two aliases).
 */
function asNode(expression: string, v: string): string {
  return expression.startsWith("UNWIND ")
    ? `${expression} MATCH (${v})`
    : `WITH ${expression} AS ${v} MATCH (${v})`;
}

/** The fields of a connection type: its page as edges and nodes, where it ends, and its count. */
function connectionFields(type: ElementType, total: string): Record<string, string> {
  const v = "n";
  return {
    totalCount: total,
    pageInfo: lines(
      "OPTIONAL CALL (this) {",
      ...indent([asNode(`UNWIND this.rows[-1..] AS ${v}`, v), `RETURN ${cursorOf(v, type)} AS endCursor`]),
      "}",
      "RETURN {hasNextPage: this.hasNextPage, endCursor: endCursor} AS p",
    ),
    edges: `${asNode(`UNWIND this.rows AS ${v}`, v)} RETURN {cursor: ${cursorOf(v, type)}, node: ${v}} AS e`,
    nodes: `${asNode(`UNWIND this.rows AS ${v}`, v)} RETURN ${v}`,
  };
}

function where(conditions: string[]): string {
  return ["WHERE " + (conditions[0] ?? "true"), ...conditions.slice(1).map((c) => `  AND ${c}`)].join("\n");
}

function indent(block: string[]): string[] {
  return block.flatMap((line) => line.split("\n")).map((line) => `  ${line}`);
}

function lines(...block: string[]): string {
  return block.join("\n");
}

const DECISION_FILTERS = [
  equals("d", "status"),
  atLeast("d", "regretScore", "regretScoreMin"),
  atLeast("d", "executionGapDays", "executionGapDaysMin"),
];
const DECISIONS: RootList = {
  type: "Decision",
  v: "d",
  filters: DECISION_FILTERS,
  parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
};
const DECIDED_ON: DayRange = { since: "since", until: "until" };
const FEATURES: RootList = {
  type: "Feature",
  v: "f",
  filters: [equals("f", "stage"), equals("f", "team"), equals("f", "shipped")],
  parent: { argument: "ownerId", label: "Person", v: "p", relationship: "-[:OWNS]->" },
};
const TOPICS: RootList = { type: "Topic", v: "t", filters: [] };
const CUSTOMERS: RootList = { type: "Customer", v: "c", filters: [equals("c", "health")] };
const PEOPLE: RootList = { type: "Person", v: "p", filters: [] };
const DISAGREEMENTS: RootList = {
  type: "Disagreement",
  v: "g",
  filters: [equals("g", "resolved")],
  parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
};

/** A start at the parent's relationships. */
const fromParent = (list: RootList): Start[] =>
  list.parent === undefined
    ? []
    : [{ argument: list.parent.argument, read: (ref) => parentRead(list, ref), exact: true }];
/** A start at a property's index: the rows equal to an argument. */
const fromEqual = (list: RootList, property: string, argument = property): Start => ({
  argument,
  read: (ref) => indexRead(list.type, list.v, property, `${list.v}.${property} = ${ref(argument)}`),
  exact: true,
});
/** A start at a property's index: the rows at or above an argument. */
const fromAtLeast = (list: RootList, property: string, argument: string): Start => ({
  argument,
  read: (ref) => indexRead(list.type, list.v, property, `${list.v}.${property} >= ${ref(argument)}`),
  exact: true,
});

const DECISION_SOURCE: Source = {
  label: "Decision",
  v: "d",
  filters: [...dayRangeFilters("d.decidedAt", DECIDED_ON), ...DECISION_FILTERS],
  starts: [
    ...fromParent(DECISIONS),
    ...["since", "until"].map((argument) => ({
      argument,
      read: (ref: Ref) => ({
        match: ["MATCH (d:Decision)", "USING INDEX d:Decision(decidedAt)"],
        where: dayRangeSeek("d.decidedAt", DECIDED_ON, ref),
      }),
      exact: false,
    })),
    fromEqual(DECISIONS, "status"),
    fromAtLeast(DECISIONS, "regretScore", "regretScoreMin"),
    fromAtLeast(DECISIONS, "executionGapDays", "executionGapDaysMin"),
  ],
};
const FEATURE_SOURCE: Source = {
  label: "Feature",
  v: "f",
  filters: FEATURES.filters,
  starts: [
    ...fromParent(FEATURES),
    fromEqual(FEATURES, "stage"),
    fromEqual(FEATURES, "team"),
    fromEqual(FEATURES, "shipped"),
  ],
};
const CUSTOMER_SOURCE: Source = {
  label: "Customer",
  v: "c",
  filters: CUSTOMERS.filters,
  starts: [fromEqual(CUSTOMERS, "health")],
};
const DISAGREEMENT_SOURCE: Source = {
  label: "Disagreement",
  v: "g",
  filters: DISAGREEMENTS.filters,
  starts: [...fromParent(DISAGREEMENTS), fromEqual(DISAGREEMENTS, "resolved")],
};
const whole = (label: ElementType, v: string): Source => ({ label, v, filters: [], starts: [] });

/** The arguments of the decisions' connection, kept in its map for its count. */
const DECISION_ARGUMENTS = ["since", "until", "topicId", "status", "regretScoreMin", "executionGapDaysMin"];

/** The statements of group lists and of their link fields. */
const GROUP_STATEMENTS: Record<string, string> = {
  "Query.decisionGroups": groups(
    DECISION_SOURCE,
    [
      { name: "STATUS", field: "status", value: "d.status" },
      linkDimension("TOPIC", "topic", "(d)-[:ABOUT]->(t:Topic)", "t"),
      linkDimension("DECIDED_BY", "decidedBy", "(d)-[:DECIDED_BY]->(p:Person)", "p"),
      monthDimension("d.decidedAt"),
    ],
    ["regretScore", "executionGapDays"],
  ),
  "Query.featureGroups": groups(FEATURE_SOURCE, [
    { name: "STAGE", field: "stage", value: "f.stage" },
    { name: "TEAM", field: "team", value: "f.team" },
    { name: "SHIPPED", field: "shipped", value: "f.shipped" },
    linkDimension("OWNER", "owner", "(f)<-[:OWNS]-(p:Person)", "p"),
  ]),
  "Query.customerGroups": groups(CUSTOMER_SOURCE, [{ name: "HEALTH", field: "health", value: "c.health" }]),
  "Query.disagreementGroups": groups(DISAGREEMENT_SOURCE, [
    linkDimension("TOPIC", "topic", "(g)-[:ABOUT]->(t:Topic)", "t"),
    { name: "RESOLVED", field: "resolved", value: "g.resolved" },
    monthDimension("g.raisedAt"),
  ]),
  "DecisionGroup.topic": `${asNode("this.topic", "t")} RETURN t`,
  "DecisionGroup.decidedBy": `${asNode("this.decidedBy", "p")} RETURN p`,
  "DecisionGroup.regretScore": "RETURN this.regretScore AS s",
  "DecisionGroup.executionGapDays": "RETURN this.executionGapDays AS s",
  "FeatureGroup.owner": `${asNode("this.owner", "p")} RETURN p`,
  "DisagreementGroup.topic": `${asNode("this.topic", "t")} RETURN t`,
};

/** Every `@cypher` statement of typeDefs/, by `Type.field`. */
export const STATEMENTS: Readonly<Record<string, string>> = {
  "Query.decisions": newestFirstRootList(DECISIONS, "decidedAt", DECIDED_ON),
  "Query.decision": lookupById("Decision", "d"),
  "Query.features": byNameRootList(FEATURES),
  "Query.topics": byNameRootList(TOPICS),
  "Query.topic": lookupById("Topic", "t"),
  "Query.customers": byNameRootList(CUSTOMERS),
  "Query.people": byNameRootList(PEOPLE),
  "Query.disagreements": newestFirstRootList(DISAGREEMENTS, "raisedAt"),

  "Decision.decidedBy": singleLink("(this)-[:DECIDED_BY]->(p:Person)", "p"),
  "Decision.topic": singleLink("(this)-[:ABOUT]->(t:Topic)", "t"),
  "Person.decisionsMade": nestedList("(this)<-[:DECIDED_BY]-(d:Decision)", "d", ORDERS.Decision),
  "Person.openCommitments": nestedList(
    "(this)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})",
    "c",
    ORDERS.Commitment,
  ),
  "Commitment.owner": singleLink("(this)<-[:COMMITTED_TO]-(p:Person)", "p"),
  "Commitment.decision": singleLink("(this)-[:FOLLOWS_FROM]->(d:Decision)", "d"),
  "Topic.decisions": nestedList("(this)<-[:ABOUT]-(d:Decision)", "d", ORDERS.Decision),
  "Topic.disagreements": nestedList("(this)<-[:ABOUT]-(g:Disagreement)", "g", ORDERS.Disagreement),
  "Feature.owner": singleLink("(this)<-[:OWNS]-(p:Person)", "p"),
  "Feature.requestedBy": nestedList("(this)<-[:REQUESTED]-(c:Customer)", "c", ORDERS.Customer),
  "Customer.requestedFeatures": nestedList("(this)-[:REQUESTED]->(f:Feature)", "f", ORDERS.Feature),
  "Disagreement.topic": singleLink("(this)-[:ABOUT]->(t:Topic)", "t"),
  "Disagreement.participants": nestedList("(this)<-[:PARTICIPATED_IN]-(p:Person)", "p", ORDERS.Person),

  // Connections (contract §7, v1 additions).
  "Query.decisionsConnection": rootConnection(
    DECISION_ARGUMENTS,
    (page) => newestFirstRootList(DECISIONS, "decidedAt", DECIDED_ON, page),
    "d",
  ),
  "Query.featuresConnection": rootConnection(
    ["stage", "team", "ownerId", "shipped"],
    (page) => byNameRootList(FEATURES, page),
    "f",
  ),
  "Query.topicsConnection": rootConnection([], (page) => byNameRootList(TOPICS, page), "t"),
  "Query.customersConnection": rootConnection(["health"], (page) => byNameRootList(CUSTOMERS, page), "c"),
  "Query.peopleConnection": rootConnection([], (page) => byNameRootList(PEOPLE, page), "p"),
  "Query.disagreementsConnection": rootConnection(
    ["topicId", "resolved"],
    (page) => newestFirstRootList(DISAGREEMENTS, "raisedAt", {}, page),
    "g",
  ),
  "Topic.decisionsConnection": nestedConnection("(this)<-[:ABOUT]-(d:Decision)", "d", "Decision"),
  "Topic.disagreementsConnection": nestedConnection("(this)<-[:ABOUT]-(g:Disagreement)", "g", "Disagreement"),
  "Person.decisionsMadeConnection": nestedConnection("(this)<-[:DECIDED_BY]-(d:Decision)", "d", "Decision"),
  "Person.openCommitmentsConnection": nestedConnection(
    "(this)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})",
    "c",
    "Commitment",
  ),
  "Feature.requestedByConnection": nestedConnection("(this)<-[:REQUESTED]-(c:Customer)", "c", "Customer"),
  "Customer.requestedFeaturesConnection": nestedConnection(
    "(this)-[:REQUESTED]->(f:Feature)",
    "f",
    "Feature",
  ),
  "Disagreement.participantsConnection": nestedConnection(
    "(this)<-[:PARTICIPATED_IN]-(p:Person)",
    "p",
    "Person",
  ),

  ...connectionType("Decision", connectionTotal(DECISION_SOURCE)),
  ...connectionType("Feature", connectionTotal(FEATURE_SOURCE)),
  ...connectionType("Topic", connectionTotal(whole("Topic", "t"))),
  ...connectionType("Customer", connectionTotal(CUSTOMER_SOURCE)),
  ...connectionType("Person", connectionTotal(whole("Person", "p"))),
  ...connectionType("Disagreement", connectionTotal(DISAGREEMENT_SOURCE)),
  // A person's open commitments are its only list: its count is always in the map.
  ...connectionType("Commitment", "RETURN this.total AS n"),

  // Groups (contract §7, v1 additions).
  ...GROUP_STATEMENTS,
};

/** The statements of `<Type>Connection` and `<Type>Edge`. */
function connectionType(type: ElementType, total: string): Record<string, string> {
  return {
    ...Object.fromEntries(
      Object.entries(connectionFields(type, total)).map(([field, statement]) => [
        `${type}Connection.${field}`,
        statement,
      ]),
    ),
    [`${type}Edge.node`]: `${asNode("this.node", "n")} RETURN n`,
  };
}
