// The domain table: for each root list of contract §7, its element type, the variable its
// statements name a row by, its filters, and the parent node a filter can name. Only what contract
// §8 names is read: no derived property, no helper label, so a graph written by the ingest job a
// moment ago answers correctly.
import type { ElementType } from "./cursor.js";
import type { Filter } from "./filters.js";
import type { SearchIndex } from "./search.js";

/** A filter naming one parent node: the list then starts from that node's relationships. */
export interface Parent {
  argument: string;
  label: string;
  v: string;
  /** The relationship from the parent (left) to the row (right), as a pattern. */
  relationship: string;
}

/** A root list: its rows, their filters, and where a read of them can start. */
export interface ElementList {
  type: ElementType;
  v: string;
  filters: readonly Filter[];
  parent?: Parent;
  /** The full-text index `search` reads (cypher/03-search.cypher). */
  search: SearchIndex;
}

export const DECISIONS: ElementList = {
  type: "Decision",
  v: "d",
  filters: [
    { kind: "dayRange", property: "decidedAt", since: "since", until: "until" },
    { kind: "equals", property: "status", argument: "status" },
    { kind: "atLeast", property: "regretScore", argument: "regretScoreMin" },
    { kind: "atLeast", property: "executionGapDays", argument: "executionGapDaysMin" },
  ],
  parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
  search: { name: "decision_search", properties: ["title"] },
};

export const FEATURES: ElementList = {
  type: "Feature",
  v: "f",
  filters: [
    { kind: "equals", property: "stage", argument: "stage" },
    { kind: "equals", property: "team", argument: "team" },
    { kind: "equals", property: "shipped", argument: "shipped" },
  ],
  parent: { argument: "ownerId", label: "Person", v: "p", relationship: "-[:OWNS]->" },
  search: { name: "feature_search", properties: ["name"] },
};

export const TOPICS: ElementList = {
  type: "Topic",
  v: "t",
  filters: [],
  search: { name: "topic_search", properties: ["name", "canonicalAnswer"] },
};

export const CUSTOMERS: ElementList = {
  type: "Customer",
  v: "c",
  filters: [{ kind: "equals", property: "health", argument: "health" }],
  search: { name: "customer_search", properties: ["name"] },
};

export const PEOPLE: ElementList = {
  type: "Person",
  v: "p",
  filters: [],
  search: { name: "person_search", properties: ["name"] },
};

export const DISAGREEMENTS: ElementList = {
  type: "Disagreement",
  v: "g",
  filters: [{ kind: "equals", property: "resolved", argument: "resolved" }],
  parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
  search: { name: "disagreement_search", properties: ["summary"] },
};
