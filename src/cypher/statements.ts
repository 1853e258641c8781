// Every root field of typeDefs/ and how its statement is built for a request: the rows the field
// returns, which the request's query then projects (compile.ts), its nested fields included
// (nested.ts). A field whose Cypher does not depend on the request ignores the request.
import { rootConnection } from "./connections.js";
import { CUSTOMERS, DECISIONS, DISAGREEMENTS, FEATURES, PEOPLE, TOPICS } from "./domain.js";
import { groups, linkDimension, propertyDimension, timeDimensions, type GroupList } from "./groups.js";
import { lookupById, rootList } from "./lists.js";
import type { StatementBuilder } from "./request.js";

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

/** How each root field's statement is built, by `Query.field`. */
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

  "Query.decision": () => lookupById("Decision", "d"),
  "Query.topic": () => lookupById("Topic", "t"),
};
