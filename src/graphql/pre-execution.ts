import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from "@apollo/server";
import type { OperationDefinitionNode } from "graphql";
import { planOperation, type OperationPlan } from "./operation-plan.js";

/**
 * What a stage between validation and execution reads: the resolved operation, its request, and
 * the operation walked once. A request whose variables do not coerce reaches no stage.
 */
export type PreExecutionRequest<Context extends object> =
  GraphQLRequestContextDidResolveOperation<Context> & {
    operation: OperationDefinitionNode;
    plan: OperationPlan;
  };

/** Where execution finds the operation walked once (src/graphql/compiled-fields.ts). */
export interface PlanContext {
  plan?: OperationPlan | undefined;
}

/** One check between validation and execution; throws (or rejects) to refuse the request. */
export type PreExecutionStage<Context extends object = object> = (
  request: PreExecutionRequest<Context>,
) => void | Promise<void>;

/**
 * Runs the stages after validation one after the other, in contract §3's order (`limit`, cost,
 * then admission to execution), so a request is refused by the first it fails and no later stage
 * runs for it. Apollo calls its plugins' `didResolveOperation` hooks together; one plugin keeps
 * the order explicit.
 */
export function preExecutionPlugin<Context extends PlanContext>(
  stages: readonly PreExecutionStage<Context>[],
): ApolloServerPlugin<Context> {
  return {
    requestDidStart() {
      return Promise.resolve({
        async didResolveOperation(request) {
          const { operation } = request;
          // Apollo has refused a document without a resolvable operation before this hook.
          if (operation === undefined) return;
          const planned = planOperation(
            request.schema,
            request.document,
            operation,
            request.request.variables,
          );
          // Variables that do not coerce are `validation_failed` (contract §3), a check before
          // `limit`, cost and admission: no later stage runs, and execution reports them.
          if (!("root" in planned)) return;
          // Execution reads it too: the compiler writes each root field's Cypher from it.
          request.contextValue.plan = planned;
          for (const stage of stages) await stage({ ...request, operation, plan: planned });
        },
      });
    },
  };
}
