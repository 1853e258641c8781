// Contract §8's graph model as the check reads it, from the domain table (src/domain/table.ts):
// each label's properties with their type and whether §7 calls them non-null, the enums' values,
// and the single-valued links.
import { SINGLE_LINKS } from "../cypher/nested.js";
import { DOMAIN, ELEMENT_TYPES, ENUMS, propertyType } from "../domain/table.js";

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

/** The model of every domain label: the table's properties with their enums' values. */
export function graphModel(): LabelModel[] {
  return ELEMENT_TYPES.map((label) => {
    const properties = Object.entries(DOMAIN[label].properties).map(([name, stored]): PropertyRule => {
      const { name: type, required } = propertyType(stored);
      const values = ENUMS[type];
      return { name, type, required, ...(values && { values }) };
    });
    const links = Object.entries(SINGLE_LINKS)
      .filter(([field]) => field.startsWith(`${label}.`))
      .map(([field, [pattern, v]]) => ({ field: field.slice(label.length + 1), pattern, v }));
    return { label, properties, links };
  });
}
