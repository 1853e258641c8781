// A root field of a request, compiled into one Cypher query (issue 32): the field's own statement
// (statements.ts) in one `CALL`, then one `RETURN` that projects what the request selects, each
// nested field one expression inside it: a `COLLECT {}` subquery for a nested list or a single
// link, a `COLLECT {}` holding the connection's statement for a nested connection. Neo4j plans a
// new text in time that grows with its subqueries; an expression is one planning unit where the
// library's translation wrote two `CALL`s and two `WITH`s per nested field.
//
// Variables and parameters are named apart per nested field (`d3`, `$f3_limit`): a subquery
// expression sees every variable of the query around it, so a name used twice would read the
// outer row instead of declaring its own. Nodes are projected as literal maps (`{title: d3.title}`):
// Neo4j 5.26 and 2026.09 read null for the second read of one property in a map projection of a
// value of unknown type (`n {.id, a: n.id}`). Their keys are the fields' own names, in order, not
// the request's aliases (canonical.ts): one question is one text, however the document words it.
import {
  getNamedType,
  getNullableType,
  GraphQLInt,
  isLeafType,
  isInterfaceType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import neo4j from "neo4j-driver";
import { cypherArguments } from "./arguments.js";
import { canonicalSelection, type ResponseKeys } from "./canonical.js";
import { nestedConnection, rootConnectionParts, type ConnectionParts } from "./connections.js";
import { ELEMENT_TYPES, type ElementType } from "../domain/table.js";
import { NODE_TYPES } from "../domain/graph.js";
import { elementTypeOf, GRAPH_FIELDS, graphArguments } from "./graph.js";
import { listOrder, orderBy } from "./order.js";
import { pageSize } from "./lists.js";
import { NESTED_FIELDS } from "./nested.js";
import {
  mergeSelections,
  type FieldRequest,
  type RowEstimator,
  type Selection,
  type StatementBuilder,
} from "./request.js";
import { indent, lines, renameParameters, whereAny } from "./text.js";
import { constantsOf, dayStart, servableInstant } from "./values.js";
import { requestedWhere, whereOperands } from "./where.js";

/** The `where` condition of a list field's request on its rows `v`, as a list of none or one. */
const kept = (type: ElementType, v: string, request: FieldRequest): string[] => {
  const condition = requestedWhere(type, v, request);
  return condition === undefined ? [] : [condition];
};

/** A query as the runner sends it. */
export interface CompiledQuery {
  text: string;
  parameters: Record<string, unknown>;
  /** How its rows' keys become the request's response keys; undefined when they are those already (canonical.ts). */
  responseKeys?: ResponseKeys;
}

/** How a root field's rows are read: its statement's builder and the column it returns. */
export interface RootStatement {
  build: StatementBuilder;
  column: string;
}

const ELEMENTS: ReadonlySet<string> = new Set(ELEMENT_TYPES);

/** The state of one compilation: the parameters so far, the next nested field's number. */
class Compilation {
  readonly parameters: Record<string, unknown> = {};
  private next = 1;

  constructor(readonly schema: GraphQLSchema) {}

  /** A number of its own for a nested field, which names its variables and parameters apart. */
  field(): number {
    return this.next++;
  }

  /**
   * A field's statement with its parameters renamed by `prefix` and bound to the field's
   * arguments as Cypher reads them (arguments.ts): an `Int` as a Cypher integer, a `Date` as the
   * first instant of its day in UTC (a day range's bound: Neo4j plans a `datetime({date: …})`
   * of a parameter like a literal, several ms each), a `where` as the flat map of the operands
   * its text reads (where.ts), a value not given as null (as the library bound a statement's
   * absent arguments).
   */
  bind(
    statement: string,
    args: Readonly<Record<string, unknown>>,
    definitions: readonly GraphQLArgument[],
    prefix: string,
  ): string {
    const read = cypherArguments(args);
    const names = new Set(definitions.map((definition) => definition.name));
    for (const definition of definitions) {
      const value = read[definition.name];
      const type = getNullableType(definition.type);
      this.parameters[prefix + definition.name] =
        value === undefined || value === null
          ? null
          : definition.name === "where"
            ? whereOperands(statement, value)
            : type === GraphQLInt && typeof value === "number"
              ? neo4j.int(value)
              : isScalarType(type) && type.name === "Date" && neo4j.isDate(value)
                ? dayStart(value)
                : value;
    }
    return prefix === ""
      ? statement
      : renameParameters(statement, (name) => (names.has(name) ? prefix + name : name));
  }
}

/** Cypher's name for a map key (a field's name, or `name@2` for a field asked twice: canonical.ts), quoted. */
const key = (name: string) => `\`${name}\``;

/**
 * The one query of a root field: its statement's rows as `column`, each projected as the request
 * selects it, returned as `this` (one record per row), with how the rows' keys become the
 * request's response keys (canonical.ts).
 */
export function compileRootField(
  schema: GraphQLSchema,
  asked: Selection,
  root: RootStatement,
  estimates?: RowEstimator,
): CompiledQuery {
  const { selection, responseKeys } = canonicalSelection(asked, ELEMENTS);
  const compilation = new Compilation(schema);
  const queryType = schema.getQueryType();
  const field = queryType?.getFields()[selection.name];
  if (field === undefined) throw new Error(`No root field ${selection.name}`);
  const request: FieldRequest =
    estimates === undefined
      ? { arguments: selection.args, selection }
      : { arguments: selection.args, selection, estimates };
  const statement = compilation.bind(root.build(request), selection.args, field.args, "");
  const type = getNamedType(field.type);
  if (!isObjectType(type) && !isInterfaceType(type))
    throw new Error(`${selection.name} is not an object field`);
  const connection = connectionElement(type);
  const value =
    connection === undefined
      ? valueOf(compilation, root.column, type, selection)
      : connectionValue(
          compilation,
          rootConnectionParts(connection, request, root.column),
          objectType(type),
          selection,
        );
  const projection = `RETURN ${value} AS this`;
  const open = continued(statement, root.column);
  const text =
    open === undefined
      ? lines("CYPHER 5", "CALL {", ...indent([statement]), "}", projection)
      : lines("CYPHER 5", open, projection);
  const constants = constantsOf(text);
  for (const name of Object.keys(constants))
    if (Object.hasOwn(compilation.parameters, name))
      throw new Error(`A parameter shadows the constant ${name}`);
  const parameters = { ...compilation.parameters, ...constants };
  return responseKeys === undefined ? { text, parameters } : { text, parameters, responseKeys };
}

/** The selections of `type` below a field, by key (canonical.ts: a field's name, in order). */
const selected = (
  selection: Selection,
  type: GraphQLObjectType | GraphQLInterfaceType,
): [string, Selection][] => Object.entries(selection.fieldsByTypeName[type.name] ?? {});

/** A `Link`'s fields naming the types of its ends, projected under `@fromType` and `@toType` always. */
const LINK_END_TYPES = ["fromType", "toType"] as const;

/** The key of a `Node`'s projection naming its element type, for the interface's `resolveType`. */
export const NODE_TYPE_KEY = "@type";

/**
 * Cypher for a value of object type `type` held by `expression`, as `selection` selects it: a node
 * of an element type (null when there is none), or a map a statement wrote (a connection, an edge,
 * `PageInfo`, a group, `NumberStats`: each always there), whose fields are its keys.
 */
function valueOf(
  compilation: Compilation,
  expression: string,
  type: GraphQLObjectType | GraphQLInterfaceType,
  selection: Selection,
): string {
  if (isInterfaceType(type)) return anyNodeValue(compilation, expression, type, selection);
  if (ELEMENTS.has(type.name)) return nodeValue(compilation, expression, type, selection);
  const entries = entriesOf(type, selection, (child, field) => {
    const held = `${expression}.${child.name}`;
    const named = getNamedType(field.type);
    if (isLeafType(named)) return held;
    if (!isObjectType(named) && !isInterfaceType(named))
      throw new Error(`${type.name}.${child.name} is neither a leaf nor an object`);
    if (!isListType(getNullableType(field.type))) return valueOf(compilation, held, named, child);
    const item = `x${String(compilation.field())}`;
    return `[${item} IN ${held} | ${valueOf(compilation, item, named, child)}]`;
  });
  // A link names the types of its ends, whatever is selected: a value the schema cannot serve
  // names its node (the stored-value checks), as a node's `@id` does.
  if (type.name === "Link") entries.push(...LINK_END_TYPES.map((end) => `\`@${end}\`: ${expression}.${end}`));
  return `{${entries.join(", ")}}`;
}

/**
 * A node of an element type as a literal map of what the request selects, with its `id` under
 * `@id` unless `id` itself is selected (a value the schema cannot serve names its node: the
 * stored-value checks). An expression that is not a variable is bound to one first, since nested
 * fields read the node's links.
 */
function nodeValue(
  compilation: Compilation,
  expression: string,
  type: GraphQLObjectType | GraphQLInterfaceType,
  selection: Selection,
  typeTag?: string,
): string {
  if (!isVariable(expression)) {
    const v = `n${String(compilation.field())}`;
    return `[${v} IN [${expression}] WHERE ${v} IS NOT NULL | ${nodeValue(compilation, v, type, selection, typeTag)}][0]`;
  }
  const fields = selected(selection, type);
  const entries = nodeEntries(compilation, expression, type, selection);
  if (!fields.some(([responseKey, child]) => responseKey === "id" && child.name === "id"))
    entries.push(`\`@id\`: ${expression}.id`);
  if (typeTag !== undefined) entries.push(`\`${NODE_TYPE_KEY}\`: ${typeTag}`);
  return `{${entries.join(", ")}}`;
}

/** The entries of node `v`'s map for what `selection` selects of `type`: its fields, none of the keys `@id` and `@type`. */
function nodeEntries(
  compilation: Compilation,
  v: string,
  type: GraphQLObjectType | GraphQLInterfaceType,
  selection: Selection,
): string[] {
  return entriesOf(type, selection, (child, field) => {
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      const property = `${v}.${child.name}`;
      return named.name === "DateTime" ? instantOf(property) : property;
    }
    if (child.name === "neighborhood" || child.name === "pathsTo") {
      // A graph field (contract §7 part 4): a map, or a list of maps, the compiler projects.
      if (!isObjectType(named)) throw new Error(`${type.name}.${child.name} is not an object field`);
      const n = compilation.field();
      const args = graphArguments(child.name, child.args);
      const value = compilation.bind(
        GRAPH_FIELDS[child.name](v, args, n),
        args,
        field.args,
        `f${String(n)}_`,
      );
      const item = `h${String(n)}`;
      const projected = valueOf(compilation, item, named, child);
      return child.name === "neighborhood"
        ? `[${item} IN [${value}] | ${projected}][0]`
        : `[${item} IN ${value} | ${projected}]`;
    }
    const nested = NESTED_FIELDS[`${type.name}.${child.name}`];
    if (nested === undefined || !isObjectType(named))
      throw new Error(`${type.name}.${child.name} has no nested form`);
    const n = compilation.field();
    const target = `${nested.v}${String(n)}`;
    const names = (base: string) => `${base}${String(n)}`;
    const request: FieldRequest = { arguments: child.args, selection: child };
    const bind = (statement: string) => compilation.bind(statement, child.args, field.args, `f${String(n)}_`);
    const pattern = nested.pattern(v, target);
    switch (nested.kind) {
      case "link":
        return `COLLECT { MATCH ${pattern} RETURN ${nodeValue(compilation, target, named, child)} ORDER BY ${target}.id LIMIT 1 }[0]`;
      case "list": {
        const order = listOrder(nested.type, child.args.orderBy);
        const statement = bind(
          lines(
            `MATCH ${pattern}`,
            // Duplicate relationships count once (§7).
            `WITH DISTINCT ${target}`,
            ...whereAny(kept(nested.type, target, request)),
            `RETURN ${nodeValue(compilation, target, named, child)}`,
            `ORDER BY ${orderBy(target, order)}`,
            `LIMIT ${pageSize(request, "limit")}`,
          ),
        );
        return `COLLECT {\n${indent([statement]).join("\n")}\n}`;
      }
      case "connection":
        return bind(
          nestedConnection(pattern, target, nested.type, request, names, (parts) =>
            connectionValue(compilation, parts, named, child),
          ),
        );
    }
  });
}

