// Every `@cypher` field of typeDefs/ and how its statement is built for a request. The schema
// attaches these to the library's annotations (graphql/statement-builders.ts); a field whose
// Cypher does not depend on the request ignores it.
import { connectionTypeStatements, asNode, nestedConnection, rootConnection } from "./connections.js";
import { CUSTOMERS, DECISIONS, DISAGREEMENTS, FEATURES, PEOPLE, TOPICS } from "./domain.js";
import { groups, linkDimension, propertyDimension, timeDimensions, type GroupList } from "./groups.js";
import { lookupById, nestedList, rootList, singleLink } from "./lists.js";
import type { StatementBuilder } from "./request.js";

/**
 * The single-valued links (contract §7): the pattern from the node (`this`) to its targets and the
 * target's variable. With several targets the lowest `id` is served; `npm run graph:check` reports them.
 */
export const SINGLE_LINKS: Readonly<Record<string, readonly [pattern: string, v: string]>> = {
  "Decision.decidedBy": ["(this)-[:DECIDED_BY]->(p:Person)", "p"],
  "Decision.topic": ["(this)-[:ABOUT]->(t:Topic)", "t"],
  "Commitment.owner": ["(this)<-[:COMMITTED_TO]-(p:Person)", "p"],
  "Commitment.decision": ["(this)-[:FOLLOWS_FROM]->(d:Decision)", "d"],
  "Feature.owner": ["(this)<-[:OWNS]-(p:Person)", "p"],
  "Disagreement.topic": ["(this)-[:ABOUT]->(t:Topic)", "t"],
};

const DECISION_GROUPS: GroupList = {
  list: DECISIONS,
  type: "DecisionGroup",
  dimensions: [
    propertyDimension("STATUS", "status", "d", "status"),
    linkDimension("TOPIC", "topic", "(d)-[:ABOUT]->(t:Topic)", "t"),
    linkDimension("DECIDED_BY", "decidedBy", "(d)-[:DECIDED_BY]->(p:Person)", "p"),
    ...timeDimensions("d.decidedAt"),
  ],
  stats: ["regretScore", "executionGapDays"],
};
const FEATURE_GROUPS: GroupList = {
  list: FEATURES,
  type: "FeatureGroup",
  dimensions: [
    propertyDimension("STAGE", "stage", "f", "stage"),
    propertyDimension("TEAM", "team", "f", "team"),
    propertyDimension("SHIPPED", "shipped", "f", "shipped"),
    linkDimension("OWNER", "owner", "(f)<-[:OWNS]-(p:Person)", "p"),
  ],
  stats: [],
};
const CUSTOMER_GROUPS: GroupList = {
  list: CUSTOMERS,
  type: "CustomerGroup",
  dimensions: [propertyDimension("HEALTH", "health", "c", "health")],
  stats: [],
};
const DISAGREEMENT_GROUPS: GroupList = {
  list: DISAGREEMENTS,
  type: "DisagreementGroup",
  dimensions: [
    linkDimension("TOPIC", "topic", "(g)-[:ABOUT]->(t:Topic)", "t"),
    propertyDimension("RESOLVED", "resolved", "g", "resolved"),
    ...timeDimensions("g.raisedAt"),
  ],
  stats: [],
};

/** The same statement for every request. */
const fixed =
  (statement: string): StatementBuilder =>
  () =>
    statement;

/** Fixed statements by `Type.field`, as builders. */
const fixedAll = (statements: Record<string, string>): Record<string, StatementBuilder> =>
  Object.fromEntries(Object.entries(statements).map(([field, statement]) => [field, fixed(statement)]));

