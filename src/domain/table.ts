// The domain table: one row per element type of contract §7, holding everything the service knows
// about it — its label and stored properties (§8), the filters and orders of its lists, its links,
// the full-text index `search` reads, its group dimensions and its root fields. The compiler
// (src/cypher/), the argument checks (src/graphql/), `graph:check` (src/graph-check/) and the
// index files' check (test/domain.test.ts, against typeDefs/ and cypher/) all read it, so adding
// a filter is one row here, its argument in the SDL and its index in cypher/. Only what §8 names
// is here: no derived property, no helper label, so a graph written by the ingest job a moment
// ago answers correctly.

/** The element types: each a node label of §8 and an object type of §7. */
export const ELEMENT_TYPES = [
  "Decision",
  "Disagreement",
  "Commitment",
  "Feature",
  "Topic",
  "Customer",
  "Person",
] as const;

export type ElementType = (typeof ELEMENT_TYPES)[number];

/** GraphQL's scalars as §8 stores them; any other type name is an enum of typeDefs/, stored as its value's name. */
export type Scalar = "ID" | "String" | "Boolean" | "Int" | "Float" | "Date" | "DateTime";

/** A stored property as the SDL writes its field's type: `String!` is required, `DateTime` may be missing. */
export type PropertyType = `${Scalar | (string & {})}${"" | "!"}`;

/** A root list's filter argument (contract §7): the argument it reads, the property it compares and how. */
export type Filter =
  /** `property = $argument` (exact, case-sensitive for strings). */
  | { kind: "equals"; property: string; argument: string }
  /** `property >= $argument`: an inclusive lower bound; a null value never matches. */
  | { kind: "atLeast"; property: string; argument: string }
  /**
   * A `DATETIME` property within calendar days: on or after 00:00 UTC of `since`, before 00:00 UTC
   * of the day after `until`; a row without the property never matches either.
   */
  | { kind: "dayRange"; property: string; since: string; until: string };

/** The full-text index of a list's rows (cypher/03-search.cypher) and the properties it holds. */
export interface SearchIndex {
  name: string;
  properties: readonly string[];
}

/**
 * A link of §8 as a field of its element type: one relationship type followed in its stored
 * direction (`out`: from this node to the target) to nodes of `to`, optionally only those holding
 * `only`'s values. A `single` link serves the target with the lowest `id`; a `list` is the field
 * and its connection (`decisions`, `decisionsConnection`), distinct targets in the target's order.
 */
export interface Link {
  kind: "single" | "list";
  to: ElementType;
  relationship: string;
  direction: "out" | "in";
  only?: Readonly<Record<string, string>>;
}

/** A group dimension of `by`: a property's value, a single link's target, or the time buckets of an instant. */
export type DimensionRow =
  { by: string; property: string } | { by: string; link: string } | { timeBucketsOf: string };

export type Direction = "ASC" | "DESC";

/** One element type's row. */
export interface ElementRow {
  /** The letter its rows' variables start with in the Cypher (numbered apart by the compiler). */
  v: string;
  /** Every stored property of §8, by name, with its field's type. */
  properties: Readonly<Record<string, PropertyType>>;
  /** The orders `orderBy` names (`…OrderField` value → property); the first is the own order. */
  orders: Readonly<Record<string, string>>;
  /** The direction of the own order. */
  ownDirection: Direction;
  /** The links, by field name. */
  links: Readonly<Record<string, Link>>;
  /** The root list (`decisions` and `decisionsConnection`) and its filters, when the type has one. */
  list?: {
    field: string;
    filters: readonly Filter[];
    /** An argument naming one target of a single link (`topicId`): the list then starts from that node. */
    parent?: { argument: string; link: string };
    search: SearchIndex;
  };
  /** The root field looking one row up by `id` (`decision(id:)`), when the type has one. */
  lookup?: string;
  /** The root group list, when the type has one: its field, its group type, dimensions and NumberStats. */
  groups?: { field: string; type: string; dimensions: readonly DimensionRow[]; stats: readonly string[] };
}