/**
 * A connection as `selection` selects it, each field written from the connection's parts
 * (connections.ts): `nodes` and `edges` over the page's rows, each row projected as a node, an
 * edge's `cursor` its row's position, `totalCount` and `pageInfo` as the parts count them.
 */
function connectionValue(
  compilation: Compilation,
  parts: ConnectionParts,
  type: GraphQLObjectType,
  selection: Selection,
): string {
  const row = () => `x${String(compilation.field())}`;
  return mapOf(type, selection, (child, field) => {
    const named = getNamedType(field.type);
    switch (child.name) {
      case "totalCount":
        return parts.totalCount;
      case "nodes": {
        const x = row();
        return `[${x} IN ${parts.page} | ${nodeValue(compilation, x, objectType(named), child)}]`;
      }
      case "edges": {
        const x = row();
        const edge = mapOf(objectType(named), child, (edgeField, field) => {
          if (edgeField.name === "cursor") return parts.cursor(x);
          if (edgeField.name === "node")
            return nodeValue(compilation, x, objectType(getNamedType(field.type)), edgeField);
          return notAPart(named, edgeField);
        });
        return `[${x} IN ${parts.page} | ${edge}]`;
      }
      case "pageInfo":
        return mapOf(objectType(named), child, (info) => {
          if (info.name === "hasNextPage") return parts.hasNextPage;
          if (info.name === "endCursor") return parts.endCursor;
          return notAPart(named, info);
        });
      default:
        return notAPart(type, child);
    }
  });
}