/** How each `@cypher` field's statement is built, by `Type.field`. */
export const STATEMENT_BUILDERS: Readonly<Record<string, StatementBuilder>> = {
  "Query.decisions": (request) => rootList(DECISIONS, request),
  "Query.features": (request) => rootList(FEATURES, request),
  "Query.topics": (request) => rootList(TOPICS, request),
  "Query.customers": (request) => rootList(CUSTOMERS, request),
  "Query.people": (request) => rootList(PEOPLE, request),
  "Query.disagreements": (request) => rootList(DISAGREEMENTS, request),

  "Query.decisionsConnection": (request) => rootConnection(DECISIONS, request),
  "Query.featuresConnection": (request) => rootConnection(FEATURES, request),
  "Query.topicsConnection": (request) => rootConnection(TOPICS, request),
  "Query.customersConnection": (request) => rootConnection(CUSTOMERS, request),
  "Query.peopleConnection": (request) => rootConnection(PEOPLE, request),
  "Query.disagreementsConnection": (request) => rootConnection(DISAGREEMENTS, request),

  "Query.decisionGroups": (request) => groups(DECISION_GROUPS, request),
  "Query.featureGroups": (request) => groups(FEATURE_GROUPS, request),
  "Query.customerGroups": (request) => groups(CUSTOMER_GROUPS, request),
  "Query.disagreementGroups": (request) => groups(DISAGREEMENT_GROUPS, request),

  "Topic.decisionsConnection": (request) =>
    nestedConnection("(this)<-[:ABOUT]-(d:Decision)", "d", "Decision", request),
  "Topic.disagreementsConnection": (request) =>
    nestedConnection("(this)<-[:ABOUT]-(g:Disagreement)", "g", "Disagreement", request),
  "Person.decisionsMadeConnection": (request) =>
    nestedConnection("(this)<-[:DECIDED_BY]-(d:Decision)", "d", "Decision", request),
  "Person.openCommitmentsConnection": (request) =>
    nestedConnection("(this)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})", "c", "Commitment", request),
  "Feature.requestedByConnection": (request) =>
    nestedConnection("(this)<-[:REQUESTED]-(c:Customer)", "c", "Customer", request),
  "Customer.requestedFeaturesConnection": (request) =>
    nestedConnection("(this)-[:REQUESTED]->(f:Feature)", "f", "Feature", request),
  "Disagreement.participantsConnection": (request) =>
    nestedConnection("(this)<-[:PARTICIPATED_IN]-(p:Person)", "p", "Person", request),

  "Person.decisionsMade": (request) =>
    nestedList("(this)<-[:DECIDED_BY]-(d:Decision)", "d", "Decision", request),
  "Person.openCommitments": (request) =>
    nestedList("(this)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})", "c", "Commitment", request),
  "Topic.decisions": (request) => nestedList("(this)<-[:ABOUT]-(d:Decision)", "d", "Decision", request),
  "Topic.disagreements": (request) =>
    nestedList("(this)<-[:ABOUT]-(g:Disagreement)", "g", "Disagreement", request),
  "Feature.requestedBy": (request) =>
    nestedList("(this)<-[:REQUESTED]-(c:Customer)", "c", "Customer", request),
  "Customer.requestedFeatures": (request) =>
    nestedList("(this)-[:REQUESTED]->(f:Feature)", "f", "Feature", request),
  "Disagreement.participants": (request) =>
    nestedList("(this)<-[:PARTICIPATED_IN]-(p:Person)", "p", "Person", request),
  ...fixedAll({
    "Query.decision": lookupById("Decision", "d"),
    "Query.topic": lookupById("Topic", "t"),

    ...Object.fromEntries(
      Object.entries(SINGLE_LINKS).map(([field, [pattern, v]]) => [field, singleLink(pattern, v)]),
    ),

    ...connectionTypeStatements("Decision"),
    ...connectionTypeStatements("Feature"),
    ...connectionTypeStatements("Topic"),
    ...connectionTypeStatements("Customer"),
    ...connectionTypeStatements("Person"),
    ...connectionTypeStatements("Disagreement"),
    ...connectionTypeStatements("Commitment"),

    "DecisionGroup.topic": `${asNode("this.topic", "t")} RETURN t`,
    "DecisionGroup.decidedBy": `${asNode("this.decidedBy", "p")} RETURN p`,
    "DecisionGroup.regretScore": "RETURN this.regretScore AS s",
    "DecisionGroup.executionGapDays": "RETURN this.executionGapDays AS s",
    "FeatureGroup.owner": `${asNode("this.owner", "p")} RETURN p`,
    "DisagreementGroup.topic": `${asNode("this.topic", "t")} RETURN t`,
  }),
};
