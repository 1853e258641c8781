// A TypeScript oracle for `where` (contract §7, v1 additions part 3): the suite database's domain
// graph read back whole with plain Cypher (every node's stored properties, every relationship),
// and each `…Where` evaluated over it as the contract words it, independently of src/cypher/.
import { isDate, isInt } from "neo4j-driver";
import { DOMAIN, ELEMENT_TYPES, propertyType, type ElementType, type Link } from "../../src/domain/table.js";
import { byCodePoint } from "./code-points.js";
import { testDatabase, testDriver } from "./test-neo4j.js";

/** A stored node: its label, its properties as the driver reads them, and an instant's epoch parts. */
export interface StoredNode {
  key: string;
  label: ElementType;
  properties: Record<string, unknown>;
  /** For each `ZONED DATETIME` property: its epoch seconds and nanosecond (UTC). */
  instants: Record<string, { seconds: number; nanosecond: number }>;
}

export interface StoredGraph {
  nodes: StoredNode[];
  relationships: { type: string; from: string; to: string }[];
}

/** What `properties` holds for a `ZONED DATETIME`: Bolt cannot carry Neo4j's farthest instants whole. */
const INSTANT = Symbol("instant");

/**
 * Reads the whole domain graph (a fixture's few dozen nodes). An instant of the years 0000–9999 is
 * read as its epoch seconds and nanosecond; one beyond them is only marked (Neo4j overflows reading
 * the epoch seconds of its farthest instants, and Bolt sending them whole).
 */
export async function readGraph(): Promise<StoredGraph> {
  const { records } = await testDriver().executeQuery(
    `MATCH (n) WHERE any(label IN labels(n) WHERE label IN $labels)
     RETURN elementId(n) AS key, [label IN labels(n) WHERE label IN $labels][0] AS label,
            [k IN keys(n) | CASE
               WHEN NOT n[k] IS :: ZONED DATETIME THEN [k, n[k]]
               WHEN datetime('-0001-12-30T00Z') <= n[k] < datetime('+10000-01-02T00Z') THEN [k, null, n[k].epochSeconds, n[k].nanosecond]
               ELSE [k, null, 'beyond the years 0000-9999'] END] AS properties`,
    { labels: [...ELEMENT_TYPES] },
    { database: testDatabase },
  );
  const relationships = await testDriver().executeQuery(
    "MATCH (a)-[r]->(b) RETURN type(r) AS type, elementId(a) AS from, elementId(b) AS to",
    {},
    { database: testDatabase },
  );
  return {
    nodes: records.map((record) => {
      const properties = record.get("properties") as [string, unknown, unknown?, unknown?][];
      return {
        key: record.get("key") as string,
        label: record.get("label") as ElementType,
        properties: Object.fromEntries(
          properties.map(([k, value, seconds]) => [k, seconds === undefined ? value : INSTANT]),
        ),
        instants: Object.fromEntries(
          properties
            .filter(([, , seconds]) => seconds !== undefined && typeof seconds !== "string")
            .map(([k, , seconds, nanosecond]) => [
              k,
              { seconds: Number(seconds), nanosecond: Number(nanosecond) },
            ]),
        ),
      };
    }),
    relationships: relationships.records.map((record) => ({
      type: record.get("type") as string,
      from: record.get("from") as string,
      to: record.get("to") as string,
    })),
  };
}

/** The instants §3 can serve: 0000-01-01T00:00Z up to, not including, 10000-01-01T00:00Z. */
const FIRST_SECOND = -62_167_219_200;
const AFTER_LAST_SECOND = 253_402_300_800;

const numberOf = (value: unknown): number | undefined => {
  // An integer a float does not hold exactly (beyond ±2^53) is served as no number.
  if (isInt(value)) return value.inSafeRange() ? value.toNumber() : undefined;
  return typeof value === "number" ? value : undefined;
};

/** A stored value as `where` compares it, or `undefined` when it is missing (absent, null, unservable). */
export function present(node: StoredNode, property: string, type: string): unknown {
  const value = node.properties[property];
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case "ID":
    case "String":
      return typeof value === "string" ? value : undefined;
    case "Boolean":
      return typeof value === "boolean" ? value : undefined;
    case "Int": {
      const n = numberOf(value);
      return n !== undefined && Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 ? n : undefined;
    }
    case "Float": {
      const n = numberOf(value);
      return n !== undefined && Number.isFinite(n) ? n : undefined;
    }
    case "Date": {
      if (!isDate(value)) return undefined;
      const year = Number(value.year);
      if (year < 0 || year > 9999) return undefined;
      return `${String(year).padStart(4, "0")}-${String(value.month).padStart(2, "0")}-${String(value.day).padStart(2, "0")}`;
    }
    case "DateTime": {
      const instant = node.instants[property];
      if (value !== INSTANT || instant === undefined) return undefined;
      if (instant.seconds < FIRST_SECOND || instant.seconds >= AFTER_LAST_SECOND) return undefined;
      return instant.seconds * 1000 + Math.floor(instant.nanosecond / 1e6);
    }
    default:
      // An enum: a string (one outside the enum equals no operand).
      return typeof value === "string" ? value : undefined;
  }
}

