// Every root field of typeDefs/ and how its statement is built for a request: the rows the field
// returns, which the request's query then projects (compile.ts), its nested fields included
// (nested.ts). The fields are the domain table's (src/domain/table.ts): each element type's root
// list and its connection, its group list and its lookup by `id`. A field whose Cypher does not
// depend on the request ignores the request.
import { DOMAIN, ELEMENT_TYPES, type ElementType } from "../domain/table.js";
import { rootConnection } from "./connections.js";
import { listOf } from "./element-lists.js";
import { groupListOf, groups } from "./groups.js";
import { lookupById, rootList } from "./lists.js";
import type { StatementBuilder } from "./request.js";
import { labelOf } from "../domain/graph.js";

/** The root fields of one element type, by name. */
function rootFieldsOf(type: ElementType): [string, StatementBuilder][] {
  const { list, groups: groupFields, lookup, v } = DOMAIN[type];
  const fields: [string, StatementBuilder][] = [];
  if (list !== undefined) {
    const rows = listOf(type);
    fields.push([list.field, (request) => rootList(rows, request)]);
    fields.push([`${list.field}Connection`, (request) => rootConnection(rows, request)]);
  }
  if (groupFields !== undefined) {
    const groupList = groupListOf(type);
    fields.push([groupFields.field, (request) => groups(groupList, request)]);
  }
  if (lookup !== undefined) fields.push([lookup, () => lookupById(type, v)]);
  return fields;
}

/** `node(type, id)` (contract §7 part 4): the node of the type's label with that `id`, or none. */
const nodeByTypeAndId: StatementBuilder = (request) => lookupById(labelOf(request.arguments.type), "n");

/** How each root field's statement is built, by `Query.field`. */
export const STATEMENT_BUILDERS: Readonly<Record<string, StatementBuilder>> =
  Object.fromEntries<StatementBuilder>([
    ...ELEMENT_TYPES.flatMap((type) =>
      rootFieldsOf(type).map(([field, build]): [string, StatementBuilder] => [`Query.${field}`, build]),
    ),
    ["Query.node", nodeByTypeAndId] as const,
  ]);
