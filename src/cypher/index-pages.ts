// A root list's page read from the ordered property's range index (contract §7): in the order's
// direction, from a cursor's position when there is one, with the rows without a servable value
// after it by `id`. lists.ts chooses the read; connections page with the same reads.
import { positionId, positionValue } from "./cursor.js";
import type { ElementList } from "./element-lists.js";
import { seekOf } from "./filters.js";
import { lacksServable, orderBy, servableBounds, valueOf, type ListOrder } from "./order.js";
import { constant } from "./values.js";
import { collected, where } from "./text.js";

/** The variable holding a connection's `after` position in its statement. */
export const POSITION = "position";

const SECOND = constant("oneSecond");

/** How many rows a read returns, and whether they come after a cursor's position ({@link POSITION}). */
export interface Page {
  /** `LIMIT`: a list's `limit`, or one more than a connection's `first` (to see whether more follow). */
  size: string;
  /** The same as a number, for choosing how the page is read (starts.ts's `keepsFewRows`). */
  rows: number;
  after: boolean;
}

/** What a root list's page read from an index reads, and the conditions its rows pass. */
export interface PageRead {
  list: ElementList;
  order: ListOrder;
  /** The conditions on rows with a servable key, the cursor's key comparison included. */
  filters: string[];
  /** The conditions on any row (the rows without a key are read with these). */
  conditions: string[];
  /** A `where`'s bounds on the ordered property (where-seeks.ts): when given, only rows with a key pass. */
  bounded: string[];
  page: Page;
}

/**
 * A root list ordered by a text, a number or a date: the label's range index on the property is
 * read in the order's direction over its servable values (from the cursor's value, for a
 * connection's page), the filters are checked as rows come, and the `id` tie-break sorts only
 * rows of one value (a partial top). Rows without a value (none, or one of another type:
 * values.ts) come last by `id`, from the `id` constraint's index, and only when the valued rows
 * did not fill the page, as a list by instants' undated rows do. Each read is sorted, and the
 * second follows the first: the page needs no sort of its own (one sort key less to plan and
 * run), where an instant's page does (its ties read, see {@link instantPage}). A `where`
 * bounding the property (`bounded`, where-seeks.ts) bounds the read too, and keeps no row
 * without a value: none is read.
 *
 * Each read is a `COLLECT {}` expression, not a `CALL {}` with its `WITH` and `collect()`: the
 * same reads plan in 0.92–0.93× the time (see {@link unsortedTail} for how the second is kept
 * from reading when the page is full).
 */
export function valuePage(read: PageRead): string[] {
  const { list, order, filters, conditions, bounded, page } = read;
  const { type: label, v } = list;
  const p = POSITION;
  const value = valueOf(v, order);
  const descending = order.direction === "DESC";
  // From the position's value on, in the order's direction; from a position without a value,
  // the comparison with null seeks nothing: the rows without one follow it.
  const bounds = servableBounds(order, value);
  // Bounds are [lower] (texts), [lower, upper] (dates) or [lower, upper, exact] (numbers: an
  // `Int` whole, a `Float` held by a float): the position replaces the side it starts from.
  const seek = !page.after
    ? bounds
    : descending
      ? [bounds[0] ?? "true", `${value} <= ${positionValue(order, p)}`, ...bounds.slice(2)]
      : [`${value} >= ${positionValue(order, p)}`, ...bounds.slice(1)];
  const valued = collected([
    `MATCH (${v}:${label})`,
    `USING INDEX ${v}:${label}(${order.property})`,
    where([...seek, ...bounded, ...filters]),
    `RETURN ${v} ORDER BY ${value}${descending ? " DESC" : ""}, ${v}.id LIMIT ${page.size}`,
  ]);
  const unvalued =
    bounded.length > 0 ? [] : [unsortedTail(list, order, lacksServable(order, value), conditions, page)];
  return [
    `WITH ${page.after ? `${p}, ` : ""}${valued} AS page`,
    // Already in contract order: the valued rows by value and `id`, then the others by `id`.
    `UNWIND ${["page", ...unvalued].join(" + ")} AS ${v}`,
    `RETURN ${v}`,
    `LIMIT ${page.size}`,
  ];
}

/**
 * The rows without a sort key (`condition`) that pass the filters' `conditions`, in `id` order
 * from the `id` constraint's index: a `COLLECT {}` over the rows `page` holds. From a cursor's
 * position, those after its `id` when the position has no key, else all of them: a seek and a
 * test of the `id`, not the cursor's whole "comes after" test again.
 *
 * Read only when the rows with a key did not fill the page: the seek's lower bound is null
 * otherwise, and a range seek from null reads no entry (a `WHERE size(page) < …` beside it would
 * be merged into the scan's filter, and the index read to its end to keep nothing). The seek
 * starts at the empty string: a node whose `id` is not a string is not listed here, as no cursor
 * page ever listed it (graph:check reports it; contract §8 makes every `id` a string).
 */