/** A field of a connection's types that its parts do not write: the schema has grown past them. */
const notAPart = (type: GraphQLNamedType, field: Selection): never => {
  throw new Error(`${type.name}.${field.name} is not a part of a connection`);
};

/**
 * The entries (`` `responseKey`: value ``) of what `selection` selects of `type`, each field's
 * value as `read` writes it; `__typename` is GraphQL's own.
 */
function entriesOf(
  type: GraphQLObjectType | GraphQLInterfaceType,
  selection: Selection,
  read: (child: Selection, field: GraphQLField<unknown, unknown>) => string,
): string[] {
  return selected(selection, type).flatMap(([responseKey, child]) => {
    if (child.name === "__typename") return [];
    const field = type.getFields()[child.name];
    if (field === undefined) throw new Error(`No field ${type.name}.${child.name}`);
    return [`${key(responseKey)}: ${read(child, field)}`];
  });
}

/** A literal map of what `selection` selects of `type` ({@link entriesOf}). */
const mapOf = (...args: Parameters<typeof entriesOf>) => `{${entriesOf(...args).join(", ")}}`;

/** The element type of a connection type (`DecisionConnection`), or undefined for another type. */
const connectionElement = (type: GraphQLNamedType): ElementType | undefined => {
  const element = type.name.endsWith("Connection") ? type.name.slice(0, -"Connection".length) : "";
  return ELEMENTS.has(element) ? (element as ElementType) : undefined;
};

