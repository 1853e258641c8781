// The indexes the domain table needs in Neo4j, as cypher/ must create them (test/domain.test.ts
// checks the files against this): a uniqueness constraint on every label's `id` (every lookup by
// id and parent start seeks it); a range index on every property a root list filters on, orders by
// (a list is read in order from it) or groups by alone (counted from it), and on every property a
// link keeps its targets by; the full-text index of every list's `search`.
import { argumentsOf, DOMAIN, ELEMENT_TYPES, type DomainTable, type ElementType } from "./table.js";

/** A range index the table needs: its label, property, and the table's reasons for it. */
export interface RangeIndex {
  label: ElementType;
  property: string;
  reasons: string[];
}

/** A full-text index the table needs. */
export interface FullTextIndex {
  name: string;
  label: ElementType;
  properties: readonly string[];
}

/** Every range index the table needs, one per label and property. */
export function rangeIndexes(table: DomainTable = DOMAIN): RangeIndex[] {
  const indexes = new Map<string, RangeIndex>();
  const need = (label: ElementType, property: string, reason: string) => {
    const key = `${label}.${property}`;
    const index = indexes.get(key) ?? { label, property, reasons: [] };
    index.reasons.push(reason);
    indexes.set(key, index);
  };
  for (const type of ELEMENT_TYPES) {
    const { list, orders, groups, links } = table[type];
    for (const [field, link] of Object.entries(links))
      for (const property of Object.keys(link.only ?? {}))
        need(link.to, property, `${type}.${field} keeps by it`);
    if (list === undefined) continue;
    for (const filter of list.filters)
      need(type, filter.property, `${list.field}(${argumentsOf(filter).join(", ")}) filters on it`);
    for (const [field, property] of Object.entries(orders))
      need(type, property, `${list.field} orders by ${field}`);
    for (const dimension of groups?.dimensions ?? [])
      if ("property" in dimension)
        need(type, dimension.property, `${groups?.field ?? ""} groups by ${dimension.by}`);
  }
  return [...indexes.values()];
}

/** Every full-text index the table's `search` reads. */
export function fullTextIndexes(table: DomainTable = DOMAIN): FullTextIndex[] {
  return ELEMENT_TYPES.flatMap((label) => {
    const search = table[label].list?.search;
    return search === undefined ? [] : [{ label, ...search }];
  });
}
