import neo4j from "neo4j-driver";

export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
}

/** One question every contender answers, with the same JSON. */
export interface Question {
  name: string;
  /** What kg-graphql and naive are asked (the contract's schema). */
  graphql: GraphQLRequest;
  /**
   * What stock is asked: the same question in the generated schema's terms (`where`, `sort`,
   * `limit`). Its one-to-one links are lists there (`@relationship` fields), asked for with
   * `limit: 1`; `singular` names those fields, and the comparison takes their first element.
   */
  stock: GraphQLRequest & { singular: string[] };
  /**
   * Hand-written Cypher for raw-driver and http-driver: one row, column `data`. Written as a
   * developer who knows the demo data holds UTC instants only would write it (plain
   * `ORDER BY decidedAt DESC`), which gives the contract's order on that data.
   */
  cypher: string;
}

/** Values the questions ask about, read from the loaded graph. */
export interface BenchSubjects {
  topicId: string;
  /** A date with well over 100 decisions on or after it. */
  since: string;
  /** A person who owns features, and the stage most of them are in. */
  ownerId: string;
  stage: string;
}

const REGRET_SCORE_MIN = 0.9;
const EXECUTION_GAP_DAYS_MIN = 170;

const FIRST_DECIDER = `CALL (d) { OPTIONAL MATCH (d)-[:DECIDED_BY]->(p:Person) RETURN p ORDER BY p.id LIMIT 1 }`;
// Stock's generated `sort` puts nulls first in a descending order. Its root lists are asked for
// dated rows only, which gives the contract's answer wherever a page holds only dated rows (the
// answers are compared before measuring) and lets it read the `decidedAt` index; a person's few
// decisions are sorted on its computed `undated` field first, which a label-wide list could not
// afford.
const DATED = `decidedAt: { gte: "0001-01-01T00:00:00Z" }`;
const NEWEST_FIRST = `sort: [{ decidedAt: DESC }, { id: ASC }]`;
const NEWEST_DATED = `where: { ${DATED} }, ${NEWEST_FIRST}`;
const FIRST_BY_ID = `sort: [{ id: ASC }], limit: 1`;

/** A root `decisions` question with one filter, for every contender. */
function decisionsWith(
  name: string,
  filter: { argument: string; where: string; cypher: string; field: string },
): Question {
  return {
    name,
    graphql: {
      query: `{ decisions(${filter.argument}, limit: 20) { id title ${filter.field} } }`,
      variables: {},
    },
    stock: {
      query: `{ decisions(where: { ${filter.where}, ${DATED} }, ${NEWEST_FIRST}, limit: 20) {
        id title ${filter.field} } }`,
      variables: {},
      singular: [],
    },
    cypher: `
      MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL AND ${filter.cypher}
      WITH d ORDER BY d.decidedAt DESC, d.id LIMIT 20
      RETURN {decisions: collect(d {.id, .title, .${filter.field}})} AS data`,
  };
}

