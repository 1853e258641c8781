import neo4j from "neo4j-driver";

/** One question every contender answers, with the same JSON. */
export interface Question {
  name: string;
  /** The product's (and naive's) GraphQL. */
  graphql: { query: string; variables: Record<string, unknown> };
  /** Hand-written Cypher for raw-driver and http-driver: one row, column `data`. */
  cypher: string;
}

/** Values the questions ask about, read from the loaded graph. */
export interface BenchSubjects {
  topicId: string;
  since: string;
}

const FIRST_DECIDER = `CALL (d) { OPTIONAL MATCH (d)-[:DECIDED_BY]->(p:Person) RETURN p ORDER BY p.id LIMIT 1 }`;

export function questions({ topicId, since }: BenchSubjects): Question[] {
  return [
    {
      name: "dashboard",
      graphql: {
        query: `query ($topicId: ID!) { topic(id: $topicId) { name decisions(limit: 20) {
          id title decidedAt decidedBy { name email } topic { name } } } }`,
        variables: { topicId },
      },
      cypher: `
        MATCH (t:Topic {id: $topicId})
        CALL (t) {
          MATCH (t)<-[:ABOUT]-(d:Decision)
          WITH DISTINCT d ORDER BY d.decidedAtSortKey DESC, d.id LIMIT 20
          ${FIRST_DECIDER}
          CALL (d) { OPTIONAL MATCH (d)-[:ABOUT]->(x:Topic) RETURN x ORDER BY x.id LIMIT 1 }
          RETURN collect(d {.id, .title, .decidedAt, decidedBy: p {.name, .email}, topic: x {.name}}) AS decisions
        }
        RETURN {topic: t {.name, decisions: decisions}} AS data`,
    },
    {
      name: "decisions-since",
      graphql: {
        query: `query ($since: Date) { decisions(since: $since, limit: 100) { id title decidedBy { name } } }`,
        variables: { since },
      },
      cypher: `
        MATCH (d:Decision) WHERE d.decidedAtSortKey >= datetime({date: date($since), timezone: 'Z'})
        WITH d ORDER BY d.decidedAtSortKey DESC, d.id LIMIT 100
        ${FIRST_DECIDER}
        RETURN {decisions: collect(d {.id, .title, decidedBy: p {.name}})} AS data`,
    },
    {
      name: "decisions-status",
      graphql: {
        query: `{ decisions(status: REVERSED, limit: 20) { id title status } }`,
        variables: {},
      },
      cypher: `
        MATCH (d:Decision) WHERE d.decidedAtSortKey IS NOT NULL AND d.status = 'REVERSED'
        WITH d ORDER BY d.decidedAtSortKey DESC, d.id LIMIT 20
        RETURN {decisions: collect(d {.id, .title, .status})} AS data`,
    },
  ];
}

/** Neo4j values as the GraphQL contract writes them (DateTime in UTC with milliseconds). */
export function toJson(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (neo4j.isInt(value)) return value.toNumber();
  if (neo4j.isDateTime(value)) return value.toStandardDate().toISOString();
  if (neo4j.isDate(value)) return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toJson(inner)]));
}

/** JSON with sorted keys: equal for equal data whatever the key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
