// Contract §8's graph model as the check reads it, derived from typeDefs/ so the two cannot drift:
// each domain label's properties (the leaf fields of its type) with their type and whether §7
// calls them non-null, the enums' values, and the single-valued links (src/cypher/statements.ts).
import { Kind, parse, type TypeNode } from "graphql";
import { ELEMENT_TYPES } from "../cypher/order.js";
import { SINGLE_LINKS } from "../cypher/nested.js";

/** A property as §8 stores it: `type` is a GraphQL scalar's name or an enum's. */
export interface PropertyRule {
  name: string;
  type: string;
  required: boolean;
  /** The enum's values, when `type` is an enum. */
  values?: readonly string[];
}

export interface LabelModel {
  label: string;
  properties: readonly PropertyRule[];
  /** Single-valued links: the field's name and the pattern from `this` to its targets `v`. */
  links: readonly { field: string; pattern: string; v: string }[];
}

const unwrap = (type: TypeNode): { name: string; required: boolean; list: boolean } => {
  if (type.kind === Kind.NON_NULL_TYPE) return { ...unwrap(type.type), required: true };
  if (type.kind === Kind.LIST_TYPE) return { ...unwrap(type.type), list: true };
  return { name: type.name.value, required: false, list: false };
};

/** The model of every domain label, from the SDL of typeDefs/. */
export function graphModel(typeDefs: readonly string[]): LabelModel[] {
  const definitions = typeDefs.flatMap((sdl) => parse(sdl).definitions);
  const enums = new Map<string, string[]>();
  for (const definition of definitions) {
    if (definition.kind === Kind.ENUM_TYPE_DEFINITION)
      enums.set(
        definition.name.value,
        (definition.values ?? []).map((value) => value.name.value),
      );
  }
  return ELEMENT_TYPES.map((label) => {
    const type = definitions.find(
      (definition) => definition.kind === Kind.OBJECT_TYPE_DEFINITION && definition.name.value === label,
    );
    if (type?.kind !== Kind.OBJECT_TYPE_DEFINITION) throw new Error(`typeDefs/ has no type ${label}`);
    const properties = (type.fields ?? [])
      .filter((field) => !field.directives?.some((directive) => directive.name.value === "cypher"))
      .map((field): PropertyRule => {
        const { name, required, list } = unwrap(field.type);
        if (list) throw new Error(`${label}.${field.name.value}: list properties are not in §8`);
        const values = enums.get(name);
        return { name: field.name.value, type: name, required, ...(values && { values }) };
      });
    const links = Object.entries(SINGLE_LINKS)
      .filter(([field]) => field.startsWith(`${label}.`))
      .map(([field, [pattern, v]]) => ({ field: field.slice(label.length + 1), pattern, v }));
    return { label, properties, links };
  });
}
