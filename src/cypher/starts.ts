// Where a read of a root list's rows starts when it needs them all (a count, groups): one parent
// node's relationships, one filter's range index, or the whole label. Only the request's own
// arguments decide, when its statement is built: the Cypher holds one read.
import type { ElementList } from "./element-lists.js";
import type { Filter } from "../domain/table.js";
import { conditionsOf, isGiven, seekOf } from "./filters.js";
import { searchStart, type Search } from "./search.js";
import { where, whereAny } from "./text.js";
import type { WhereSeek } from "./where-seeks.js";
import type { FieldRequest } from "./request.js";

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
  search?: Search,
  kept?: string,
  whereStart?: WhereSeek,
  rowsKept?: (filter: Filter) => number | undefined,
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
  if (search?.query !== undefined) {
    return {
      clauses: [searchStart(v, list.search, search.query), ...whereAny(conditions())],
      from: ["search"],
      servableInstants,
    };
  }
  const start = fewestKept(
    filters.filter((filter) => isGiven(filter, given)),
    rowsKept,
  );
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

/** The filter estimated to keep the fewest rows; the first when none is estimated lower. */
function fewestKept(
  filters: readonly Filter[],
  rowsKept: ((filter: Filter) => number | undefined) | undefined,
): Filter | undefined {
  if (filters.length < 2 || rowsKept === undefined) return filters[0];
  let fewest: { filter: Filter; rows: number } | undefined;
  for (const filter of filters) {
    const rows = rowsKept(filter) ?? Infinity;
    if (fewest === undefined || rows < fewest.rows) fewest = { filter, rows };
  }
  return fewest?.filter;
}

/** The request's estimates of the rows each filter of `list` keeps, for {@link readRows}. */
export const rowsKeptBy =
  (list: ElementList, request: FieldRequest) =>
  (filter: Filter): number | undefined =>
    request.estimates?.rowsKept(list.type, filter, request.arguments);
