// Values the ingest stored that the schema cannot serve (contract §3, field errors; §8): a missing
// non-null property, an enum value outside its enum, a property of another type, a date the wire
// format cannot write. Each property field of the domain types checks its value before graphql-js
// serialises it and answers a field error naming the node's label, `id` and property, with the
// catalogue's `invalid_stored_value`; graphql-js then propagates `null` as the specification says.
import {
  getNamedType,
  GraphQLError,
  isEnumType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from "graphql";
import neo4j, { isDate } from "neo4j-driver";

/**
 * The key under which a node's projection carries its `id` when `id` itself is not selected
 * (src/cypher/compile.ts adds it to every node's projection). No GraphQL alias can be this name.
 */
export const PROJECTED_ID = "@id";

/** What is wrong with a stored value. */
export type StoredValueProblem = "missing" | "enum" | "type" | "range";

/** The years a `Date` or `DateTime` of the wire format can write (`YYYY-MM-DD…`). */
const FIRST_INSTANT_MS = Date.parse("0000-01-01T00:00:00.000Z");
const AFTER_LAST_INSTANT_MS = Date.parse("+010000-01-01T00:00:00.000Z");
/** What a query projects for a DATETIME beyond the years 0000–9999 (src/cypher/compile.ts). */
const OUT_OF_RANGE = "out of range";

/** A field error for a stored value the schema cannot serve (contract §3). */
export class InvalidStoredValue extends GraphQLError {
  override name = "InvalidStoredValue";

  constructor(
    /** The node's label (`Decision`), for the counter and the log. */
    readonly label: string,
    readonly property: string,
    /** The node's `id` when it is a string, for the log. */
    readonly nodeId: string | undefined,
    readonly problem: StoredValueProblem,
    message: string,
  ) {
    super(message, { extensions: { code: "invalid_stored_value" } });
  }
}

const int = (value: unknown): number | undefined => {
  const number = neo4j.isInt(value) ? (value.inSafeRange() ? value.toNumber() : undefined) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
};

/**
 * The value to serialise for a stored value of `type`, or its problem: a `DateTime` as ISO 8601 in
 * UTC with three fractional digits (the library's own scalar keeps such text as it is); a `Date`
 * arrives as the driver's `Date`.
 */
export function servable(type: GraphQLNamedType, value: unknown): { value: unknown } | StoredValueProblem {
  if (isEnumType(type)) {
    if (typeof value !== "string") return "type";
    return type.getValue(value) === undefined ? "enum" : { value };
  }
  switch (type.name) {
    case "ID":
    case "String":
      return typeof value === "string" ? { value } : "type";
    case "Boolean":
      return typeof value === "boolean" ? { value } : "type";
    case "Int": {
      const number = int(value);
      // An INTEGER beyond 2^53 is a whole number too, beyond the range of Int.
      if (number === undefined) return neo4j.isInt(value) ? "range" : "type";
      if (!Number.isInteger(number)) return "type";
      return number >= -(2 ** 31) && number < 2 ** 31 ? { value: number } : "range";
    }
    case "Float": {
      const number = int(value);
      if (number !== undefined) return { value: number };
      // A NaN, an infinity, an INTEGER beyond 2^53: a number JSON cannot write, or not exactly.
      return typeof value === "number" || neo4j.isInt(value) ? "range" : "type";
    }
    case "Date": {
      if (!isDate(value)) return "type";
      const year = int(value.year) ?? -1;
      return year >= 0 && year <= 9999 ? { value } : "range";
    }
    case "DateTime": {
      // A query projects a DATETIME of the years 0000–9999 as its epoch milliseconds, one beyond
      // them as 'out of range', any other value as false (src/cypher/compile.ts, instantOf). A
      // year beyond four digits is written with its sign, which no wire format reads back.
      if (value === OUT_OF_RANGE) return "range";
      const ms = int(value);
      if (ms === undefined || !Number.isInteger(ms)) return "type";
      return ms >= FIRST_INSTANT_MS && ms < AFTER_LAST_INSTANT_MS
        ? { value: new Date(ms).toISOString() }
        : "range";
    }
    default:
      return { value };
  }
}

/** The message of a problem: the node, its property and what is wrong, never the stored value. */
export function problemMessage(
  node: string,
  property: string,
  type: GraphQLNamedType,
  problem: StoredValueProblem,
): string {
  const a = /^[aeiou]/i.test(property) ? "an" : "a";
  switch (problem) {
    case "missing":
      return `${node} has no ${property}, which the schema requires.`;
    case "enum":
      return `${node} has ${a} ${property} that is not one of the values of ${type.name}.`;
    case "type":
      return `${node} has ${a} ${property} stored as another type than the schema's ${type.name}.`;
    case "range":
      return type.name === "Int"
        ? `${node} has ${a} ${property} outside the range of Int (32-bit).`
        : type.name === "Float"
          ? `${node} has ${a} ${property} that Float cannot write: not a finite number, or an integer beyond ±2^53.`
          : `${node} has ${a} ${property} outside the years 0000–9999, which ${type.name} cannot write.`;
  }
}

/** How a message names a node: its label and `id`. */
function nodeName(label: string, id: unknown): string {
  if (typeof id === "string")
    return `${label} ${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)}`;
  return id === null || id === undefined ? `${label} (without an id)` : `${label} (whose id is not a string)`;
}

/** What the library's field resolver (which reads an aliased field's value under its alias) returns. */
export const aliasedValue: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) => {
  if (typeof source !== "object" || source === null) return undefined;
  const [node] = info.fieldNodes;
  const key = node?.alias?.value ?? info.fieldName;
  return (source as Record<string, unknown>)[key];
};

