/**
 * Fields that reach what the product's schema never does on its own: a slow and a failing query,
 * and a value graphql-js cannot serialise outside the stored-value checks (a bug's field error).
 */
export const TROUBLE_TYPEDEFS = `
  extend type Query {
    slow(ms: Int!): Int @cypher(statement: "CALL apoc.util.sleep($ms) RETURN $ms AS slept", columnName: "slept")
    broken: Int @cypher(statement: "MATCH (t:Topic) RETURN 1 / (count(t) - count(t)) AS quotient", columnName: "quotient")
    misfit: DecisionStatus @cypher(statement: "RETURN 'NOT_A_STATUS' AS status", columnName: "status")
  }
`;
