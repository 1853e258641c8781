import { GraphQLError, getNamedType } from "graphql";
import type { ErrorCode } from "../errors/catalogue.js";
import { LIMITS } from "../contract.js";
import { decodeCursor } from "../cypher/cursor.js";
import { listOrder } from "../cypher/order.js";
import { ELEMENT_TYPES, type ElementType } from "../domain/table.js";
import type { OperationPlan } from "./operation-plan.js";
import { whereBoundProblem } from "./where-bounds.js";
import type { PreExecutionStage } from "./pre-execution.js";

/**
 * A list's `limit` and a connection's `first` (both 1..100), a connection's `after`, a group list's
 * `by`, `search`, `where`; part 4's integers (their own ranges) and its lists of types.
 */
const CHECKED = new Set([
  "limit",
  "first",
  "after",
  "by",
  "search",
  "where",
  "depth",
  "maxLength",
  "linkTypes",
  "nodeTypes",
]);

/** An integer argument's range: part 4's own on its fields (§7), else §5's 1..100. */
const rangeOf = (field: string, argument: string): { min: number; max: number } => {
  const graph: Readonly<Record<string, Readonly<Record<string, { min: number; max: number }>>>> = {
    neighborhood: LIMITS.graph.neighborhood,
    pathsTo: LIMITS.graph.pathsTo,
  };
  return graph[field]?.[argument] ?? LIMITS.listLimit;
};
const SEARCH_MAX = LIMITS.searchCharacters;
/** How many dimensions a group list's `by` names (contract §7). */
const BY = { min: 1, max: 4 };

/**
 * The arguments of the operation that the schema's types let through but contract §5 and §7
 * refuse, as literals or through variables (fragments followed where they are spread): a `limit`
 * or a connection's `first` outside 1..100 (an explicit `null` means the default and passes), a
 * part 4 `depth`, `limit` or `maxLength` outside its range or an empty list of its types, an
 * `after` that is not a cursor of the connection's element type and order, a `search` that is
 * empty, blank or over 200 characters, and a group list's `by` naming
 * no dimension, more than four, or one twice. Every field of the document is checked once, those
 * a `@skip` leaves out too.
 */
export function findArgumentViolations(plan: OperationPlan): GraphQLError[] {
  const violations: GraphQLError[] = [];
  for (const { node, parent, field, args: values } of plan.fields) {
    const refuse = (argument: string, problem: string) => {
      violations.push(
        new GraphQLError(`Argument "${argument}" on field "${parent.name}.${field.name}" ${problem}.`, {
          nodes: node,
          // The status comes from the catalogue, in contract-errors.ts.
          extensions: { code: "validation_failed" satisfies ErrorCode },
        }),
      );
    };
    for (const { name } of field.args) {
      if (!CHECKED.has(name)) continue;
      const value = values[name];
      if (name === "by") {
        if (!Array.isArray(value)) continue;
        if (value.length < BY.min || value.length > BY.max || new Set(value).size !== value.length)
          refuse(name, `must name ${BY.min} to ${BY.max} distinct dimensions; got [${value.join(", ")}]`);
      } else if (name === "search") {
        if (typeof value !== "string") continue;
        const length = Array.from(value).length;
        if (value.trim() === "") refuse(name, "must not be empty or blank");
        else if (length > SEARCH_MAX) refuse(name, `must be at most ${SEARCH_MAX} characters; got ${length}`);
      } else if (name === "where") {
        const type = getNamedType(field.args.find((arg) => arg.name === "where")?.type);
        const element = type?.name.replace(/Where$/, "") as ElementType | undefined;
        if (
          value === null ||
          value === undefined ||
          element === undefined ||
          !ELEMENT_TYPES.includes(element)
        )
          continue;
        const problem = whereBoundProblem(element, value);
        if (problem !== undefined) refuse(name, problem);
      } else if (name === "after") {
        const type = getNamedType(field.type).name.replace(/Connection$/, "") as ElementType;
        if (typeof value !== "string" || !ELEMENT_TYPES.includes(type)) continue;
        // A cursor names a position in the order it was written in (contract §7).
        const position = decodeCursor(value, listOrder(type, values.orderBy));
        if (typeof position === "string") refuse(name, position);
      } else if (name === "linkTypes" || name === "nodeTypes") {
        if (Array.isArray(value) && value.length === 0)
          refuse(name, "must name at least one type (absent or null means every type)");
      } else if (typeof value === "number") {
        const { min, max } = rangeOf(field.name, name);
        if (value < min || value > max)
          refuse(name, `must be an integer from ${min} to ${max}; got ${value}`);
      }
    }
  }
  return violations;
}

/**
 * The argument stage: refuses a request whose `limit` or `first` is outside 1..100, whose `after`
 * is not a cursor of its list, or whose `by` is not 1 to 4 distinct dimensions, before any Cypher runs (the library would otherwise drop
 * its LIMIT for 0 and pass a negative one to Cypher; APOC would fail on a damaged cursor). Apollo
 * answers with the one error thrown: the first violation.
 */
export const checkArguments: PreExecutionStage = ({ plan }) => {
  const [first] = findArgumentViolations(plan);
  if (first !== undefined) throw first;
};
