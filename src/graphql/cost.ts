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
const sizeOf = (value: unknown, fallback: number = LIMITS.listLimit.default): number =>
  typeof value === "number" ? value : fallback;

/** The sizes of the lists directly below a field, by field name, when its arguments set them. */
type ListSizes = Readonly<Record<string, number>>;

/**
 * What a field's arguments size below it: a connection's `first` its `edges` and `nodes`; a
 * neighborhood's `limit` its `nodes` and four times that its `links`; `pathsTo`'s `maxLength` a
 * path's `nodes` (one more) and `links` (contract §5, §7 part 4).
 */
function childSizes(
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
): ListSizes | undefined {
  if ("first" in args) return { edges: sizeOf(args.first), nodes: sizeOf(args.first) };
  const { neighborhood, pathsTo, linksPerNode } = LIMITS.graph;
  if (field.name === "neighborhood") {
    const limit = sizeOf(args.limit, neighborhood.limit.default);
    return { nodes: limit, links: linksPerNode * limit };
  }
  if (field.name === "pathsTo") {
    const maxLength = sizeOf(args.maxLength, pathsTo.maxLength.default);
    return { nodes: maxLength + 1, links: maxLength };
  }
  return undefined;
}

/** The default of a list field's absent or null `limit`: part 4's `pathsTo` has its own. */
const defaultLimit = (field: GraphQLField<unknown, unknown>): number =>
  field.name === "pathsTo" ? LIMITS.graph.pathsTo.limit.default : LIMITS.listLimit.default;

/**
 * Contract §5's cost of one field, given its arguments and the cost of its selection: a scalar
 * costs 0, an object field `1 + cost(children)`, a list field `size × (1 + cost(children))` with
 * `size` its `limit` argument's value (variables and defaults applied; an explicit null is the
 * default) or what its parent field's arguments set (`sizes`: a connection's `edges` and `nodes`,
 * a neighborhood's and a path's `nodes` and `links`). Introspection (`__schema`, `__type`,
 * `__typename`) is free.
 */
function fieldCost(
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  childCost: number,
  sizes: ListSizes | undefined,
): number {
  if (field.name.startsWith("__")) return 0;
  const type = getNullableType(field.type);
  if (isListType(type)) {
    const size =
      "limit" in args
        ? sizeOf(args.limit, defaultLimit(field))
        : (sizes?.[field.name] ?? LIMITS.listLimit.default);
    return size * (1 + childCost);
  }
  return isCompositeType(getNamedType(type)) ? 1 + childCost : 0;
}

/**
 * The estimated cost of the operation that runs: sibling fields add up, fragments count where
 * they are spread, `@skip`/`@include` are applied. Each named fragment's cost is computed once per
 * set of list sizes and remembered, so the estimate takes time linear in the document; a general
 * estimator (graphql-query-complexity) re-walks a fragment at every spread, which a document of
 * fragments spreading the next one many times turns into hundreds of milliseconds.
 */
export function estimateCost(plan: OperationPlan): number {
  // By a named fragment's selection and the list sizes of the field it is spread under.
  const fragmentCosts = new Map<PlannedSelection, Map<string, number>>();

  const selectionCost = (selection: PlannedSelection, sizes: ListSizes | undefined): number => {
    let cost = 0;
    for (const item of selection.items) {
      if (!item.included) continue;
      if (item.kind === "field") {
        const { field, args, selection: children } = item.field;
        if (field.name.startsWith("__")) continue;
        // A field's arguments size the lists directly under it; nothing deeper.
        const below = childSizes(field, args);
        cost += fieldCost(field, args, children === undefined ? 0 : selectionCost(children, below), sizes);
      } else if (!item.named) {
        cost += selectionCost(item.selection, sizes);
      } else {
        // Only a fragment on a type sized by its parent reads the sizes: others are costed once.
        const fragmentSizes = item.type !== undefined && isSizedByParent(item.type) ? sizes : undefined;
        const key = fragmentSizes === undefined ? "" : JSON.stringify(fragmentSizes);
        const costs = fragmentCosts.get(item.selection) ?? new Map<string, number>();
        fragmentCosts.set(item.selection, costs);
        const known = costs.get(key);
        if (known !== undefined) {
          cost += known;
          continue;
        }
        costs.set(key, 0); // a cycle (refused by validation anyway) counts once
        const fragmentCost = selectionCost(item.selection, fragmentSizes);
        costs.set(key, fragmentCost);
        cost += fragmentCost;
      }
    }
    return cost;
  };
  return selectionCost(plan.root, undefined);
}

/** A type whose lists are sized by the field that returns it: a connection, a neighborhood, a path. */
function isSizedByParent(type: GraphQLNamedType): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return ("edges" in fields && "pageInfo" in fields) || type.name === "Neighborhood" || type.name === "Path";
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
