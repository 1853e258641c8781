// Where a read of a root list's rows starts when it needs them all (a count, groups, a page of few
// rows): one parent node's relationships, one filter's range index, or the whole label. The
// request's own arguments decide, with the service's estimates of the rows each filter keeps
// (src/planning/row-estimates.ts), when its statement is built: the Cypher holds one read.
import type { ElementList } from "./element-lists.js";
import type { Filter } from "../domain/table.js";
import { conditionsOf, isGiven, seekOf } from "./filters.js";
import { searchStart, type Search } from "./search.js";
import { where, whereAny } from "./text.js";
import type { WhereSeek } from "./where-seeks.js";
import type { FieldRequest } from "./request.js";

/** What else a read of a list's rows is given besides its filters' arguments. */
export interface ReadOptions {
  /** The search's candidates start the read, unless a parent does. */
  search?: Search | undefined;
  /** A `where`'s condition (where.ts). */
  kept?: string | undefined;
  /** Where a `where` lets a read start when no filter is given (where-seeks.ts). */
  whereStart?: WhereSeek | undefined;
  /** The rows each filter keeps, estimated: the read starts from the fewest ({@link rowsKeptBy}). */
  rowsKept?: ((filter: Filter) => number | undefined) | undefined;
  /** Further conditions on the rows read (a page's cursor). */
  also?: readonly string[];
}

/** A read of the rows a list's filters keep, as clauses that end with row `v` bound and filtered. */
export interface RowsRead {
  clauses: string[];
  /** The argument(s) the read starts from, or none for the whole label. */
  from: string[];
  /**
   * The instants (`v.property`) every row read holds a servable value of (values.ts): those of a
   * given day range, whose condition keeps no other. A value computed from them needs no guard.
   */
  servableInstants: string[];
}

/**
 * The rows of `list` that the given arguments keep: from the parent when it is given (through the
 * `id` constraint's index), else from the search's full-text candidates, else from the index of
 * the given filter estimated to keep the fewest rows (`rowsKept`, src/planning/row-estimates.ts;
 * the first given when none is estimated), else the label. The other given filters are checked on
 * those rows; none is when the start's own read is exact and alone (an index count then costs
 * what a bare `count` does).
 */
export function readRows(
  list: ElementList,
  given: ReadonlySet<string>,
  { search, kept, whereStart, rowsKept, also = [] }: ReadOptions = {},
): RowsRead {
  const { type: label, v, parent, filters } = list;
  const servableInstants = filters.flatMap((filter) =>
    filter.kind === "dayRange" && isGiven(filter, given) ? [`${v}.${filter.property}`] : [],
  );
  /** The given filters' conditions on rows read from `start`'s index (none for an exact read). */
  const conditions = (start?: Filter, exact = false) => [
    ...filters
      .filter((filter) => !(exact && filter === start))
      .flatMap((filter) => conditionsOf(v, filter, given, filter === start)),
    ...(search === undefined ? [] : [search.condition]),
    ...(kept === undefined ? [] : [kept]),
    ...also,
  ];
  if (parent !== undefined && given.has(parent.argument)) {
    return {
      clauses: [
        `MATCH (${parent.v}:${parent.label} {id: $${parent.argument}})${parent.relationship}(${v}:${label})`,
        `USING INDEX ${parent.v}:${parent.label}(id)`,
        // Duplicate relationships count once (§7).
        `WITH DISTINCT ${v}`,
        ...whereAny(conditions()),
      ],
      from: [parent.argument],
      servableInstants,
    };
  }
  if (search?.candidates === true) {
    return {
      clauses: [searchStart(v, list.search), ...whereAny(conditions())],
      from: ["search"],
      servableInstants,
    };
  }
  const start = fewestKept(list, given, rowsKept)?.filter;
  if (start === undefined && whereStart !== undefined)
    return {
      clauses: [
        `MATCH (${v}:${label})`,
        `USING INDEX ${v}:${label}(${whereStart.property})`,
        where([...whereStart.bounds, ...conditions()]),
      ],
      from: ["where"],
      servableInstants,
    };
  if (start === undefined)
    return { clauses: [`MATCH (${v}:${label})`, ...whereAny(conditions())], from: [], servableInstants };
  const seek = seekOf(v, start, given);
  return {
    clauses: [
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${start.property})`,
      where([...seek.bounds, ...conditions(start, seek.exact)]),
    ],
    from: start.kind === "dayRange" ? [start.since, start.until] : [start.argument],
    servableInstants,
  };
}

/**
 * The given filter estimated to keep the fewest rows, with those rows (`Infinity` when not
 * estimated); the first given when none is estimated lower.
 */
function fewestKept(
  list: ElementList,
  given: ReadonlySet<string>,
  rowsKept: ((filter: Filter) => number | undefined) | undefined,
): { filter: Filter; rows: number } | undefined {
  let fewest: { filter: Filter; rows: number } | undefined;
  for (const filter of list.filters) {
    if (!isGiven(filter, given)) continue;
    const rows = rowsKept?.(filter) ?? Infinity;
    if (fewest === undefined || rows < fewest.rows) fewest = { filter, rows };
  }
  return fewest;
}

/**
 * Whether the rows a root list's filters keep are few enough to read them all and sort them, rather
 * than walk the order's index until `size` rows pass. The sorted read reads the `r` rows of the
 * filter keeping the fewest; a walk in order reads about `size × n / k` of the label's `n` rows
 * before `size` pass, where `k` is what the filters keep together (more when their rows are late
 * in the order, all `n` when none passes). So: when `r × k ≤ size × n`, estimated (`k` at most
 * `r`, and `r` when the filters' sample is not read). Without estimates, never.
 */
export function keepsFewRows(
  list: ElementList,
  request: FieldRequest,
  given: ReadonlySet<string>,
  size: number,
): boolean {
  const labelled = request.estimates?.labelRows(list.type);
  if (labelled === undefined) return false;
  const fewest = fewestKept(list, given, rowsKeptBy(list, request))?.rows ?? Infinity;
  if (fewest * fewest <= size * labelled) return true;
  // Only then is the sample worth a scan: what the filters keep together is at most `fewest`.
  const filters = list.filters.filter((filter) => isGiven(filter, given));
  const together = request.estimates?.rowsKeptTogether(list.type, filters, request.arguments) ?? fewest;
  return fewest * together <= size * labelled;
}

/** The request's estimates of the rows each filter of `list` keeps, for {@link readRows}. */
export const rowsKeptBy =
  (list: ElementList, request: FieldRequest) =>
  (filter: Filter): number | undefined =>
    request.estimates?.rowsKept(list.type, filter, request.arguments);
