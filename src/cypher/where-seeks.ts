// Where a `where` lets a root read start (contract §7, v1 additions part 3; issue 34): the
// conditions every kept row meets (its top level and top-level `AND`s, never under `OR` or `NOT`)
// that an index can seek, and the bounds it puts on a list's ordered property. The conditions
// themselves are where.ts's; these are only where the rows are read from.
import { rangeIndexes } from "../domain/indexes.js";
import { DOMAIN, ELEMENT_TYPES, propertyType, type ElementType } from "../domain/table.js";
import type { FieldRequest } from "./request.js";
import { at, COMPARISONS, entriesOf } from "./where.js";
import { constant } from "./values.js";

/** A read of a `where`'s rows from a range index: the property, and the index-seekable bounds on it. */
export interface WhereSeek {
  property: string;
  /** Predicates Neo4j seeks the property's index with: a superset of the rows, the exact condition still applies. */
  bounds: string[];
}

/** The seekable operators, in the order a start prefers them (an exact value first). */
const SEEKABLE = ["eq", "in", "startsWith", "gte", "gt", "lte", "lt"] as const;

/** A seekable condition every kept row meets: its operator's rank in {@link SEEKABLE}, its property and bounds. */
interface SeekCandidate extends WhereSeek {
  rank: number;
  operator: (typeof SEEKABLE)[number];
}

/**
 * The conditions every row `where` keeps meets (at its top level or in a top-level `AND`, never
 * under `OR` or `NOT`) that compare a property `indexed` says is indexed with `eq`, `in`,
 * `startsWith` or a range: each with its bounds, as an index seek reads them. A `DateTime` operand
 * (epoch milliseconds) bounds the stored instants a second wider on each side, since Neo4j orders
 * two `DATETIME`s at one instant by their zones; the exact condition decides.
 */
function seekCandidates(
  type: ElementType,
  v: string,
  where: unknown,
  indexed: (property: string) => boolean,
  parameter: string,
): SeekCandidate[] {
  const row = DOMAIN[type];
  const candidates: SeekCandidate[] = [];
  const visit = (value: unknown, path: string) => {
    for (const [field, held] of entriesOf(value)) {
      const fieldPath = at(path, field);
      if (field === "AND") {
        (Array.isArray(held) ? held : []).forEach((item, index) => {
          visit(item, at(fieldPath, index));
        });
        continue;
      }
      const stored = row.properties[field];
      if (stored === undefined || !indexed(field)) continue;
      const instant = propertyType(stored).name === "DateTime";
      const x = `${v}.${field}`;
      for (const [given] of entriesOf(held)) {
        const operator = given as (typeof SEEKABLE)[number];
        const rank = SEEKABLE.indexOf(operator);
        if (rank === -1 || (instant && (operator === "in" || operator === "startsWith"))) continue;
        const operand = at(fieldPath, operator);
        const around = (millis: string, side: "-" | "+") =>
          `datetime({epochMillis: toInteger(${millis})}) ${side} ${constant("oneSecond")}`;
        const bounds = instant
          ? {
              eq: [`${x} >= ${around(operand, "-")}`, `${x} <= ${around(operand, "+")}`],
              gte: [`${x} >= ${around(operand, "-")}`],
              gt: [`${x} >= ${around(operand, "-")}`],
              lte: [`${x} <= ${around(operand, "+")}`],
              lt: [`${x} <= ${around(operand, "+")}`],
            }[operator as "eq" | "gte" | "gt" | "lte" | "lt"]
          : [`${x} ${COMPARISONS[operator] ?? "="} ${operand}`];
        candidates.push({ rank, operator, property: field, bounds });
      }
    }
  };
  visit(where, parameter);
  return candidates;
}

/**
 * A start for the rows of `type` that `where` keeps: the seekable condition (see
 * {@link seekCandidates}) a start prefers, an exact value first.
 */
export function whereSeek(
  type: ElementType,
  v: string,
  where: unknown,
  indexed: (property: string) => boolean,
  parameter = "$where",
): WhereSeek | undefined {
  const [best] = seekCandidates(type, v, where, indexed, parameter).sort((a, b) => a.rank - b.rank);
  return best === undefined ? undefined : { property: best.property, bounds: best.bounds };
}

/**
 * The bounds `where` puts on `property` for a read of that property's index in order: every
 * `eq`, `startsWith` or range condition every kept row meets (an `in` would make the read seek
 * each value and sort). Any such condition fails a row without a servable value (the
 * missing-value rule), so bounds mean the kept rows all hold one.
 */
export function whereBoundsOn(type: ElementType, v: string, where: unknown, property: string): string[] {
  return seekCandidates(type, v, where, (field) => field === property, "$where").flatMap((candidate) =>
    candidate.operator === "in" ? [] : candidate.bounds,
  );
}

/** Each element type's properties with a range index (cypher/, as the domain table needs them), `id` included. */
const INDEXED: ReadonlyMap<ElementType, ReadonlySet<string>> = new Map(
  ELEMENT_TYPES.map((type) => [
    type,
    new Set(["id", ...rangeIndexes().flatMap((index) => (index.label === type ? [index.property] : []))]),
  ]),
);

/** The bounds a list field's request puts on `property` with its `where` argument (see {@link whereBoundsOn}). */
export const requestedWhereBounds = (type: ElementType, v: string, request: FieldRequest, property: string) =>
  whereBoundsOn(type, v, request.arguments.where, property);

/** The index start a list field's request allows with its `where` argument, if any. */
export const requestedWhereSeek = (
  type: ElementType,
  v: string,
  request: FieldRequest,
): WhereSeek | undefined =>
  whereSeek(type, v, request.arguments.where, (property) => INDEXED.get(type)?.has(property) === true);
