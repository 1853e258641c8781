// What Neo4j's planner charges for a statement it has never seen, as `npm run bench:cold` reports
// it: the subqueries of each statement (every nested list, link, connection and count the library
// and src/cypher/ write is one), a straight-line fit of the first asking's time over them, and the
// planner's floor on this machine measured with synthetic statements of N sibling subqueries.
import type { Driver } from "neo4j-driver";
import { planningUnits } from "../src/overload/first-askings.js";
import { median } from "./load.js";

/** The subqueries a statement opens (`CALL {`, `COLLECT {`…): its planning units but the query itself. */
export const subqueryCount = (cypher: string): number => planningUnits(cypher) - 1;

/** Least squares `y ≈ intercept + slope · x`, with the share of y's variance it explains (r²). */
export function lineFit(xs: readonly number[], ys: readonly number[]) {
  const n = xs.length;
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / n;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] ?? 0) - mx;
    const dy = (ys[i] ?? 0) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { intercept: my - slope * mx, slope, r2: sxx === 0 || syy === 0 ? 0 : (sxy * sxy) / (sxx * syy) };
}

/** A statement of `count` independent subqueries, each a small indexed page of decisions. */
export function siblingSubqueries(count: number): string {
  const calls = Array.from(
    { length: count },
    (_, i) =>
      `CALL () { MATCH (d${String(i)}:Decision) WHERE d${String(i)}.status = 'DECIDED' ` +
      `WITH d${String(i)} ORDER BY d${String(i)}.id LIMIT 3 RETURN collect(d${String(i)}.id) AS x${String(i)} }`,
  );
  return `${calls.join("\n")}\nRETURN ${Array.from({ length: count }, (_, i) => `x${String(i)}`).join(", ")}`;
}

/**
 * The median time Neo4j takes to plan (`EXPLAIN`, plan caches cleared before each) a statement of
 * N sibling subqueries, for each N of `counts`: the floor under what a new question costs, whatever
 * Cypher expresses it.
 */
export async function plannerFloor(driver: Driver, counts: readonly number[], runs = 5) {
  const floor: { subqueries: number; characters: number; ms: number }[] = [];
  for (const count of counts) {
    const statement = siblingSubqueries(count);
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      await driver.executeQuery("CALL db.clearQueryCaches()");
      const started = performance.now();
      await driver.executeQuery(`EXPLAIN ${statement}`);
      times.push(performance.now() - started);
    }
    floor.push({ subqueries: count, characters: statement.length, ms: median(times) });
  }
  return floor;
}
