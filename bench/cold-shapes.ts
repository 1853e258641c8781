// The documents of `npm run bench:cold`: ad-hoc questions over the served schema, as a data team
// writes them. Valid and within every limit (small lists keep the cost low); random root fields
// with random subsets of their filters, random selections with nested lists, links, connections
// (with `totalCount` or a cursor, sometimes) and group statistics, one to six root fields.
import fc from "fast-check";
import {
  Kind,
  parse,
  print,
  visit,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { encodeCursor } from "../src/cypher/cursor.js";

/** Ids and values of the bench graph the filters name. */
export interface ShapeSubjects {
  topicIds: string[];
  ownerIds: string[];
  teams: string[];
}

type Gen = fc.GeneratorValue;

const pick = <T>(g: Gen, items: readonly T[]): T =>
  items[g(fc.integer, { min: 0, max: items.length - 1 })] as T;
const chance = (g: Gen, percent: number) => g(fc.integer, { min: 1, max: 100 }) <= percent;
/** A random non-empty subset of `items`, in their order. */
const some = <T>(g: Gen, items: readonly T[], max = items.length): T[] => {
  const chosen = items.filter(() => chance(g, 45)).slice(0, max);
  return chosen.length > 0 ? chosen : [pick(g, items)];
};
/** A random subset, possibly empty. */
const maybe = <T>(g: Gen, items: readonly T[], percent = 35): T[] => items.filter(() => chance(g, percent));

const day = (g: Gen) => {
  const date = new Date(Date.UTC(2022, 0, 1) + g(fc.integer, { min: 0, max: 1641 }) * 86_400_000);
  return date.toISOString().slice(0, 10);
};

/** A filter argument's literal, by argument name. */
function filterValue(g: Gen, argument: string, subjects: ShapeSubjects): string {
  switch (argument) {
    case "since":
    case "until":
      return JSON.stringify(day(g));
    case "topicId":
      return JSON.stringify(pick(g, subjects.topicIds));
    case "ownerId":
      return JSON.stringify(pick(g, subjects.ownerIds));
    case "team":
      return JSON.stringify(pick(g, subjects.teams));
    case "status":
      return pick(g, ["PROPOSED", "DECIDED", "EXECUTED", "REVERSED", "SUPERSEDED"]);
    case "stage":
      return pick(g, ["IDEA", "PLANNED", "IN_PROGRESS", "BETA", "GENERALLY_AVAILABLE", "SUNSET"]);
    case "health":
      return pick(g, ["HEALTHY", "AT_RISK", "CRITICAL", "CHURNED"]);
    case "regretScoreMin":
      return String(g(fc.integer, { min: 0, max: 10 }) / 10);
    case "executionGapDaysMin":
      return String(g(fc.integer, { min: 0, max: 60 }));
    default:
      return String(chance(g, 50));
  }
}

/** What each element type selects: scalars, and nested fields built on demand. */
const ELEMENTS: Record<string, { scalars: string[]; nested: ((g: Gen, depth: number) => string)[] }> = {
  Decision: {
    scalars: ["id", "title", "status", "decidedAt", "regretScore", "executionGapDays"],
    nested: [
      (g, d) => `decidedBy { ${element(g, "Person", d)} }`,
      (g, d) => `topic { ${element(g, "Topic", d)} }`,
    ],
  },
  Topic: {
    scalars: ["id", "name", "canonicalAnswer"],
    nested: [
      (g, d) => `decisions(limit: ${small(g)}) { ${element(g, "Decision", d)} }`,
      (g, d) => `disagreements(limit: ${small(g)}) { ${element(g, "Disagreement", d)} }`,
      (g, d) => `decisionsConnection(first: ${small(g)}) { ${connection(g, "Decision", d)} }`,
    ],
  },
  Person: {
    scalars: ["id", "name", "email", "team"],
    nested: [
      (g, d) => `decisionsMade(limit: ${small(g)}) { ${element(g, "Decision", d)} }`,
      (g) => `openCommitments(limit: ${small(g)}) { id description dueOn status }`,
      (g, d) => `decisionsMadeConnection(first: ${small(g)}) { ${connection(g, "Decision", d)} }`,
    ],
  },
  Feature: {
    scalars: ["id", "name", "stage", "team", "shipped", "shippedOn"],
    nested: [
      (g, d) => `owner { ${element(g, "Person", d)} }`,
      (g, d) => `requestedBy(limit: ${small(g)}) { ${element(g, "Customer", d)} }`,
    ],
  },
  Customer: {
    scalars: ["id", "name", "health"],
    nested: [(g, d) => `requestedFeatures(limit: ${small(g)}) { ${element(g, "Feature", d)} }`],
  },
  Disagreement: {
    scalars: ["id", "summary", "resolved", "raisedAt", "resolvedAt"],
    nested: [
      (g, d) => `topic { ${element(g, "Topic", d)} }`,
      (g, d) => `participants(limit: ${small(g)}) { ${element(g, "Person", d)} }`,
    ],
  },
};

const small = (g: Gen) => String(g(fc.integer, { min: 1, max: 5 }));

/** A selection of an element type: some scalars, and below depth 3 sometimes a nested field. */
function element(g: Gen, type: string, depth: number): string {
  const { scalars, nested } = ELEMENTS[type] ?? { scalars: ["id"], nested: [] };
  const below = depth < 3 ? maybe(g, nested, 30).map((field) => field(g, depth + 1)) : [];
  return [...some(g, scalars, 4), ...below].join(" ");
}

/** A connection's selection: the page as nodes or edges, sometimes `totalCount` and `pageInfo`. */
function connection(g: Gen, type: string, depth: number): string {
  const page = chance(g, 50)
    ? `nodes { ${element(g, type, depth + 1)} }`
    : `edges { cursor node { ${element(g, type, depth + 2)} } }`;
  return [
    ...(chance(g, 50) ? ["totalCount"] : []),
    page,
    ...(chance(g, 30) ? ["pageInfo { hasNextPage endCursor }"] : []),
  ].join(" ");
}

/** A cursor at a plausible position of the element type's order. */
function cursor(g: Gen, type: string): string {
  const id = `${type.toLowerCase()}-${String(g(fc.integer, { min: 1, max: 9999 })).padStart(6, "0")}`;
  if (type === "Decision" || type === "Disagreement") {
    const seconds = String(
      Math.floor(Date.UTC(2022, 0, 1) / 1000) + g(fc.integer, { min: 0, max: 141_000_000 }),
    );
    return encodeCursor([type, seconds, 0, id]);
  }
  return encodeCursor([type, pick(g, ["A", "Data", "M", "Platform", "Z"]), id]);
}

/** The root lists: element type, field names, filters, group dimensions. */
const LISTS = [
  {
    type: "Decision",
    list: "decisions",
    filters: ["since", "until", "topicId", "status", "regretScoreMin", "executionGapDaysMin"],
    groups: ["STATUS", "TOPIC", "DECIDED_BY", "MONTH"],
  },
  {
    type: "Feature",
    list: "features",
    filters: ["stage", "team", "ownerId", "shipped"],
    groups: ["STAGE", "TEAM", "SHIPPED", "OWNER"],
  },
  { type: "Topic", list: "topics", filters: [], groups: [] },
  { type: "Customer", list: "customers", filters: ["health"], groups: ["HEALTH"] },
  { type: "Person", list: "people", filters: [], groups: [] },
  {
    type: "Disagreement",
    list: "disagreements",
    filters: ["topicId", "resolved"],
    groups: ["TOPIC", "RESOLVED", "MONTH"],
  },
] as const;

/** The fields a group type selects for its dimensions. */
const GROUP_FIELDS: Record<string, string> = {
  STATUS: "status",
  TOPIC: "topic { id name }",
  DECIDED_BY: "decidedBy { id name }",
  MONTH: "month",
  STAGE: "stage",
  TEAM: "team",
  SHIPPED: "shipped",
  OWNER: "owner { id name }",
  HEALTH: "health",
  RESOLVED: "resolved",
};

/** One root field of a random kind. */
function rootField(g: Gen, subjects: ShapeSubjects): string {
  const list = pick(g, LISTS);
  const args = maybe(g, list.filters).map((argument) => `${argument}: ${filterValue(g, argument, subjects)}`);
  const kind = g(fc.integer, { min: 1, max: 10 });
  const argsOf = (extra: string[]) => {
    const all = [...args, ...extra];
    return all.length === 0 ? "" : `(${all.join(", ")})`;
  };
  if (kind <= 4)
    return `${list.list}${argsOf([`limit: ${String(g(fc.integer, { min: 1, max: 20 }))}`])} { ${element(g, list.type, 1)} }`;
  if (kind <= 8 || list.groups.length === 0) {
    const after = chance(g, 25) ? [`after: "${cursor(g, list.type)}"`] : [];
    return `${list.list}Connection${argsOf([`first: ${String(g(fc.integer, { min: 1, max: 20 }))}`, ...after])} { ${connection(g, list.type, 0)} }`;
  }
  const by = some(g, list.groups, 3);
  const stats =
    list.type === "Decision"
      ? maybe(g, ["regretScore { count avg }", "executionGapDays { min max sum }"], 30)
      : [];
  const group = `${list.type.charAt(0).toLowerCase()}${list.type.slice(1)}Groups`;
  return `${group}${argsOf([`by: [${by.join(", ")}]`, `limit: ${String(g(fc.integer, { min: 1, max: 20 }))}`])} { count ${by.map((d) => GROUP_FIELDS[d]).join(" ")} ${stats.join(" ")} }`;
}

/** A document of one to six root fields (several under aliases), most often one. */
export function documentArbitrary(subjects: ShapeSubjects): fc.Arbitrary<string> {
  return fc.gen().map((g) => {
    const count = chance(g, 70) ? 1 : g(fc.integer, { min: 2, max: 6 });
    const fields = Array.from(
      { length: count },
      (_, index) => `${count === 1 ? "" : `f${String(index)}: `}${rootField(g, subjects)}`,
    );
    return `{ ${fields.join(" ")} }`;
  });
}

/** Fields with a selection that are not a level of their own: a connection's parts, a group's NumberStats. */
const NOT_LEVELS = new Set(["edges", "node", "nodes", "pageInfo", "regretScore", "executionGapDays"]);

/** How many levels of nested lists, links and connections a selection holds. */
function nesting(selectionSet: SelectionSetNode | undefined): number {
  let deepest = 0;
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind !== Kind.FIELD || selection.selectionSet === undefined) continue;
    const below = nesting(selection.selectionSet);
    deepest = Math.max(deepest, NOT_LEVELS.has(selection.name.value) ? below : 1 + below);
  }
  return deepest;
}

