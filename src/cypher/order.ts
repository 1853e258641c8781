import type { ListOrder } from "./cursor.js";

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
