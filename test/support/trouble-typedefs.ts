/**
 * Fields that reach what the product's schema never does on its own: a slow and a failing query,
 * and a value graphql-js cannot serialise outside the stored-value checks (a bug's field error).
 */
/**
 * A query that runs for `$ms` milliseconds, without a plugin: it reads the clock row after row of
 * a lazy range until the time is up (one core busy meanwhile), and Neo4j's query timeout ends it
 * like any other.
 */
export const SLEEP_STATEMENT =
  "WITH datetime.realtime() + duration({milliseconds: $ms}) AS until " +
  "UNWIND range(0, 9223372036854775806) AS i WITH until, i WHERE datetime.realtime() >= until " +
  "RETURN $ms AS slept LIMIT 1";

export const TROUBLE_TYPEDEFS = `
  extend type Query {
    slow(ms: Int!): Int @cypher(statement: "${SLEEP_STATEMENT}", columnName: "slept")
    broken: Int @cypher(statement: "MATCH (t:Topic) RETURN 1 / (count(t) - count(t)) AS quotient", columnName: "quotient")
    misfit: DecisionStatus @cypher(statement: "RETURN 'NOT_A_STATUS' AS status", columnName: "status")
  }
`;
