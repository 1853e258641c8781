// The nested fields of the element types (contract §7): the links of the domain table
// (src/domain/table.ts) as the compiler (compile.ts) writes them into a request's query. Patterns
// are written for the names the compiler gives: the node at hand (`from`) and the field's own rows
// (`to`).
import { DOMAIN, ELEMENT_TYPES, type ElementType, type Link } from "../domain/table.js";

/** One nested field: a single link, a list or a connection, and the pattern from a node to its rows. */
export interface NestedField {
  kind: "link" | "list" | "connection";
  /** The element type of the rows. */
  type: ElementType;
  /** The letter its rows' variable starts with (`d` for decisions), numbered apart by the compiler. */
  v: string;
  pattern: (from: string, to: string) => string;
}

const quoted = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The relationship of `link` as seen from the node at its `direction`'s start (`-[:ABOUT]->`) or end. */
export const arrow = (link: Link, direction: Link["direction"] = link.direction): string =>
  direction === "out" ? `-[:${link.relationship}]->` : `<-[:${link.relationship}]-`;

/** The pattern from node `from` along `link` to its targets `to` (`(d)-[:ABOUT]->(t:Topic)`). */
export function linkPattern(link: Link, from: string, to: string): string {
  const only =
    link.only === undefined
      ? ""
      : ` {${Object.entries(link.only)
          .map(([property, value]) => `${property}: ${quoted(value)}`)
          .join(", ")}}`;
  return `(${from})${arrow(link)}(${to}:${link.to}${only})`;
}

/** The fields a link gives its element type: a single link's one, a list's list and connection. */
function fieldsOf(field: string, link: Link): [string, NestedField][] {
  const nested = (kind: NestedField["kind"]): NestedField => ({
    kind,
    type: link.to,
    v: DOMAIN[link.to].v,
    pattern: (from, to) => linkPattern(link, from, to),
  });
  if (link.kind === "single") return [[field, nested("link")]];
  return [
    [field, nested("list")],
    [`${field}Connection`, nested("connection")],
  ];
}

/** Every nested field by `Type.field`. A single link with several targets serves the lowest `id` (§7). */
export const NESTED_FIELDS: Readonly<Record<string, NestedField>> = Object.fromEntries(
  ELEMENT_TYPES.flatMap((type) =>
    Object.entries(DOMAIN[type].links).flatMap(([field, link]) =>
      fieldsOf(field, link).map(([name, nested]) => [`${type}.${name}`, nested] as const),
    ),
  ),
);

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
