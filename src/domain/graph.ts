// The graph as part 4 of contract §7 sees it: every element type a `Node` (its `NodeType` is its
// label), every relationship type of §8 a `LinkType`, each in its declared order (answers are
// ordered by it). The element types implement the `Node` interface of typeDefs/graph.graphql with
// its own fields, generated here so that they are written once.
import { Kind, parse, print, type DefinitionNode, type InterfaceTypeDefinitionNode } from "graphql";
import { DOMAIN, ELEMENT_TYPES, type ElementType } from "./table.js";

/** `NodeType`'s values in declared order, each with its label. */
export const NODE_TYPES = [
  ["DECISION", "Decision"],
  ["PERSON", "Person"],
  ["COMMITMENT", "Commitment"],
  ["TOPIC", "Topic"],
  ["FEATURE", "Feature"],
  ["CUSTOMER", "Customer"],
  ["DISAGREEMENT", "Disagreement"],
] as const satisfies readonly (readonly [string, ElementType])[];

export type NodeType = (typeof NODE_TYPES)[number][0];

/** `LinkType`'s values in declared order: §8's relationship types. */
export const LINK_TYPES = [
  "DECIDED_BY",
  "ABOUT",
  "PARTICIPATED_IN",
  "OWNS",
  "REQUESTED",
  "COMMITTED_TO",
  "FOLLOWS_FROM",
] as const;

export type LinkType = (typeof LINK_TYPES)[number];

/** The label a `NodeType` argument names (GraphQL has checked it is one of the values). */
export const labelOf = (type: unknown): ElementType =>
  (NODE_TYPES.find(([name]) => name === type) ?? NODE_TYPES[0])[1];

/** Every relationship type the domain table's links follow: the table and `LinkType` must agree. */
export const TABLE_RELATIONSHIPS: ReadonlySet<string> = new Set(
  ELEMENT_TYPES.flatMap((type) => Object.values(DOMAIN[type].links).map((link) => link.relationship)),
);

/** The interface every element type implements. */
export const NODE_INTERFACE = "Node";

/**
 * `extend type T implements Node { … }` for each element type, with the interface's fields other
 * than `id` (which every type has), as typeDefs/graph.graphql writes them, each with the `@cypher`
 * placeholder of a field built per request (`statement`).
 */
export function nodeFieldsSdl(typeDefs: readonly string[], statement: string): string {
  const node = typeDefs
    .flatMap((sdl) => parse(sdl).definitions)
    .find(
      (definition: DefinitionNode): definition is InterfaceTypeDefinitionNode =>
        definition.kind === Kind.INTERFACE_TYPE_DEFINITION && definition.name.value === NODE_INTERFACE,
    );
  if (node === undefined) throw new Error(`typeDefs/ define no interface ${NODE_INTERFACE}`);
  const fields = (node.fields ?? [])
    .filter((field) => field.name.value !== "id")
    .map(
      (field) =>
        `  ${print(field)} @cypher(statement: ${JSON.stringify(statement)}, columnName: "${field.name.value}")`,
    );
  return ELEMENT_TYPES.map(
    (type) => `extend type ${type} implements ${NODE_INTERFACE} {\n${fields.join("\n")}\n}`,
  ).join("\n");
}