function unsortedTail(
  list: ElementList,
  order: ListOrder,
  condition: string,
  conditions: string[],
  page: Page,
): string {
  const { type: label, v } = list;
  const p = POSITION;
  const id = positionId(order, p);
  const start = page.after
    ? `CASE WHEN size(page) >= ${page.size} THEN null WHEN ${p}[1] IS NOT NULL THEN '' ELSE ${id} END`
    : `CASE WHEN size(page) < ${page.size} THEN '' END`;
  return collected([
    `MATCH (${v}:${label})`,
    `USING INDEX ${v}:${label}(id)`,
    where([
      `${v}.id >= ${start} AND ${condition}`,
      ...(page.after ? [`CASE WHEN ${p}[1] IS NULL THEN ${v}.id <> ${id} ELSE true END`] : []),
      ...conditions,
    ]),
    `RETURN ${v} ORDER BY ${v}.id LIMIT ${page.size}`,
  ]);
}

/**
 * A root list ordered by an instant (newest first, or oldest first). The label's range index on
 * the property is read in the order's direction, within the servable instants (values.ts), up to
 * one page of rows that pass the filters; rows without a servable instant (none, another type,
 * beyond the years 0000–9999) count as undated, so:
 *
 * - rows at the page's last instant but in another zone (or cut by the LIMIT) may lie just past
 *   it in the index: the second read takes that instant's neighbourhood (±1 s), and only when
 *   the page is full (its seek's bound is null otherwise: see {@link unsortedTail});
 * - undated rows come last, in `id` order: the third read walks the `id` constraint's index, and
 *   only when the dated rows did not fill the page (and no date bound excludes undated rows).
 *
 * The reads together hold the page; the final `ORDER BY` puts it in contract order. A date range
 * on the ordered property bounds the first read (see {@link seekOf}), and so do a `where`'s bounds
 * on it (`bounded`, where-seeks.ts); either keeps only dated rows. A connection's page starts
 * after its cursor's position: the dated read seeks from that instant (a second further,
 * likewise), the undated read from that `id`, and an undated position skips the dated read.
 * Each read is a `COLLECT {}` expression, as a value's page's are ({@link valuePage}).
 */
export function instantPage(read: PageRead, given: ReadonlySet<string>): string[] {
  const { list, order, filters, conditions, bounded, page } = read;
  const { type: label, v } = list;
  const { property } = order;
  const at = valueOf(v, order);
  const p = POSITION;
  const descending = order.direction === "DESC";
  const range = list.filters.find((filter) => filter.kind === "dayRange" && filter.property === property);
  const bounds = range === undefined ? [] : seekOf(v, range, given).bounds;
  const position = `datetime({epochSeconds: toInteger(${p}[1]), nanosecond: ${p}[2]})`;
  const seek = [
    ...(bounds.length === 0 ? servableBounds(order, at) : bounds),
    ...(page.after
      ? [
          descending
            ? `${at} <= CASE WHEN ${p}[1] IS NULL THEN ${constant("earliestInstant")} ELSE ${position} + ${SECOND} END`
            : `${at} >= CASE WHEN ${p}[1] IS NULL THEN ${constant("latestInstant")} ELSE ${position} - ${SECOND} END`,
        ]
      : []),
  ];
  const dated = collected([
    `MATCH (${v}:${label})`,
    `USING INDEX ${v}:${label}(${property})`,
    where([...seek, ...bounded, ...filters]),
    `RETURN ${v} ORDER BY ${at}${descending ? " DESC" : ""} LIMIT ${page.size}`,
  ]);
  const edge = `page[-1].${property}`;
  const ties = collected([
    // A seek, not a scan of the whole index filtered by the bounds: the planner may choose
    // either for `USING INDEX` where the bounds come from a row (`page`), and on a small graph
    // once chose the scan.
    `MATCH (${v}:${label})`,
    `USING INDEX SEEK ${v}:${label}(${property})`,
    where([
      `${at} >= CASE WHEN size(page) = ${page.size} THEN ${edge} END - ${SECOND} AND ${at} <= ${edge} + ${SECOND}`,
      ...filters,
    ]),
    `RETURN ${v}`,
  ]);
  const undated =
    bounds.length + bounded.length > 0
      ? []
      : [unsortedTail(list, order, lacksServable(order, at), conditions, page)];
  return [
    `WITH ${page.after ? `${p}, ` : ""}${dated} AS page`,
    `UNWIND ${["page", ties, ...undated].join(" + ")} AS ${v}`,
    // The ties read finds the page's last rows again.
    `WITH DISTINCT ${v}`,
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${page.size}`,
  ];
}
