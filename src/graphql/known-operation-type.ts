import { GraphQLError, type ValidationRule } from "graphql";

/**
 * Rejects a `mutation` or `subscription` at validation: the schema has no such root, and
 * graphql-js 16 only notices at execution ("Schema is not configured to execute mutation
 * operation"), answering 200 with a server error. graphql-js 17 has this rule built in.
 */
export const KnownOperationTypeRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation) === undefined) {
      context.reportError(
        // Apollo marks validation errors GRAPHQL_VALIDATION_FAILED; contract-errors.ts maps that.
        new GraphQLError(`This API is read-only: it has no ${node.operation} operations, only queries.`, {
          nodes: node,
        }),
      );
    }
  },
});
