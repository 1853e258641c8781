/** Fields that reach what the product's schema never does on its own: a slow and a failing query. */
export const TROUBLE_TYPEDEFS = `
  extend type Query {
    slow(ms: Int!): Int @cypher(statement: "CALL apoc.util.sleep($ms) RETURN $ms AS slept", columnName: "slept")
    broken: Int @cypher(statement: "MATCH (t:Topic) RETURN 1 / (count(t) - count(t)) AS quotient", columnName: "quotient")
  }
`;
