// A root list's count (`totalCount`): computed only when the request selects it, from the one
// start its arguments give (see starts.ts). With no argument, Neo4j's count store answers.
import type { ElementList } from "./element-lists.js";
import { givenArguments, requestedSearch } from "./lists.js";
import type { FieldRequest } from "./request.js";
import { readRows, rowsKeptBy } from "./starts.js";
import { requestedWhere } from "./where.js";
import { requestedWhereSeek } from "./where-seeks.js";

/**
 * Clauses returning `total`, the count of the rows the request's filters keep. `count(v)`, not
 * `DISTINCT`: an index seek and a parent's `WITH DISTINCT` give each node once.
 */
export function countRows(list: ElementList, request: FieldRequest): string[] {
  const { clauses } = readRows(list, givenArguments(list, request), {
    search: requestedSearch(list, request),
    kept: requestedWhere(list.type, list.v, request),
    whereStart: requestedWhereSeek(list.type, list.v, request),
    rowsKept: rowsKeptBy(list, request),
  });
  return [...clauses, `RETURN count(${list.v}) AS total`];
}
