// The product's root fields, answered with the one query src/cypher/compile.ts writes for each
// request, instead of the Neo4j GraphQL Library's translation. The library still builds the
// schema (its types, scalars and field resolvers) and answers any other `@cypher` field.
import {
  getNullableType,
  isInterfaceType,
  isListType,
  Kind,
  parse,
  type GraphQLSchema,
  type StringValueNode,
} from "graphql";
import { LRUCache } from "lru-cache";
import {
  compileRootField,
  NODE_TYPE_KEY,
  type CompiledQuery,
  type RootStatement,
} from "../cypher/compile.js";
import { withResponseKeys } from "../cypher/canonical.js";
import { NESTED_FIELDS } from "../cypher/nested.js";
import { GRAPH_FIELDS } from "../cypher/graph.js";
import { ELEMENT_TYPES } from "../domain/table.js";
import { STATEMENT_BUILDERS } from "../cypher/statements.js";
import type { RowEstimator, StatementBuilder } from "../cypher/request.js";
import type { QueryRunner } from "../neo4j/runner.js";
import { rootSelection, type OperationPlan } from "./operation-plan.js";
import type { PlanContext } from "./pre-execution.js";

/** The `@cypher` statement in typeDefs/ of a field whose Cypher src/cypher/ writes for each request. */
export const BUILT_PER_REQUEST = "// src/cypher/statements.ts";

interface ExecutionContext extends PlanContext {
  executionContext?: unknown;
  /** Where a read of all a list's rows starts (src/cypher/starts.ts); without them, from its first filter given. */
  rowEstimates?: RowEstimator;
}

/**
 * The root fields typeDefs/ leaves to src/cypher/ (their `@cypher` statement is
 * {@link BUILT_PER_REQUEST}), each with its statement's builder and the column it returns. Every
 * such field below the root must be one the compiler writes: a nested field of an element type
 * (src/cypher/nested.ts), or a field of a map a statement returns (a connection, an edge, a group).
 * Throws when a placeholder has no builder or a builder has no placeholder: either would fail
 * every request that reaches it.
 */
export function rootStatements(
  typeDefs: readonly string[],
  builders: Readonly<Record<string, StatementBuilder>> = STATEMENT_BUILDERS,
): Map<string, RootStatement> {
  const roots = new Map<string, RootStatement>();
  const unused = new Set(Object.keys(builders));
  const elements: ReadonlySet<string> = new Set(ELEMENT_TYPES);
  for (const definition of typeDefs.flatMap((sdl) => parse(sdl).definitions)) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION)
      continue;
    const owner = definition.name.value;
    for (const field of definition.fields ?? []) {
      const cypher = field.directives?.find((directive) => directive.name.value === "cypher");
      const argument = (name: string) =>
        (cypher?.arguments?.find((arg) => arg.name.value === name)?.value as StringValueNode | undefined)
          ?.value;
      if (cypher === undefined || argument("statement") !== BUILT_PER_REQUEST) continue;
      const name = `${owner}.${field.name.value}`;
      if (owner !== "Query") {
        if (elements.has(owner) && NESTED_FIELDS[name] === undefined && !(field.name.value in GRAPH_FIELDS))
          throw new Error(`${name} has no nested form in src/cypher/nested.ts`);
        continue;
      }
      const build = builders[name];
      if (build === undefined) throw new Error(`${name} has no statement builder`);
      roots.set(field.name.value, { build, column: argument("columnName") ?? "this" });
      unused.delete(name);
    }
  }
  if (unused.size > 0) throw new Error(`Statement builders without a root field: ${[...unused].join(", ")}`);
  return roots;
}

/**
 * Answers each root field of `roots` with the one query src/cypher/compile.ts writes for the
 * request from the operation walked once before execution (`plan`, src/graphql/operation-plan.ts),
 * run through the request's runner (`executionContext`).
 */
export function compileRootFields(schema: GraphQLSchema, roots: ReadonlyMap<string, RootStatement>): void {
  // A `Node`'s projection names its element type (compile.ts).
  const node = schema.getType("Node");
  if (isInterfaceType(node))
    node.resolveType = (value) =>
      typeof value === "object" && value !== null
        ? (value as Record<string, string>)[NODE_TYPE_KEY]
        : undefined;
  const fields = schema.getQueryType()?.getFields() ?? {};
  const compiled = new CompiledQueries();
  for (const [name, root] of roots) {
    const field = fields[name];
    if (field === undefined) throw new Error(`No root field ${name} for its statement`);
    const list = isListType(getNullableType(field.type));
    field.resolve = async (_source, _args, context: ExecutionContext, info) => {
      const selection =
        context.plan === undefined ? undefined : rootSelection(context.plan, String(info.path.key));
      if (selection === undefined) throw new Error(`${name} is executed without its operation's plan`);
      const estimates = context.rowEstimates;
      const query = compiled.of(context.plan, String(info.path.key), estimates?.version, () =>
        compileRootField(info.schema, selection, root, estimates),
      );
      const runner = context.executionContext as QueryRunner;
      const { records } = await runner.run(query.text, query.parameters);
      const { responseKeys } = query;
      const values = records.map((record): unknown =>
        responseKeys === undefined ? record.get(0) : withResponseKeys(responseKeys, record.get(0)),
      );
      return list ? values : (values[0] ?? null);
    };
  }
}

/** Remembered compilations: at most this many, and this many characters of Cypher and keys. */
const REMEMBERED = { queries: 2_000, characters: 10_000_000 };

/**
 * Each root field's compiled query by its operation, response key and the request's variables: a
 * field's Cypher and parameters follow from those alone, and dashboards send the same document
 * with the same variables again and again (the wide query's five root fields cost 0.5 ms to compile
 * on this VM). A new operation or new variables compile afresh, and so does every field once the
 * row estimates its reads may start by have changed (`estimates`, their version).
 */
class CompiledQueries {
  private readonly operations = new WeakMap<OperationPlan["operation"], number>();
  private nextOperation = 0;
  private readonly queries = new LRUCache<string, CompiledQuery>({
    max: REMEMBERED.queries,
    maxSize: REMEMBERED.characters,
    // The key counts too: a request's variables may be most of its 64 KiB body.
    sizeCalculation: (query, key) => query.text.length + key.length,
  });

  of(
    plan: OperationPlan | undefined,
    responseKey: string,
    estimates: number | undefined,
    compile: () => CompiledQuery,
  ): CompiledQuery {
    if (plan === undefined) return compile();
    let operation = this.operations.get(plan.operation);
    if (operation === undefined) {
      operation = this.nextOperation++;
      this.operations.set(plan.operation, operation);
    }
    const key = `${String(operation)} ${String(estimates)} ${responseKey} ${JSON.stringify(plan.variables)}`;
    const known = this.queries.get(key);
    if (known !== undefined) return known;
    const query = compile();
    this.queries.set(key, query);
    return query;
  }
}
