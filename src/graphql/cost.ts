import type { ApolloServerPlugin } from "@apollo/server";
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  type DocumentNode,
  type GraphQLSchema,
} from "graphql";
import { getComplexity, type ComplexityEstimator } from "graphql-query-complexity";
import type { ErrorCode } from "../errors/catalogue.js";
import { LIMIT_DEFAULT } from "./limit-argument.js";

/** Contract §5: the most a query may be estimated to cost. */
export const MAX_COST = 50_000;

/**
 * Contract §5's estimate of the nodes a query can return: a scalar costs 0, an object field
 * `1 + cost(children)`, a list field `limit × (1 + cost(children))` with `limit` its argument
 * value (variables and defaults applied; an explicit null is the default). Introspection is free.
 */
export const nodeEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (field.name.startsWith("__")) return 0;
  const type = getNullableType(field.type);
  if (isListType(type)) {
    const limit: unknown = args.limit;
    return (typeof limit === "number" ? limit : LIMIT_DEFAULT) * (1 + childComplexity);
  }
  return isCompositeType(getNamedType(type)) ? 1 + childComplexity : 0;
};

/** The estimated cost of the operation that runs. */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): number {
  return getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [nodeEstimator],
    // The depth and width limits already bound a document; this only stops a runaway estimate.
    maxQueryNodes: 100_000,
  });
}

/** graphql-query-complexity's error when a document expands past `maxQueryNodes`. */
const TOO_MANY_NODES = "Query exceeds the maximum allowed number of nodes.";

/** Where the cost plugin leaves its estimate for the response. */
export interface CostContext {
  cost?: number;
}

/**
 * Refuses an operation estimated over {@link MAX_COST} before any Cypher runs (after the `limit`
 * check: a `limit` out of range is `validation_failed`, which comes first), and puts
 * `extensions.cost` on every response that carries data.
 */
export const costPlugin: ApolloServerPlugin<CostContext> = {
  requestDidStart() {
    return Promise.resolve({
      didResolveOperation({ schema, document, operation, request, contextValue }) {
        let cost: number;
        try {
          cost = estimateCost(schema, document, operation?.name?.value, request.variables);
        } catch (error) {
          // Variables that do not coerce: execution reports them as validation_failed.
          if (!(error instanceof GraphQLError) || error.message !== TOO_MANY_NODES) return Promise.resolve();
          cost = Number.POSITIVE_INFINITY;
        }
        if (cost > MAX_COST) {
          const estimate = Number.isFinite(cost) ? cost.toLocaleString("en-US") : "far more than that";
          throw new GraphQLError(
            `Query is estimated to cost ${estimate}; the limit is ${MAX_COST.toLocaleString("en-US")}. Lower the limit arguments or select fewer lists.`,
            { extensions: { code: "query_too_expensive" satisfies ErrorCode } },
          );
        }
        contextValue.cost = cost;
        return Promise.resolve();
      },
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