const objectType = (type: GraphQLNamedType): GraphQLObjectType => {
  if (!isObjectType(type)) throw new Error(`${type.name} is not an object type`);
  return type;
};

const isVariable = (expression: string) => /^[A-Za-z_]\w*$/.test(expression);

/**
 * A `Node` of any element type (contract §7 part 4) as its type's projection, tagged with its
 * type ({@link NODE_TYPE_KEY}): the interface's fields once for every type, and for each type a
 * fragment names (`... on Decision { title }`) its own fields added in a branch of its own. A
 * key both select is rendered in each branch from the merged selection, and for the
 * other types from the interface's alone: only such keys appear more than once in the text.
 */
function anyNodeValue(
  compilation: Compilation,
  expression: string,
  type: GraphQLInterfaceType,
  selection: Selection,
): string {
  if (!isVariable(expression)) {
    const v = `n${String(compilation.field())}`;
    return `[${v} IN [${expression}] WHERE ${v} IS NOT NULL | ${anyNodeValue(compilation, v, type, selection)}][0]`;
  }
  const common = selection.fieldsByTypeName[type.name] ?? {};
  const owns = NODE_TYPES.flatMap(([, label]) => {
    const own = selection.fieldsByTypeName[label];
    return own === undefined || Object.keys(own).length === 0 ? [] : [[label, own] as const];
  });
  const merged = new Set(owns.flatMap(([, own]) => Object.keys(own).filter((key) => key in common)));
  const pick = (keep: (key: string) => boolean) =>
    Object.fromEntries(Object.entries(common).filter(([key]) => keep(key)));
  const only = (typeName: string, fields: Record<string, Selection>) => ({
    ...selection,
    fieldsByTypeName: { [typeName]: fields },
  });
  const shared = nodeValue(
    compilation,
    expression,
    type,
    only(
      type.name,
      pick((key) => !merged.has(key)),
    ),
    elementTypeOf(expression),
  );
  const m = `m${String(compilation.field())}`;
  const added = (entries: string[]) => (entries.length === 0 ? m : `${m} {.*, ${entries.join(", ")}}`);
  const branches = owns.flatMap(([label, own]) => {
    const fields = pick((key) => merged.has(key));
    mergeSelections(fields, own);
    const objectType = compilation.schema.getType(label);
    if (!isObjectType(objectType)) throw new Error(`No type ${label}`);
    const entries = nodeEntries(compilation, expression, objectType, only(label, fields));
    return entries.length === 0 ? [] : [`WHEN ${expression}:${label} THEN ${added(entries)}`];
  });
  const rest = pick((key) => merged.has(key));
  const others = added(nodeEntries(compilation, expression, type, only(type.name, rest)));
  if (branches.length === 0) return others === m ? shared : `[${m} IN [${shared}] | ${others}][0]`;
  return `[${m} IN [${shared}] | CASE ${branches.join(" ")} ELSE ${others} END][0]`;
}