const NAME_ORDER = { orders: { NAME: "name" }, ownDirection: "ASC" } as const;

/** The table: a row per element type. */
export type DomainTable = Readonly<Record<ElementType, ElementRow>>;

export const DOMAIN: DomainTable = {
  Decision: {
    v: "d",
    properties: {
      id: "ID!",
      title: "String!",
      status: "DecisionStatus!",
      decidedAt: "DateTime",
      regretScore: "Float",
      executionGapDays: "Int",
    },
    orders: {
      DECIDED_AT: "decidedAt",
      REGRET_SCORE: "regretScore",
      EXECUTION_GAP_DAYS: "executionGapDays",
      TITLE: "title",
    },
    ownDirection: "DESC",
    links: {
      decidedBy: { kind: "single", to: "Person", relationship: "DECIDED_BY", direction: "out" },
      topic: { kind: "single", to: "Topic", relationship: "ABOUT", direction: "out" },
    },
    list: {
      field: "decisions",
      filters: [
        { kind: "dayRange", property: "decidedAt", since: "since", until: "until" },
        { kind: "equals", property: "status", argument: "status" },
        { kind: "atLeast", property: "regretScore", argument: "regretScoreMin" },
        { kind: "atLeast", property: "executionGapDays", argument: "executionGapDaysMin" },
      ],
      parent: { argument: "topicId", link: "topic" },
      search: { name: "decision_search", properties: ["title"] },
    },
    lookup: "decision",
    groups: {
      field: "decisionGroups",
      type: "DecisionGroup",
      dimensions: [
        { by: "STATUS", property: "status" },
        { by: "TOPIC", link: "topic" },
        { by: "DECIDED_BY", link: "decidedBy" },
        { timeBucketsOf: "decidedAt" },
      ],
      stats: ["regretScore", "executionGapDays"],
    },
  },
  Disagreement: {
    v: "g",
    properties: {
      id: "ID!",
      summary: "String!",
      resolved: "Boolean!",
      raisedAt: "DateTime",
      resolvedAt: "DateTime",
    },
    orders: { RAISED_AT: "raisedAt", RESOLVED_AT: "resolvedAt" },
    ownDirection: "DESC",
    links: {
      topic: { kind: "single", to: "Topic", relationship: "ABOUT", direction: "out" },
      participants: { kind: "list", to: "Person", relationship: "PARTICIPATED_IN", direction: "in" },
    },
    list: {
      field: "disagreements",
      filters: [{ kind: "equals", property: "resolved", argument: "resolved" }],
      parent: { argument: "topicId", link: "topic" },
      search: { name: "disagreement_search", properties: ["summary"] },
    },
    groups: {
      field: "disagreementGroups",
      type: "DisagreementGroup",
      dimensions: [
        { by: "TOPIC", link: "topic" },
        { by: "RESOLVED", property: "resolved" },
        { timeBucketsOf: "raisedAt" },
      ],
      stats: [],
    },
  },
  Commitment: {
    v: "c",
    properties: { id: "ID!", description: "String!", status: "CommitmentStatus!", dueOn: "Date" },
    // Open commitments have no `orderBy`; their own order is named like the others.
    orders: { DUE_ON: "dueOn" },
    ownDirection: "ASC",
    links: {
      owner: { kind: "single", to: "Person", relationship: "COMMITTED_TO", direction: "in" },
      decision: { kind: "single", to: "Decision", relationship: "FOLLOWS_FROM", direction: "out" },
    },
  },
  Feature: {
    v: "f",
    properties: {
      id: "ID!",
      name: "String!",
      stage: "FeatureStage!",
      team: "String",
      shipped: "Boolean!",
      shippedOn: "Date",
    },
    orders: { NAME: "name", SHIPPED_ON: "shippedOn" },
    ownDirection: "ASC",
    links: {
      owner: { kind: "single", to: "Person", relationship: "OWNS", direction: "in" },
      requestedBy: { kind: "list", to: "Customer", relationship: "REQUESTED", direction: "in" },
    },
    list: {
      field: "features",
      filters: [
        { kind: "equals", property: "stage", argument: "stage" },
        { kind: "equals", property: "team", argument: "team" },
        { kind: "equals", property: "shipped", argument: "shipped" },
      ],
      parent: { argument: "ownerId", link: "owner" },
      search: { name: "feature_search", properties: ["name"] },
    },
    groups: {
      field: "featureGroups",
      type: "FeatureGroup",
      dimensions: [
        { by: "STAGE", property: "stage" },
        { by: "TEAM", property: "team" },
        { by: "SHIPPED", property: "shipped" },
        { by: "OWNER", link: "owner" },
      ],
      stats: [],
    },
  },
  Topic: {
    v: "t",
    properties: { id: "ID!", name: "String!", canonicalAnswer: "String" },
    ...NAME_ORDER,
    links: {
      decisions: { kind: "list", to: "Decision", relationship: "ABOUT", direction: "in" },
      disagreements: { kind: "list", to: "Disagreement", relationship: "ABOUT", direction: "in" },
    },
    list: {
      field: "topics",
      filters: [],
      search: { name: "topic_search", properties: ["name", "canonicalAnswer"] },
    },
    lookup: "topic",
  },
  Customer: {
    v: "c",
    properties: { id: "ID!", name: "String!", health: "CustomerHealth!" },
    ...NAME_ORDER,
    links: {
      requestedFeatures: { kind: "list", to: "Feature", relationship: "REQUESTED", direction: "out" },
    },
    list: {
      field: "customers",
      filters: [{ kind: "equals", property: "health", argument: "health" }],
      search: { name: "customer_search", properties: ["name"] },
    },
    groups: {
      field: "customerGroups",
      type: "CustomerGroup",
      dimensions: [{ by: "HEALTH", property: "health" }],
      stats: [],
    },
  },
  Person: {
    v: "p",
    properties: { id: "ID!", name: "String!", email: "String", team: "String" },
    ...NAME_ORDER,
    links: {
      decisionsMade: { kind: "list", to: "Decision", relationship: "DECIDED_BY", direction: "in" },
      // `openCommitments` are the person's commitments with status OPEN (§7).
      openCommitments: {
        kind: "list",
        to: "Commitment",
        relationship: "COMMITTED_TO",
        direction: "out",
        only: { status: "OPEN" },
      },
    },
    list: {
      field: "people",
      filters: [],
      search: { name: "person_search", properties: ["name"] },
    },
  },
};

