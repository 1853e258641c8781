// A root list's page read from the ordered property's range index (contract §7): in the order's
// direction, from a cursor's position when there is one, with the rows without a servable value
// after it by `id`. lists.ts chooses the read; connections page with the same reads.
import { positionId, positionValue } from "./cursor.js";
import type { ElementList } from "./element-lists.js";
import { seekOf } from "./filters.js";
import { isServable, orderBy, servableBounds, valueOf, type ListOrder } from "./order.js";
import { constant } from "./values.js";
import { call, where } from "./text.js";

/** The variable holding a connection's `after` position in its statement. */
export const POSITION = "position";

const SECOND = constant("oneSecond");

/** How many rows a read returns, and whether they come after a cursor's position ({@link POSITION}). */
export interface Page {
  /** `LIMIT`: a list's `limit`, or one more than a connection's `first` (to see whether more follow). */
  size: string;
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
 */
export function valuePage(read: PageRead): string[] {
  const { list, order, filters, conditions, bounded, page } = read;
  const { type: label, v } = list;
  const p = POSITION;
  const value = valueOf(v, order);
  const imports = page.after ? [p] : [];
  const descending = order.direction === "DESC";
  // From the position's value on, in the order's direction; from a position without a value,
  // the comparison with null seeks nothing: the rows without one follow it.
  const bounds = servableBounds(order, value);
  // Bounds are [lower] (texts) or [lower, upper]: the position replaces the side it starts from.
  const seek = !page.after
    ? bounds
    : descending
      ? [...bounds.slice(0, 1), `${value} <= ${positionValue(order, p)}`]
      : [`${value} >= ${positionValue(order, p)}`, ...bounds.slice(1)];
  const unvalued =
    bounded.length > 0
      ? []
      : unsortedTail(list, order, "unvalued", `NOT ${isServable(order, value)}`, conditions, page);
  return [
    ...call(imports, [
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${order.property})`,
      where([...seek, ...bounded, ...filters]),
      `WITH ${v} ORDER BY ${value}${descending ? " DESC" : ""}, ${v}.id LIMIT ${page.size}`,
      `RETURN collect(${v}) AS page`,
    ]),
    ...unvalued,
    // Already in contract order: the valued rows by value and `id`, then the others by `id`.
    `UNWIND page${unvalued.length === 0 ? "" : " + coalesce(unvalued, page[..0])"} AS ${v}`,
    `RETURN ${v}`,
    `LIMIT ${page.size}`,
  ];
}

/**
 * The rows without a sort key (`condition`) that pass the filters' `conditions`, in `id` order
 * from the `id` constraint's index, as `name`: read only when the rows with one did not fill the
 * page. From a cursor's position, those after its `id` when the position has no key, else all of
 * them: a seek and a test of the `id`, not the cursor's whole "comes after" test again.
 */
function unsortedTail(
  list: ElementList,
  order: ListOrder,
  name: string,
  condition: string,
  conditions: string[],
  page: Page,
): string[] {
  const { type: label, v } = list;
  const p = POSITION;
  const imports = page.after ? [p] : [];
  const id = positionId(order, p);
  return call(
    ["page", ...imports],
    [
      `WITH ${["page", ...imports].join(", ")} WHERE size(page) < ${page.size}`,
      ...call(imports, [
        `MATCH (${v}:${label})`,
        `USING INDEX ${v}:${label}(id)`,
        where([
          page.after
            ? `${v}.id >= CASE WHEN ${p}[1] IS NOT NULL THEN '' ELSE ${id} END AND ${condition}`
            : `${v}.id IS NOT NULL AND ${condition}`,
          ...(page.after ? [`(${p}[1] IS NOT NULL OR ${v}.id <> ${id})`] : []),
          ...conditions,
        ]),
        `WITH ${v} ORDER BY ${v}.id LIMIT ${page.size}`,
        `RETURN collect(${v}) AS ${name}`,
      ]),
      `RETURN ${name}`,
    ],
    // OPTIONAL CALL around a guard: planned as Apply over a Filter, so the `id` index is not
    // touched when the page is full (a plain `WITH … WHERE` was merged into the scan's filter).
    true,
  );
}

/**
 * A root list ordered by an instant (newest first, or oldest first). The label's range index on
 * the property is read in the order's direction, within the servable instants (values.ts), up to
 * one page of rows that pass the filters; rows without a servable instant (none, another type,
 * beyond the years 0000–9999) count as undated, so:
 *
 * - rows at the page's last instant but in another zone (or cut by the LIMIT) may lie just past
 *   it in the index: the second read takes that instant's neighbourhood (±1 s);
 * - undated rows come last, in `id` order: the third read walks the `id` constraint's index, and
 *   only when the dated rows did not fill the page (and no date bound excludes undated rows).
 *
 * The reads together hold the page; the final `ORDER BY` puts it in contract order. A date range
 * on the ordered property bounds the first read (see {@link seekOf}), and so do a `where`'s bounds
 * on it (`bounded`, where-seeks.ts); either keeps only dated rows. A connection's page starts
 * after its cursor's position: the dated read seeks from that instant (a second further,
 * likewise), the undated read from that `id`, and an undated position skips the dated read.
 */
export function instantPage(read: PageRead, given: ReadonlySet<string>): string[] {
  const { list, order, filters, conditions, bounded, page } = read;
  const { type: label, v } = list;
  const { property } = order;
  const at = valueOf(v, order);
  const p = POSITION;
  const imports = page.after ? [p] : [];
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
  const byIndex = (index: string) => [`MATCH (${v}:${label})`, `USING INDEX ${v}:${label}(${index})`];
  const undated =
    bounds.length + bounded.length > 0
      ? []
      : unsortedTail(list, order, "undated", `NOT ${isServable(order, at)}`, conditions, page);
  return [
    ...call(imports, [
      ...byIndex(property),
      where([...seek, ...bounded, ...filters]),
      `WITH ${v} ORDER BY ${at}${descending ? " DESC" : ""} LIMIT ${page.size}`,
      `RETURN collect(${v}) AS page`,
    ]),
    ...call(
      ["page", ...imports],
      [
        `WITH page[-1].${property} AS edge WHERE size(page) = ${page.size}`,
        // A seek, not a scan of the whole index filtered by the bounds: the planner may choose
        // either for `USING INDEX` where the bounds come from a row (`edge`), and on a small graph
        // once chose the scan.
        `MATCH (${v}:${label})`,
        `USING INDEX SEEK ${v}:${label}(${property})`,
        where([`${at} >= edge - ${SECOND} AND ${at} <= edge + ${SECOND}`, ...filters]),
        `RETURN collect(${v}) AS ties`,
      ],
    ),
    ...undated,
    // `page[..0]`, not `[]`: an untyped empty list makes the rows of unknown type, and Neo4j 5.26
    // then answers null for the second read of one property (`{ .id, a: this0.id }`: a field
    // selected under two aliases).
    `UNWIND page + ties${undated.length === 0 ? "" : " + coalesce(undated, page[..0])"} AS ${v}`,
    // The ties read finds the page's last rows again.
    `WITH DISTINCT ${v}`,
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${page.size}`,
  ];
}