/**
 * Each root field's nesting, in document order (as the library writes their queries): 0 for a
 * list, connection or group list of the element's own values, 1 when it also selects nested lists,
 * links or connections, 2 when those select more, and so on.
 */
export function rootFieldNesting(document: string): number[] {
  const [operation] = parse(document).definitions as OperationDefinitionNode[];
  return (operation?.selectionSet.selections ?? []).map((field) =>
    field.kind === Kind.FIELD ? nesting(field.selectionSet) : 0,
  );
}

/**
 * `document` worded otherwise, asking the same: every alias renamed (`k_` and its response key,
 * which keeps the order of response keys), more fields given one while the document holds at most
 * `aliasesAtMost` (the contract's limit for a document that is sent), every selection set reversed.
 */
export function reworded(document: DocumentNode, aliasesAtMost?: number): DocumentNode;
export function reworded(document: string, aliasesAtMost?: number): string;
export function reworded(document: DocumentNode | string, aliasesAtMost = Infinity): DocumentNode | string {
  if (typeof document === "string") return print(reworded(parse(document), aliasesAtMost));
  let aliases = 0;
  visit(document, {
    Field: (node) => {
      if (node.alias !== undefined) aliases++;
    },
  });
  return visit(document, {
    Field: (node) =>
      node.alias === undefined && aliases++ >= aliasesAtMost
        ? node
        : { ...node, alias: { kind: Kind.NAME, value: `k_${node.alias?.value ?? node.name.value}` } },
    SelectionSet: { leave: (node) => ({ ...node, selections: [...node.selections].reverse() }) },
  });
}
