import type { ApolloServerPlugin } from "@apollo/server";
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
} from "graphql";
import type { ErrorCode } from "../errors/catalogue.js";
import { count, LIMITS } from "../contract.js";
import type { OperationPlan, PlannedSelection } from "./operation-plan.js";
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
 * they are spread, `@skip`/`@include` are applied. Each named fragment's cost is computed once per
 * page size and remembered, so the estimate takes time linear in the document; a general
 * estimator (graphql-query-complexity) re-walks a fragment at every spread, which a document of
 * fragments spreading the next one many times turns into hundreds of milliseconds.
 */
export function estimateCost(plan: OperationPlan): number {
  // By a named fragment's selection and the page size of the connection it is spread in.
  const fragmentCosts = new Map<PlannedSelection, Map<number | undefined, number>>();

  const selectionCost = (selection: PlannedSelection, page: number | undefined): number => {
    let cost = 0;
    for (const item of selection.items) {
      if (!item.included) continue;
      if (item.kind === "field") {
        const { field, args, selection: children } = item.field;
        if (field.name.startsWith("__")) continue;
        // A connection's `first` sizes the lists directly under it; nothing deeper.
        const childPage = "first" in args ? sizeOf(args.first) : undefined;
        cost += fieldCost(field, args, children === undefined ? 0 : selectionCost(children, childPage), page);
      } else if (!item.named) {
        cost += selectionCost(item.selection, page);
      } else {
        // Only a fragment on a connection reads the page size: others are costed once.
        const fragmentPage = item.type !== undefined && isConnectionType(item.type) ? page : undefined;
        const costs = fragmentCosts.get(item.selection) ?? new Map<number | undefined, number>();
        fragmentCosts.set(item.selection, costs);
        const known = costs.get(fragmentPage);
        if (known !== undefined) {
          cost += known;
          continue;
        }
        costs.set(fragmentPage, 0); // a cycle (refused by validation anyway) counts once
        const fragmentCost = selectionCost(item.selection, fragmentPage);
        costs.set(fragmentPage, fragmentCost);
        cost += fragmentCost;
      }
    }
    return cost;
  };
  return selectionCost(plan.root, undefined);
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
export const checkCost: PreExecutionStage<CostContext> = ({ plan, contextValue }) => {
  // Variables that do not coerce: execution reports them as validation_failed.
  if (plan === undefined) return;
  const cost = estimateCost(plan);
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
