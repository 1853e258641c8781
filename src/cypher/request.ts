// What a field's Cypher is built from: the arguments the request gives the field and the fields it
// selects below it, from the operation walked once (src/graphql/operation-plan.ts).
import type { ElementType, Filter } from "../domain/table.js";

/**
 * A field's selection, arguments coerced: below it, the fields of its type by response key
 * (fragments flattened, `@skip`/`@include` applied), as graphql-parse-resolve-info's resolve tree has them.
 */
export interface Selection {
  name: string;
  alias: string;
  args: Record<string, unknown>;
  fieldsByTypeName: Record<string, Record<string, Selection>>;
}

/**
 * Adds `source`'s fields to `target`'s, merging the selections of a response key both hold (a new
 * selection for it; neither one given is changed).
 */
export function mergeSelections(
  target: Record<string, Selection>,
  source: Readonly<Record<string, Selection>>,
): void {
  for (const [responseKey, field] of Object.entries(source)) {
    const known = target[responseKey];
    target[responseKey] =
      known === undefined ? field : { ...known, fieldsByTypeName: mergedByType(known, field) };
  }
}

/** The fields below both selections, by type, merged by response key. */
function mergedByType(a: Selection, b: Selection): Selection["fieldsByTypeName"] {
  const byType = { ...a.fieldsByTypeName };
  for (const [typeName, fields] of Object.entries(b.fieldsByTypeName)) {
    const into = { ...(byType[typeName] ?? {}) };
    mergeSelections(into, fields);
    byType[typeName] = into;
  }
  return byType;
}

/** Both selections of one response key as one: `a` with the fields below each merged. */
export const unionOf = (a: Selection, b: Selection): Selection => ({
  ...a,
  fieldsByTypeName: mergedByType(a, b),
});

/** One field of one request. */
export interface FieldRequest {
  /** Its arguments: variables applied, defaults included; `null` and absent both mean "not given". */
  arguments: Readonly<Record<string, unknown>>;
  /** What the request selects below the field, when the library knows it. */
  selection?: Selection;
  /** A root field's: how many rows each of its list's filters keeps, where the read of them all starts (starts.ts). */
  estimates?: RowEstimator;
}

/**
 * How many rows a root list's filter keeps with a request's arguments, estimated from the graph
 * (src/planning/row-estimates.ts): what a read of all the rows starts from, and whether a page
 * reads them all (starts.ts).
 */
export interface RowEstimator {
  /** Changes whenever an estimate may have: a statement built before is then built again. */
  readonly version: number;
  rowsKept: (
    type: ElementType,
    filter: Filter,
    args: Readonly<Record<string, unknown>>,
  ) => number | undefined;
  /** The rows of the type's label, when known. */
  labelRows: (type: ElementType) => number | undefined;
  /** The rows the `given` filters of the type's list keep together, when known (a correlation included). */
  rowsKeptTogether: (
    type: ElementType,
    given: readonly Filter[],
    args: Readonly<Record<string, unknown>>,
  ) => number | undefined;
}

/** A field's Cypher for one request. */
export type StatementBuilder = (request: FieldRequest) => string;

/** Whether the request gives the argument a value (`null` means the argument's absence, contract §7). */
export function given(request: FieldRequest, argument: string): boolean {
  const value = request.arguments[argument];
  return value !== undefined && value !== null;
}

/** The given arguments among `names`, in that order. */
export function givenOf(request: FieldRequest, names: readonly string[]): string[] {
  return names.filter((name) => given(request, name));
}

/** Whether the request selects `field` of `type` below the field (under any alias). */
export function selects(request: FieldRequest, type: string, field: string): boolean {
  const fields = request.selection?.fieldsByTypeName[type] ?? {};
  return Object.values(fields).some((selection) => selection.name === field);
}

/** The field's request with no argument and no selection (a statement's shape by default). */
export const NOTHING_ASKED: FieldRequest = { arguments: {} };
