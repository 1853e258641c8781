import {
  GraphQLError,
  GraphQLFloat,
  getNamedType,
  type FloatValueNode,
  type IntValueNode,
  type ValidationRule,
} from "graphql";

/**
 * Refuses a `Float` literal past the largest finite double (`1e309`, or an integer of 310
 * digits): graphql-js 16 reads it as Infinity and lets it through, while the same value sent as a
 * variable is refused ("Float cannot represent non numeric value"). The GraphQL specification's
 * Float is finite, so a literal is refused as its variable is (contract §3, `validation_failed`).
 */
export const FiniteFloatRule: ValidationRule = (context) => {
  const check = (node: FloatValueNode | IntValueNode) => {
    if (getNamedType(context.getInputType()) !== GraphQLFloat || Number.isFinite(Number(node.value))) return;
    context.reportError(
      new GraphQLError(
        `Float cannot represent ${node.value}: it is past the largest finite Float (about 1.8e308).`,
        { nodes: node },
      ),
    );
  };
  return { FloatValue: check, IntValue: check };
};
