// Where a read of a root list's rows starts when it needs them all (a count, groups): one parent
// node's relationships, one filter's range index, or the whole label. Only the request's own
// arguments decide, when its statement is built: the Cypher holds one read.
import type { ElementList } from "./element-lists.js";
import type { Filter } from "../domain/table.js";
import { conditionsOf, isGiven, seekOf } from "./filters.js";
import { searchStart, type Search } from "./search.js";
import { where, whereAny } from "./text.js";
import type { WhereSeek } from "./where-seeks.js";

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
 * `id` constraint's index), else from the search's full-text candidates, else from the first
 * given filter's index, else the label. The other given filters are checked on those rows; none
 * is when the start's own read is exact and alone (an index count then costs what a bare `count`
 * does).
 */
export function readRows(
  list: ElementList,
  given: ReadonlySet<string>,
  search?: Search,
  kept?: string,
  whereStart?: WhereSeek,
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
  const start = filters.find((filter) => isGiven(filter, given));
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
