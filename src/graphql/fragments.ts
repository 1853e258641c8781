import { Kind, type DocumentNode, type FragmentDefinitionNode } from "graphql";

/** The fragment definitions of a document by name: what every pre-execution walk looks spreads up in. */
export function fragmentsByName(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}
