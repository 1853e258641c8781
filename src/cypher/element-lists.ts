// The root lists of contract §7 as the list reads read them, from the domain table
// (src/domain/table.ts): each list's element type, the variable its statements name a row by, its
// filters, the parent node a filter can name, and the full-text index `search` reads.
import { DOMAIN, LISTED_TYPES, type ElementType, type Filter, type SearchIndex } from "../domain/table.js";
import { arrow } from "./nested.js";

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

/** The root list of `type`, when it has one. */
function elementList(type: ElementType): ElementList | undefined {
  const { v, list, links } = DOMAIN[type];
  if (list === undefined) return undefined;
  const { parent, filters, search } = list;
  const link = parent === undefined ? undefined : links[parent.link];
  if (parent !== undefined && link?.kind !== "single")
    throw new Error(`${type}: the parent argument ${parent.argument} names no single link`);
  return {
    type,
    v,
    filters,
    search,
    ...(parent !== undefined &&
      link !== undefined && {
        parent: {
          argument: parent.argument,
          label: link.to,
          v: DOMAIN[link.to].v,
          // Seen from the parent, the link runs the other way.
          relationship: arrow(link, link.direction === "out" ? "in" : "out"),
        },
      }),
  };
}

/** Every root list, by element type. */
export const ELEMENT_LISTS: ReadonlyMap<ElementType, ElementList> = new Map(
  LISTED_TYPES.flatMap((type) => {
    const list = elementList(type);
    return list === undefined ? [] : [[type, list] as const];
  }),
);

/** The root list of `type`; the table gives it one. */
export function listOf(type: ElementType): ElementList {
  const list = ELEMENT_LISTS.get(type);
  if (list === undefined) throw new Error(`${type} has no root list`);
  return list;
}
