import type { ApolloServerPlugin } from "@apollo/server";
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type SelectionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import type { ErrorCode } from "../errors/catalogue.js";
import { count, LIMITS } from "../contract.js";
import { fragmentsByName } from "./fragments.js";
import type { PreExecutionStage } from "./pre-execution.js";

const MAX_COST = LIMITS.cost;

/** A list's size: an argument's value, or the default for an absent or null one. */
const sizeOf = (value: unknown): number => (typeof value === "number" ? value : LIMITS.listLimit.default);

/**
 * Contract §5's cost of one field, given its arguments and the cost of its selection: a scalar
 * costs 0, an object field `1 + cost(children)`, a list field `size × (1 + cost(children))` with
 * `size` its `limit` argument's value (variables and defaults applied; an explicit null is the
 * default) or, for a connection's `edges` and `nodes`, the connection's `first` (`page`). A
 * connection itself is an object field. Introspection (`__schema`, `__type`, `__typename`) is free.
 */
function fieldCost(
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  childCost: number,
  page: number | undefined,
): number {
  if (field.name.startsWith("__")) return 0;
  const type = getNullableType(field.type);
  if (isListType(type)) {
    const size = "limit" in args ? sizeOf(args.limit) : (page ?? LIMITS.listLimit.default);
    return size * (1 + childCost);
  }
  return isCompositeType(getNamedType(type)) ? 1 + childCost : 0;
}

/**
 * The estimated cost of the operation that runs: sibling fields add up, fragments count where
 * they are spread, `@skip`/`@include` are applied with the variables. Each fragment's cost is
 * computed once and remembered, so the estimate takes time linear in the document; a general
 * estimator (graphql-query-complexity) re-walks a fragment at every spread, which a document of
 * fragments spreading the next one many times turns into hundreds of milliseconds. Throws a
 * GraphQLError for variables that do not coerce (execution reports them as validation_failed).
 * The document has passed validation: fragments are known and acyclic, fields exist.
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): number {
  const operation = getOperationAST(document, operationName) ?? undefined;
  const root = operation === undefined ? undefined : (schema.getRootType(operation.operation) ?? undefined);
  if (operation === undefined || root === undefined) return 0;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors !== undefined) throw coerced.errors[0] ?? new GraphQLError("Invalid variables.");
  const values = coerced.coerced;

  const fragments = fragmentsByName(document);
  // By fragment and the page size of the connection it is spread in.
  const fragmentCosts = new Map<string, number>();
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, values)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;

  const selectionCost = (
    selectionSet: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    page: number | undefined,
  ): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith("__")) continue;
        const field =
          isObjectType(parent) || isInterfaceType(parent)
            ? parent.getFields()[selection.name.value]
            : undefined;
        if (field === undefined) continue;
        const args = getArgumentValues(field, selection, values);
        // A connection's `first` sizes the lists directly under it; nothing deeper.
        const childPage = "first" in args ? sizeOf(args.first) : undefined;
        const children =
          selection.selectionSet === undefined
            ? 0
            : selectionCost(selection.selectionSet, getNamedType(field.type), childPage);
        cost += fieldCost(field, args, children, page);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type =
          selection.typeCondition === undefined ? parent : schema.getType(selection.typeCondition.name.value);
        cost += selectionCost(selection.selectionSet, type, page);
      } else {
        cost += spreadCost(selection.name.value, page);
      }
    }
    return cost;
  };
  const spreadCost = (name: string, outerPage: number | undefined): number => {
    const fragment = fragments.get(name);
    if (fragment === undefined) return 0;
    const type = schema.getType(fragment.typeCondition.name.value) ?? undefined;
    // Only a fragment on a connection reads the page size: others are costed once.
    const page = type !== undefined && isConnectionType(type) ? outerPage : undefined;
    const key = `${name} ${String(page)}`;
    const known = fragmentCosts.get(key);
    if (known !== undefined) return known;
    fragmentCosts.set(key, 0); // a cycle (refused by validation anyway) counts once
    const cost = selectionCost(fragment.selectionSet, type, page);
    fragmentCosts.set(key, cost);
    return cost;
  };
  return selectionCost(operation.selectionSet, root, undefined);
}

/** A type whose `edges` and `nodes` are sized by the `first` of the field that returns it. */
function isConnectionType(type: GraphQLNamedType): boolean {
  return isObjectType(type) && "edges" in type.getFields() && "pageInfo" in type.getFields();
}

/** Where the cost plugin leaves its estimate for the response. */
export interface CostContext {
  cost?: number;
}

/**
 * The cost stage: refuses an operation estimated over {@link MAX_COST} before any Cypher runs
 * (after the `limit` stage: a `limit` out of range is `validation_failed`, which comes first), and
 * leaves the estimate for {@link costExtensionPlugin}.
 */
export const checkCost: PreExecutionStage<CostContext> = ({
  schema,
  document,
  operation,
  request,
  contextValue,
}) => {
  let cost: number;
  try {
    cost = estimateCost(schema, document, operation.name?.value, request.variables);
  } catch (error) {
    // Variables that do not coerce: execution reports them as validation_failed.
    if (error instanceof GraphQLError) return;
    throw error;
  }
  if (cost > MAX_COST) {
    const estimate = Number.isFinite(cost) ? count(cost) : "far more than that";
    throw new GraphQLError(
      `Query is estimated to cost ${estimate}; the limit is ${count(MAX_COST)}. Lower the limit arguments or select fewer lists.`,
      { extensions: { code: "query_too_expensive" satisfies ErrorCode } },
    );
  }
  contextValue.cost = cost;
};

/** Puts `extensions.cost` on every response that carries data (contract §5). */
export const costExtensionPlugin: ApolloServerPlugin<CostContext> = {
  requestDidStart() {
    return Promise.resolve({
      willSendResponse({ response, contextValue }) {
        if (response.body.kind !== "single" || contextValue.cost === undefined) return Promise.resolve();
        const result = response.body.singleResult;
        if (!("data" in result)) return Promise.resolve();
        result.extensions = { ...result.extensions, cost: { requested: contextValue.cost, limit: MAX_COST } };
        return Promise.resolve();
      },
    });
  },
};