export function questions({ topicId, since, ownerId, stage }: BenchSubjects): Question[] {
  return [
    {
      name: "dashboard",
      graphql: {
        query: `query ($topicId: ID!) { topic(id: $topicId) { name decisions(limit: 20) {
          id title decidedAt decidedBy { name email } topic { name } } } }`,
        variables: { topicId },
      },
      stock: {
        query: `query ($topicId: ID!) { topic: topics(where: { id: { eq: $topicId } }) { name
          decisions(${NEWEST_DATED}, limit: 20) {
            id title decidedAt decidedBy(${FIRST_BY_ID}) { name email } topic(${FIRST_BY_ID}) { name } } } }`,
        variables: { topicId },
        singular: ["topic", "decidedBy"],
      },
      cypher: `
        MATCH (t:Topic {id: $topicId})
        CALL (t) {
          MATCH (t)<-[:ABOUT]-(d:Decision)
          WITH DISTINCT d ORDER BY d.decidedAt IS NULL, d.decidedAt DESC, d.id LIMIT 20
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
      stock: {
        query: `query ($since: DateTime) { decisions(where: { decidedAt: { gte: $since } },
          ${NEWEST_FIRST}, limit: 100) { id title decidedBy(${FIRST_BY_ID}) { name } } }`,
        variables: { since: `${since}T00:00:00Z` },
        singular: ["decidedBy"],
      },
      cypher: `
        MATCH (d:Decision) WHERE d.decidedAt >= datetime({date: date($since), timezone: 'Z'})
        WITH d ORDER BY d.decidedAt DESC, d.id LIMIT 100
        ${FIRST_DECIDER}
        RETURN {decisions: collect(d {.id, .title, decidedBy: p {.name}})} AS data`,
    },
    decisionsWith("decisions-status", {
      argument: "status: REVERSED",
      where: "status: { eq: REVERSED }",
      cypher: "d.status = 'REVERSED'",
      field: "status",
    }),
    decisionsWith("decisions-regret", {
      argument: `regretScoreMin: ${REGRET_SCORE_MIN}`,
      where: `regretScore: { gte: ${REGRET_SCORE_MIN} }`,
      cypher: `d.regretScore >= ${REGRET_SCORE_MIN}`,
      field: "regretScore",
    }),
    decisionsWith("decisions-gap", {
      argument: `executionGapDaysMin: ${EXECUTION_GAP_DAYS_MIN}`,
      where: `executionGapDays: { gte: ${EXECUTION_GAP_DAYS_MIN} }`,
      cypher: `d.executionGapDays >= ${EXECUTION_GAP_DAYS_MIN}`,
      field: "executionGapDays",
    }),
    {
      name: "decisions-topic",
      graphql: {
        query: `query ($topicId: ID) { decisions(topicId: $topicId, limit: 20) { id title decidedAt } }`,
        variables: { topicId },
      },
      stock: {
        query: `query ($topicId: ID!) { decisions(where: { topic: { some: { id: { eq: $topicId } } }, ${DATED} },
          ${NEWEST_FIRST}, limit: 20) { id title decidedAt } }`,
        variables: { topicId },
        singular: [],
      },
      cypher: `
        MATCH (:Topic {id: $topicId})<-[:ABOUT]-(d:Decision)
        WITH DISTINCT d ORDER BY d.decidedAt IS NULL, d.decidedAt DESC, d.id LIMIT 20
        RETURN {decisions: collect(d {.id, .title, .decidedAt})} AS data`,
    },
    {
      name: "features",
      graphql: {
        query: `query ($ownerId: ID, $stage: FeatureStage) { features(ownerId: $ownerId, stage: $stage) {
          id name stage shipped owner { name } } }`,
        variables: { ownerId, stage },
      },
      stock: {
        query: `query ($ownerId: ID!, $stage: FeatureStage!) {
          features(where: { stage: { eq: $stage }, owner: { some: { id: { eq: $ownerId } } } },
            sort: [{ name: ASC }, { id: ASC }], limit: 20) {
            id name stage shipped owner(${FIRST_BY_ID}) { name } } }`,
        variables: { ownerId, stage },
        singular: ["owner"],
      },
      cypher: `
        MATCH (:Person {id: $ownerId})-[:OWNS]->(f:Feature) WHERE f.stage = $stage
        WITH DISTINCT f ORDER BY f.name, f.id LIMIT 20
        CALL (f) { OPTIONAL MATCH (f)<-[:OWNS]-(o:Person) RETURN o ORDER BY o.id LIMIT 1 }
        WITH f, o ORDER BY f.name, f.id
        RETURN {features: collect(f {.id, .name, .stage, .shipped, owner: o {.name}})} AS data`,
    },
    {
      name: "disagreements",
      graphql: {
        query: `query ($topicId: ID) { disagreements(topicId: $topicId, resolved: false) { id summary raisedAt } }`,
        variables: { topicId },
      },
      stock: {
        query: `query ($topicId: ID!) {
          disagreements(where: { resolved: { eq: false }, topic: { some: { id: { eq: $topicId } } },
            raisedAt: { gte: "0001-01-01T00:00:00Z" } }, sort: [{ raisedAt: DESC }, { id: ASC }], limit: 20) {
            id summary raisedAt } }`,
        variables: { topicId },
        singular: [],
      },
      cypher: `
        MATCH (:Topic {id: $topicId})<-[:ABOUT]-(g:Disagreement) WHERE g.resolved = false
        WITH DISTINCT g ORDER BY g.raisedAt IS NULL, g.raisedAt DESC, g.id LIMIT 20
        RETURN {disagreements: collect(g {.id, .summary, .raisedAt})} AS data`,
    },
    {
      name: "people",
      graphql: {
        query: `{ people(limit: 20) { name decisionsMade(limit: 5) { title decidedAt }
          openCommitments(limit: 5) { description dueOn } } }`,
        variables: {},
      },
      stock: {
        query: `{ people(sort: [{ name: ASC }, { id: ASC }], limit: 20) { name
          decisionsMade(sort: [{ undated: ASC }, { decidedAt: DESC }, { id: ASC }], limit: 5) { title decidedAt }
          openCommitments: commitments(where: { status: { eq: OPEN } }, sort: [{ dueOn: ASC }, { id: ASC }],
            limit: 5) { description dueOn } } }`,
        variables: {},
        singular: [],
      },
      cypher: `
        MATCH (p:Person) WHERE p.name IS NOT NULL
        WITH p ORDER BY p.name, p.id LIMIT 20
        CALL (p) {
          OPTIONAL MATCH (p)<-[:DECIDED_BY]-(d:Decision)
          WITH DISTINCT d ORDER BY d.decidedAt IS NULL, d.decidedAt DESC, d.id LIMIT 5
          RETURN collect(d {.title, .decidedAt}) AS made
        }
        CALL (p) {
          OPTIONAL MATCH (p)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})
          WITH DISTINCT c ORDER BY c.dueOn IS NULL, c.dueOn, c.id LIMIT 5
          RETURN collect(c {.description, .dueOn}) AS open
        }
        WITH p, made, open ORDER BY p.name, p.id
        RETURN {people: collect(p {.name, decisionsMade: made, openCommitments: open})} AS data`,
    },
    {
      name: "wide",
      graphql: {
        query: `{ topics(limit: 10) { name } decisions(limit: 10) { id title status }
          features(limit: 10) { name stage } disagreements(limit: 10) { summary resolved }
          customers(health: AT_RISK, limit: 10) { name health } }`,
        variables: {},
      },
      stock: {
        query: `{ topics(sort: [{ name: ASC }, { id: ASC }], limit: 10) { name }
          decisions(${NEWEST_DATED}, limit: 10) { id title status }
          features(sort: [{ name: ASC }, { id: ASC }], limit: 10) { name stage }
          disagreements(where: { raisedAt: { gte: "0001-01-01T00:00:00Z" } }, sort: [{ raisedAt: DESC }, { id: ASC }],
            limit: 10) { summary resolved }
          customers(where: { health: { eq: AT_RISK } }, sort: [{ name: ASC }, { id: ASC }], limit: 10) {
            name health } }`,
        variables: {},
        singular: [],
      },
      cypher: `
        CALL () {
          MATCH (t:Topic) WHERE t.name IS NOT NULL
          WITH t ORDER BY t.name, t.id LIMIT 10 RETURN collect(t {.name}) AS topics
        }
        CALL () {
          MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL
          WITH d ORDER BY d.decidedAt DESC, d.id LIMIT 10 RETURN collect(d {.id, .title, .status}) AS decisions
        }
        CALL () {
          MATCH (f:Feature) WHERE f.name IS NOT NULL
          WITH f ORDER BY f.name, f.id LIMIT 10 RETURN collect(f {.name, .stage}) AS features
        }
        CALL () {
          MATCH (g:Disagreement) WHERE g.raisedAt IS NOT NULL
          WITH g ORDER BY g.raisedAt DESC, g.id LIMIT 10 RETURN collect(g {.summary, .resolved}) AS disagreements
        }
        CALL () {
          MATCH (c:Customer) WHERE c.name IS NOT NULL AND c.health = 'AT_RISK'
          WITH c ORDER BY c.name, c.id LIMIT 10 RETURN collect(c {.name, .health}) AS customers
        }
        RETURN {topics: topics, decisions: decisions, features: features, disagreements: disagreements,
                customers: customers} AS data`,
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

/** Stock's answer in the contract's shape: each `singular` list becomes its first element or null. */
export function unwrapSingular(value: unknown, singular: readonly string[]): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((inner) => unwrapSingular(inner, singular));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const first: unknown = singular.includes(key) && Array.isArray(inner) ? (inner[0] ?? null) : inner;
      return [key, unwrapSingular(first, singular)];
    }),
  );
}

/** JSON with sorted keys: equal for equal data whatever the key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
