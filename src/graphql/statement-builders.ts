import type { Neo4jGraphQL } from "@neo4j/graphql";
import { STATEMENT_BUILDERS } from "../cypher/statements.js";
import type { FieldRequest, StatementBuilder } from "../cypher/request.js";
import { cypherArguments } from "../cypher/arguments.js";

/** The `@cypher` statement in typeDefs/ of a field whose statement src/cypher/ builds per request. */
export const BUILT_PER_REQUEST = "// src/cypher/statements.ts";

/** What the library's model keeps of a `@cypher` directive; `statementFor` and `argumentsFor` are ours (patches/). */
interface CypherAnnotation {
  statement: string;
  statementFor?: (request: FieldRequest) => string;
  argumentsFor?: (args: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

interface ModelFields {
  name: string;
  attributes: Map<string, { name: string; annotations: { cypher?: CypherAnnotation } }>;
}

/**
 * Gives each `@cypher` field of the library's schema model the builder of its statement
 * (src/cypher/statements.ts): the patched library then asks it for the field's Cypher with the
 * request's arguments and selection, so that a request's Cypher holds only what it asks, and reads
 * the arguments as src/cypher/arguments.ts prepares them. In
 * typeDefs/ such a field's statement is {@link BUILT_PER_REQUEST}, which names where the builders
 * are; a field with a statement of its own (tests add some) keeps it. Throws when a placeholder
 * has no builder or a builder has no placeholder: either would fail every request that reaches it.
 */
export function attachStatementBuilders(
  neoSchema: Neo4jGraphQL,
  builders: Readonly<Record<string, StatementBuilder>> = STATEMENT_BUILDERS,
): void {
  // The model is the library's own, built by getSchema(); it has no public accessor.
  const model = (
    neoSchema as unknown as {
      schemaModel?: { concreteEntities: ModelFields[]; operations: { Query?: ModelFields } };
    }
  ).schemaModel;
  if (model === undefined) throw new Error("attachStatementBuilders: call getSchema() first");
  const unused = new Set(Object.keys(builders));
  const owners = [
    ...(model.operations.Query === undefined ? [] : [{ ...model.operations.Query, name: "Query" }]),
    ...model.concreteEntities,
  ];
  for (const owner of owners) {
    for (const attribute of owner.attributes.values()) {
      const annotation = attribute.annotations.cypher;
      if (annotation === undefined) continue;
      const field = `${owner.name}.${attribute.name}`;
      const build = builders[field];
      if (annotation.statement !== BUILT_PER_REQUEST) {
        if (build !== undefined)
          throw new Error(`${field} has a statement builder and a statement of its own`);
        continue;
      }
      if (build === undefined) throw new Error(`${field} has no statement builder`);
      annotation.statementFor = build;
      annotation.argumentsFor = cypherArguments;
      unused.delete(field);
    }
  }
  if (unused.size > 0)
    throw new Error(`Statement builders without a @cypher field: ${[...unused].join(", ")}`);
}