/**
 * A `DateTime` property as the service writes it (src/graphql/stored-values.ts): a DATETIME of the
 * years 0000–9999 as its epoch milliseconds (finer digits truncated), one beyond them as
 * 'out of range' (its milliseconds may not fit an integer), a value of another type as false, for
 * the field's check to answer as a field error (contract §3). One flat `CASE`, the common case
 * first: a servable test is null for null and for a value of another type, false beyond the years.
 */
export function instantOf(property: string): string {
  return (
    `CASE WHEN ${servableInstant(property)} THEN ${property}.epochMillis WHEN ${property} IS NULL THEN null ` +
    `WHEN ${property} IS :: ZONED DATETIME THEN 'out of range' ELSE false END`
  );
}

/** The lines a statement's last `RETURN` may be followed by: its continuation, or its order and page. */
const AFTER_RETURN = /^(?:\s|ORDER BY |SKIP |LIMIT )/;

/**
 * `statement` continued by the projection instead of wrapped in `CALL { }`: its last `RETURN`
 * (at the start of a line, returning `column` alone) as a `WITH`. Neo4j plans each `CALL { }` as a
 * unit of its own, and this one held nothing but the whole statement: without it, the same rows
 * plan in about 0.95× the time (`EXPLAIN` after `db.clearQueryCaches()`, 40 of bench:cold's
 * shapes). Undefined when the statement has a `UNION` of its own, which a `WITH` cannot end.
 */
export function continued(statement: string, column: string): string | undefined {
  const rows = statement.split("\n");
  if (rows.some((row) => row.startsWith("UNION"))) return undefined;
  let last = rows.length - 1;
  while (last >= 0 && AFTER_RETURN.test(rows[last] ?? "")) last--;
  const clause = rows[last] ?? "";
  // A `RETURN` spanning lines does not match: the wrapper stays.
  if (!new RegExp(`^RETURN (?:DISTINCT )?(?:${column}|.* AS ${column})$`).test(clause)) return undefined;
  return [...rows.slice(0, last), clause.replace(/^RETURN/, "WITH"), ...rows.slice(last + 1)].join("\n");
}