function guard(
  field: GraphQLField<unknown, unknown>,
  describe: (
    source: Record<string, unknown>,
    info: GraphQLResolveInfo,
  ) => { label: string; id?: unknown; node: string },
  property = field.name,
): void {
  // The stored value as the query projected it: not through the library's resolvers of `Int`,
  // `Float` and `ID` fields, which turn a text into a number (`"0.5"` into 0, `"abc"` into 0) and an
  // INTEGER beyond 2^53 into a float, values the filters and orders count as absent.
  const read = aliasedValue;
  const type = getNamedType(field.type);
  const required = isNonNullType(field.type);
  field.resolve = (source, args, context, info) => {
    const value: unknown = read(source, args, context, info);
    const result =
      value === null || value === undefined
        ? required
          ? "missing"
          : { value: null }
        : servable(type, value);
    if (typeof result === "object") return result.value;
    const { label, id, node } = describe(source as Record<string, unknown>, info);
    throw new InvalidStoredValue(
      label,
      property,
      typeof id === "string" ? id : undefined,
      result,
      problemMessage(node, property, type, result),
    );
  };
}

/**
 * Checks the node ids a `Link` serves (contract §7 part 4): the `id` of the node at each end, named
 * by its type (`fromType`, `toType`: the label's `NodeType`), like the node's own `id` field.
 */
function guardLinkEnds(schema: GraphQLSchema, labels: Readonly<Record<string, string>>): void {
  const link = schema.getType("Link");
  if (!isObjectType(link)) return;
  for (const end of ["from", "to"] as const) {
    const field = link.getFields()[`${end}Id`];
    if (field === undefined) continue;
    guard(
      field,
      (source, info) => {
        // The compiler projects each end's type under `@fromType` and `@toType` (compile.ts), and
        // its id under the field's alias, if it has one.
        const label = labels[String(source[`@${end}Type`])] ?? "A node";
        const id: unknown = aliasedValue(source, {}, undefined, info);
        return { label, id, node: nodeName(label, id) };
      },
      "id",
    );
  }
}

/**
 * Checks every stored value the schema serves: each leaf field of a node type (`nodeTypes`; their
 * leaves are properties, their links `@cypher` objects), each group dimension that is a
 * property of the grouped nodes (`DecisionGroup.status`: its statement serves a value the schema
 * cannot as the group without one, src/cypher/groups.ts, so this check is a second line), and
 * the node ids of a `Link`.
 */
export function guardStoredValues(
  schema: GraphQLSchema,
  nodeTypes: readonly string[],
  /** The label of each `NodeType` value, for the ends of a `Link`. */
  labels: Readonly<Record<string, string>> = {},
): void {
  guardLinkEnds(schema, labels);
  for (const label of nodeTypes) {
    const nodeType = schema.getType(label);
    if (!isObjectType(nodeType)) throw new Error(`No node type ${label}`);
    const properties = Object.values(nodeType.getFields()).filter((field) =>
      isLeafType(getNamedType(field.type)),
    );
    for (const field of properties) {
      guard(field, (source) => {
        const id = PROJECTED_ID in source ? source[PROJECTED_ID] : source.id;
        return { label, id, node: nodeName(label, id) };
      });
    }
    const groupType = schema.getType(`${label}Group`);
    if (!isObjectType(groupType)) continue;
    const names = new Set(properties.map((field) => field.name));
    for (const field of Object.values(groupType.getFields())) {
      if (names.has(field.name) && isLeafType(getNamedType(field.type)))
        guard(field, () => ({ label, node: `A group of ${label} nodes` }));
    }
  }
  guardStatistics(schema);
}

/**
 * Checks a group's statistics: a `sum` of stored values can be past the largest Float (two near
 * 1.8e308), and so can an `avg` no way of computing fits (src/cypher/groups.ts); the schema answers
 * either as a field error at its path, not as a null (null is "no values", contract §7). `min` and
 * `max` of servable values always fit, and are checked alike.
 */
function guardStatistics(schema: GraphQLSchema): void {
  const stats = schema.getType("NumberStats");
  if (!isObjectType(stats)) return;
  for (const name of ["min", "max", "avg", "sum"]) {
    const field = stats.getFields()[name];
    if (field !== undefined) guard(field, () => ({ label: "NumberStats", node: "A group's NumberStats" }));
  }
}