/** A `DateTime` operand as epoch milliseconds (the contract's forms only), a `Date` one as its text. */
function operand(type: string, value: unknown): unknown {
  if (type !== "DateTime" || typeof value !== "string") return value;
  const match = /^(.*?T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (match === null) throw new Error(`not an instant: ${value}`);
  const [, base = "", fraction = "", zone = ""] = match;
  const millis = fraction.padEnd(3, "0").slice(0, 3);
  const parsed = new Date(`${base}.${millis}${zone}`).getTime();
  if (Number.isNaN(parsed)) throw new Error(`not an instant: ${value}`);
  return parsed;
}

/** Stored values in Neo4j's order: texts by code point, numbers (instants as milliseconds) by value. */
const compare = (a: unknown, b: unknown): number =>
  typeof a === "string" && typeof b === "string" ? byCodePoint(a, b) : (a as number) - (b as number);

function filterHolds(value: unknown, type: string, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([operator, given]) => {
    if (given === null || given === undefined) return true;
    if (operator === "isNull") return (value === undefined) === given;
    if (value === undefined) return false;
    const target = operand(type, given);
    switch (operator) {
      case "eq":
        return compare(value, target) === 0;
      case "in":
        return (target as unknown[]).some((item) => compare(value, operand(type, item)) === 0);
      case "lt":
        return compare(value, target) < 0;
      case "lte":
        return compare(value, target) <= 0;
      case "gt":
        return compare(value, target) > 0;
      case "gte":
        return compare(value, target) >= 0;
      case "startsWith":
        return (value as string).startsWith(target as string);
      case "endsWith":
        return (value as string).endsWith(target as string);
      case "contains":
        return (value as string).includes(target as string);
      default:
        throw new Error(`unknown operator ${operator}`);
    }
  });
}

/** Evaluates `where` clauses over one stored graph. */
export class WhereOracle {
  private readonly byKey: Map<string, StoredNode>;

  constructor(private readonly graph: StoredGraph) {
    this.byKey = new Map(graph.nodes.map((node) => [node.key, node]));
  }

  /** The nodes of `type`: those with a string `id`, or (`withBadIds`) all of them. */
  rows(type: ElementType, withBadIds = false): StoredNode[] {
    return this.graph.nodes.filter(
      (node) => node.label === type && (withBadIds || typeof node.properties.id === "string"),
    );
  }

  /** The distinct targets of `link` from `node`, in its stored direction. */
  targets(node: StoredNode, link: Link): StoredNode[] {
    const keys = new Set(
      this.graph.relationships
        .filter(
          (r) => r.type === link.relationship && (link.direction === "out" ? r.from : r.to) === node.key,
        )
        .map((r) => (link.direction === "out" ? r.to : r.from)),
    );
    return [...keys]
      .map((key) => this.byKey.get(key))
      .filter((target): target is StoredNode => target !== undefined && target.label === link.to)
      .filter((target) =>
        Object.entries(link.only ?? {}).every(([property, value]) => target.properties[property] === value),
      );
  }

  /** Whether `node` of `type` matches `where`. */
  holds(type: ElementType, node: StoredNode, where: unknown): boolean {
    if (where === null || where === undefined) return true;
    const row = DOMAIN[type];
    return Object.entries(where as Record<string, unknown>).every(([field, value]) => {
      if (value === null || value === undefined) return true;
      if (field === "AND") return (value as unknown[]).every((item) => this.holds(type, node, item));
      if (field === "OR") return (value as unknown[]).some((item) => this.holds(type, node, item));
      if (field === "NOT") return !this.holds(type, node, value);
      const stored = row.properties[field];
      if (stored !== undefined) {
        const scalar = propertyType(stored).name;
        return filterHolds(present(node, field, scalar), scalar, value as Record<string, unknown>);
      }
      const link = row.links[field];
      if (link === undefined) throw new Error(`${type} has no ${field}`);
      const targets = this.targets(node, link);
      if (link.kind === "single") {
        // The target §7 serves: the lowest id.
        const [served] = targets.sort((a, b) => compare(a.properties.id, b.properties.id));
        return served !== undefined && this.holds(link.to, served, value);
      }
      return Object.entries(value as Record<string, unknown>).every(([form, condition]) => {
        if (condition === null || condition === undefined) return true;
        const matching = (target: StoredNode) => this.holds(link.to, target, condition);
        switch (form) {
          case "some":
            return targets.some(matching);
          case "none":
            return !targets.some(matching);
          case "all":
            return targets.every(matching);
          case "count":
            return filterHolds(targets.length, "Int", condition as Record<string, unknown>);
          default:
            throw new Error(`unknown link form ${form}`);
        }
      });
    });
  }

  /** The ids of the rows of `type` that `where` keeps (rows without a string `id` left out). */
  ids(type: ElementType, where: unknown, rows = this.rows(type)): string[] {
    return rows
      .filter((node) => typeof node.properties.id === "string" && this.holds(type, node, where))
      .map((node) => node.properties.id as string);
  }

  /** Whether `where` keeps a row whose `id` the schema cannot serve (its answer is a field error, §3). */
  keepsBadId(type: ElementType, where: unknown, rows: StoredNode[]): boolean {
    return rows.some((node) => typeof node.properties.id !== "string" && this.holds(type, node, where));
  }
}