/**
 * The values of each enum a property holds, as typeDefs/ declares them (a test holds the two
 * together): §8 stores an enum as its value's name, and a stored name outside them is missing.
 */
export const ENUMS: Readonly<Record<string, readonly string[]>> = {
  DecisionStatus: ["PROPOSED", "DECIDED", "EXECUTED", "REVERSED", "SUPERSEDED"],
  FeatureStage: ["IDEA", "PLANNED", "IN_PROGRESS", "BETA", "GENERALLY_AVAILABLE", "SUNSET"],
  CustomerHealth: ["HEALTHY", "AT_RISK", "CRITICAL", "CHURNED"],
  CommitmentStatus: ["OPEN", "DONE", "DROPPED"],
};

/** The element types with a root list, in the order of `ELEMENT_TYPES`. */
export const LISTED_TYPES = ELEMENT_TYPES.filter((type) => DOMAIN[type].list !== undefined);

/** A property's type as the table writes it: its GraphQL type's name and whether §7 calls it non-null. */
export function propertyType(type: PropertyType): { name: string; required: boolean } {
  return type.endsWith("!") ? { name: type.slice(0, -1), required: true } : { name: type, required: false };
}

/** The arguments a filter reads. */
export function argumentsOf(filter: Filter): string[] {
  return filter.kind === "dayRange" ? [filter.since, filter.until] : [filter.argument];
}
