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
import { fragmentsByName } from "./fragments.js";
import type { PreExecutionStage } from "./pre-execution.js";

const { min: LIMIT_MIN, max: LIMIT_MAX } = LIMITS.listLimit;

/**
 * The `limit` arguments of the operation that lie outside 1..100, as literals or through variables
 * (fragments followed where they are spread). An explicit `null` means the default and passes.
 * Returns no errors when the variables themselves do not coerce: execution reports those.
 */
export function findLimitViolations(
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
        if (field.args.some((arg) => arg.name === "limit")) {
          const limit = getArgumentValues(field, selection, variables).limit;
          if (typeof limit === "number" && (limit < LIMIT_MIN || limit > LIMIT_MAX)) {
            violations.push(
              new GraphQLError(
                `Argument "limit" on field "${parentType.name}.${field.name}" must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}; got ${limit}.`,
                {
                  nodes: selection,
                  // The status comes from the catalogue, in contract-errors.ts.
                  extensions: { code: "validation_failed" satisfies ErrorCode },
                },
              ),
            );
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
 * The `limit` stage: refuses a request whose `limit` arguments are outside 1..100 before any
 * Cypher runs (the library would otherwise drop its LIMIT for 0 and pass a negative one to
 * Cypher). Apollo answers with the one error thrown: the first violation.
 */
export const checkLimitArguments: PreExecutionStage = ({ schema, document, operation, request }) => {
  const [first] = findLimitViolations(schema, document, operation, request.variables);
  if (first !== undefined) throw first;
};
