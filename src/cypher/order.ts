import type { ListOrder } from "./cursor.js";
import { servableDate, servableInstant, servableText } from "./values.js";

/**
 * `ORDER BY` for a list of `v`. Neo4j orders two `DATETIME`s at one instant by their zones
 * (`+02:00` after `Z` after `-05:00`), so instants are compared as epoch seconds and nanoseconds,
 * which ties them for the `id` tie-break. A row's key is a list (`[0, …]` before `[1]`): rows
 * without a servable value (values.ts) come last, by `id`, and the accessors read only those with one.
 */
export function orderBy(v: string, order: ListOrder): string {
  if (order === "name") return `CASE WHEN ${servableText(`${v}.name`)} THEN ${v}.name END, ${v}.id`;
  if ("newestFirst" in order) {
    const at = `${v}.${order.newestFirst}`;
    return `CASE WHEN ${servableInstant(at)} THEN [0, -${at}.epochSeconds, -${at}.nanosecond] ELSE [1] END, ${v}.id`;
  }
  const on = `${v}.${order.earliestFirst}`;
  return `CASE WHEN ${servableDate(on)} THEN [0, ${on}] ELSE [1] END, ${v}.id`;
}
