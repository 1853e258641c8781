import { Kind, type DocumentNode, type FragmentDefinitionNode } from "graphql";

/** The fragment definitions of a document by name: what every pre-execution walk looks spreads up in. */
export function fragmentsByName(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * A value of each fragment of `document`, by name, computed by `compute` once and remembered, so
 * that a walk which meets a fragment at every spread stays linear in the document (a fragment
 * spreading the next one twice, nested, would otherwise cost 2^depth). An unknown fragment, or one
 * met again inside itself (a cycle), gets `none`: other rules report both.
 */
export function perFragment<T>(
  document: DocumentNode,
  compute: (fragment: FragmentDefinitionNode) => T,
  none: T,
): (name: string) => T {
  const fragments = fragmentsByName(document);
  const known = new Map<string, T>();
  const computing = new Set<string>();
  return (name) => {
    const remembered = known.get(name);
    if (remembered !== undefined) return remembered;
    const fragment = fragments.get(name);
    if (fragment === undefined || computing.has(name)) return none;
    computing.add(name);
    const value = compute(fragment);
    computing.delete(name);
    known.set(name, value);
    return value;
  };
}
