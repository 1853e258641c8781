// The nested fields of the element types (contract §7): the links each reads from a node, as the
// compiler (compile.ts) writes them into a request's query. Patterns are written for the names the
// compiler gives: the node at hand (`from`) and the field's own rows (`to`).
import type { ElementType } from "./order.js";

/** One nested field: a single link, a list or a connection, and the pattern from a node to its rows. */
export interface NestedField {
  kind: "link" | "list" | "connection";
  /** The element type of the rows. */
  type: ElementType;
  /** The letter its rows' variable starts with (`d` for decisions), numbered apart by the compiler. */
  v: string;
  pattern: (from: string, to: string) => string;
}

const link = (type: ElementType, v: string, pattern: NestedField["pattern"]): NestedField => ({
  kind: "link",
  type,
  v,
  pattern,
});

/** A list and its connection (`decisions`, `decisionsConnection`): the same rows. */
const rows = (field: string, type: ElementType, v: string, pattern: NestedField["pattern"]) => ({
  [field]: { kind: "list", type, v, pattern } satisfies NestedField,
  [`${field}Connection`]: { kind: "connection", type, v, pattern } satisfies NestedField,
});

const on = (owner: string, fields: Record<string, NestedField>): Record<string, NestedField> =>
  Object.fromEntries(Object.entries(fields).map(([field, nested]) => [`${owner}.${field}`, nested]));

/** Every nested field by `Type.field`. A single link with several targets serves the lowest `id` (§7). */
export const NESTED_FIELDS: Readonly<Record<string, NestedField>> = {
  ...on("Decision", {
    decidedBy: link("Person", "p", (from, to) => `(${from})-[:DECIDED_BY]->(${to}:Person)`),
    topic: link("Topic", "t", (from, to) => `(${from})-[:ABOUT]->(${to}:Topic)`),
  }),
  ...on("Commitment", {
    owner: link("Person", "p", (from, to) => `(${from})<-[:COMMITTED_TO]-(${to}:Person)`),
    decision: link("Decision", "d", (from, to) => `(${from})-[:FOLLOWS_FROM]->(${to}:Decision)`),
  }),
  ...on("Feature", {
    owner: link("Person", "p", (from, to) => `(${from})<-[:OWNS]-(${to}:Person)`),
    ...rows("requestedBy", "Customer", "c", (from, to) => `(${from})<-[:REQUESTED]-(${to}:Customer)`),
  }),
  ...on("Disagreement", {
    topic: link("Topic", "t", (from, to) => `(${from})-[:ABOUT]->(${to}:Topic)`),
    ...rows("participants", "Person", "p", (from, to) => `(${from})<-[:PARTICIPATED_IN]-(${to}:Person)`),
  }),
  ...on("Topic", {
    ...rows("decisions", "Decision", "d", (from, to) => `(${from})<-[:ABOUT]-(${to}:Decision)`),
    ...rows("disagreements", "Disagreement", "g", (from, to) => `(${from})<-[:ABOUT]-(${to}:Disagreement)`),
  }),
  ...on("Person", {
    ...rows("decisionsMade", "Decision", "d", (from, to) => `(${from})<-[:DECIDED_BY]-(${to}:Decision)`),
    // `openCommitments` are the person's commitments with status OPEN (§7).
    ...rows(
      "openCommitments",
      "Commitment",
      "c",
      (from, to) => `(${from})-[:COMMITTED_TO]->(${to}:Commitment {status: 'OPEN'})`,
    ),
  }),
  ...on("Customer", {
    ...rows("requestedFeatures", "Feature", "f", (from, to) => `(${from})-[:REQUESTED]->(${to}:Feature)`),
  }),
};

/**
 * The single-valued links as `npm run graph:check` reads them: the pattern from the node (`this`)
 * to its targets, and the target's variable.
 */
export const SINGLE_LINKS: Readonly<Record<string, readonly [pattern: string, v: string]>> =
  Object.fromEntries(
    Object.entries(NESTED_FIELDS)
      .filter(([, nested]) => nested.kind === "link")
      .map(([field, nested]) => [field, [nested.pattern("this", nested.v), nested.v]]),
  );
