import {
  GraphQLError,
  Kind,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { ErrorCode } from "../errors/catalogue.js";
import { LIMITS } from "../contract.js";
import { decodeCursor } from "../cypher/cursor.js";
import { ELEMENT_TYPES, listOrder, type ElementType } from "../cypher/order.js";
import { fragmentsByName } from "./fragments.js";
import type { PreExecutionStage } from "./pre-execution.js";

const { min: LIMIT_MIN, max: LIMIT_MAX } = LIMITS.listLimit;
/** A list's `limit` and a connection's `first` (both 1..100), a connection's `after`, a group list's `by`, `search`. */
const CHECKED = new Set(["limit", "first", "after", "by", "search"]);
const SEARCH_MAX = LIMITS.searchCharacters;
/** How many dimensions a group list's `by` names (contract §7). */
const BY = { min: 1, max: 4 };

/**
 * The arguments of the operation that the schema's types let through but contract §5 and §7
 * refuse, as literals or through variables (fragments followed where they are spread): a `limit`
 * or a connection's `first` outside 1..100 (an explicit `null` means the default and passes), an
 * `after` that is not a cursor of the connection's element type and order, a `search` that is
 * empty, blank or over 200 characters, and a group list's `by` naming
 * no dimension, more than four, or one twice. Returns no errors when the variables themselves do
 * not coerce: execution reports those.
 */
export function findArgumentViolations(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown> | undefined,
): GraphQLError[] {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors !== undefined) return [];
  const variables = coerced.coerced;
  const fragments = fragmentsByName(document);
  const root = schema.getRootType(operation.operation);
  const violations: GraphQLError[] = [];
  const visitedFragments = new Set<string>();

  const walk = (selectionSet: SelectionSetNode, parentType: GraphQLNamedType | null | undefined) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment === undefined || visitedFragments.has(name)) continue;
        visitedFragments.add(name);
        walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const typeCondition = selection.typeCondition?.name.value;
        walk(
          selection.selectionSet,
          typeCondition === undefined ? parentType : schema.getType(typeCondition),
        );
      } else if (isObjectType(parentType) || isInterfaceType(parentType)) {
        const field = parentType.getFields()[selection.name.value];
        if (field === undefined) continue;
        const checked = field.args.filter((arg) => CHECKED.has(arg.name));
        if (checked.length > 0) {
          const values = getArgumentValues(field, selection, variables);
          const refuse = (argument: string, problem: string) => {
            violations.push(
              new GraphQLError(
                `Argument "${argument}" on field "${parentType.name}.${field.name}" ${problem}.`,
                {
                  nodes: selection,
                  // The status comes from the catalogue, in contract-errors.ts.
                  extensions: { code: "validation_failed" satisfies ErrorCode },
                },
              ),
            );
          };
          for (const { name } of checked) {
            const value = values[name];
            if (name === "by") {
              if (!Array.isArray(value)) continue;
              if (value.length < BY.min || value.length > BY.max || new Set(value).size !== value.length)
                refuse(
                  name,
                  `must name ${BY.min} to ${BY.max} distinct dimensions; got [${value.join(", ")}]`,
                );
            } else if (name === "search") {
              if (typeof value !== "string") continue;
              const length = Array.from(value).length;
              if (value.trim() === "") refuse(name, "must not be empty or blank");
              else if (length > SEARCH_MAX)
                refuse(name, `must be at most ${SEARCH_MAX} characters; got ${length}`);
            } else if (name === "after") {
              const type = getNamedType(field.type).name.replace(/Connection$/, "") as ElementType;
              if (typeof value !== "string" || !ELEMENT_TYPES.includes(type)) continue;
              // A cursor names a position in the order it was written in (contract §7).
              const position = decodeCursor(value, listOrder(type, values.orderBy));
              if (typeof position === "string") refuse(name, position);
            } else if (typeof value === "number" && (value < LIMIT_MIN || value > LIMIT_MAX)) {
              refuse(name, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}; got ${value}`);
            }
          }
        }
        if (selection.selectionSet !== undefined) walk(selection.selectionSet, getNamedType(field.type));
      }
    }
  };
  walk(operation.selectionSet, root);
  return violations;
}

/**
 * The argument stage: refuses a request whose `limit` or `first` is outside 1..100, whose `after`
 * is not a cursor of its list, or whose `by` is not 1 to 4 distinct dimensions, before any Cypher runs (the library would otherwise drop
 * its LIMIT for 0 and pass a negative one to Cypher; APOC would fail on a damaged cursor). Apollo
 * answers with the one error thrown: the first violation.
 */
export const checkArguments: PreExecutionStage = ({ schema, document, operation, request }) => {
  const [first] = findArgumentViolations(schema, document, operation, request.variables);
  if (first !== undefined) throw first;
};
