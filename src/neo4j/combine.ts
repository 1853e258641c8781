import { LRUCache } from "lru-cache";
import { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";
import { renameParameters } from "../cypher/text.js";

/** One Cypher query as the Neo4j GraphQL Library hands it to its runner. */
export interface CypherQuery {
  text: string;
  parameters: Record<string, unknown>;
}

export interface CombinedQuery extends CypherQuery {
  /** Each original query's result, in order, from the combined query's result. */
  split: (result: QueryResult) => QueryResult[];
}

/** `CYPHER 5` and other option lines the library writes before a query. */
const OPTIONS = /^(?:CYPHER\b[^\n]*\n)*/;
/**
 * The column a query returns when it ends with a `RETURN` of one item, as every root field's query
 * does (src/cypher/compile.ts: `RETURN <one expression> AS this`, its subqueries indented; the
 * library's `RETURN this0 AS this`): the last clause starting a line is that `RETURN`, and no comma
 * stands outside its brackets and quotes.
 */
function returnedColumn(text: string): string | undefined {
  const at = text.lastIndexOf("\nRETURN ");
  const clause = at === -1 ? "" : text.slice(at + 1);
  let depth = 0;
  for (let index = 0; index < clause.length; index++) {
    const character = clause[index];
    if (character === "'" || character === '"' || character === "`") {
      for (index++; index < clause.length && clause[index] !== character; index++)
        if (clause[index] === "\\" && character !== "`") index++;
    } else if (character === "(" || character === "[" || character === "{") depth++;
    else if (character === ")" || character === "]" || character === "}") depth--;
    else if (character === "," && depth === 0) return undefined;
  }
  return depth === 0 ? /\bAS\s+([A-Za-z_]\w*)\s*$/.exec(clause)?.[1] : undefined;
}

/**
 * What a request sends Neo4j for its root fields' queries once their combination is planned
 * (src/neo4j/runner.ts; pre-planning plans it): one query when there are several and they
 * combine, else each as it is.
 */
export function queriesSent(queries: readonly CypherQuery[]): CypherQuery[] {
  const combined = queries.length > 1 ? combineQueries(queries) : undefined;
  return combined === undefined ? [...queries] : [combined];
}

/**
 * Orders queries by their texts: the order in which one text holds several root fields', so that
 * a document asking the same root fields in another order is the same text (one plan).
 */
export const byText = (a: CypherQuery, b: CypherQuery): number =>
  a.text < b.text ? -1 : a.text > b.text ? 1 : 0;

/**
 * Several root fields' queries as one: `RETURN COLLECT { q0 } AS r0, COLLECT { q1 } AS r1, …`,
 * each query a subquery expression returning its rows as one list, in the order of their texts
 * ({@link byText}), its parameters renamed apart (`$param0` of the second query becomes
 * `$r1_param0`). One round trip and one statement for all of them. Undefined when the queries do
 * not all start with the same options and end with one returned column, which is what `COLLECT { }`
 * needs.
 */
export function combineQueries(queries: readonly CypherQuery[]): CombinedQuery | undefined {
  const parts = queries.map((query) => {
    const options = OPTIONS.exec(query.text)?.[0] ?? "";
    return { query, options, body: query.text.slice(options.length), column: returnedColumn(query.text) };
  });
  const options = parts[0]?.options;
  if (parts.some((part) => part.column === undefined || part.options !== options)) return undefined;

  const ordered = [...parts].sort((a, b) => byText(a.query, b.query));
  // Each query's column: its place in that order.
  const columnOf = new Map(ordered.map((part, column) => [part, `r${String(column)}`]));
  const parameters: Record<string, unknown> = {};
  const columns = ordered.map(({ query, body }, column) => {
    const prefix = `r${String(column)}_`;
    const own = query.parameters;
    for (const [name, value] of Object.entries(own)) parameters[prefix + name] = value;
    const renamed = renameParameters(body, (name) => (Object.hasOwn(own, name) ? prefix + name : name));
    return `COLLECT {\n${renamed}\n} AS r${String(column)}`;
  });
  return {
    text: `${options ?? ""}RETURN ${columns.join(",\n")}`,
    parameters,
    split: (result) => {
      const [record] = result.records;
      return parts.map((part) => {
        const rows = (record?.get(columnOf.get(part) ?? "") ?? []) as unknown[];
        const keys = [part.column ?? ""];
        // One field lookup for every row, as the driver shares one among its records: a record
        // given none builds its own dictionary (1.5 % of the service's CPU in the wide query's profile).
        const lookup = { [keys[0] ?? ""]: 0 };
        return { ...result, records: rows.map((row) => new Neo4jRecord(keys, [row], lookup)) };
      });
    },
  };
}

/** Remembered combinations: at most this many, and this many characters of Cypher. */
const REMEMBERED = { combinations: 1_000, characters: 5_000_000 };

/**
 * Combinations remembered by their parts. A document asked again with the same variables hands the
 * runner the same root fields' queries, the same objects (src/graphql/compiled-fields.ts remembers
 * each compilation), so it gets the same combined query back: not built again, and the same text
 * object, whose hash the first-askings mirror and the last values computed once (the wide query's
 * five root fields: about 26 µs a request on this VM, building and hashing 4,353 characters).
 * Keyed by the parts' parameters objects, each numbered the first time it is seen; a hit is
 * checked against the parts' texts too, so a reused object can never stand for another query.
 */
export class CombinedQueries {
  private readonly numbers = new WeakMap<object, number>();
  private nextNumber = 0;
  private readonly known = new LRUCache<string, { parts: CypherQuery[]; combined: CombinedQuery }>({
    max: REMEMBERED.combinations,
    maxSize: REMEMBERED.characters,
    sizeCalculation: ({ combined }) => Math.max(1, combined.text.length),
  });

  /** {@link combineQueries} of `queries`, remembered. */
  of(queries: readonly CypherQuery[]): CombinedQuery | undefined {
    const key = queries.map(({ parameters }) => this.numberOf(parameters)).join(" ");
    const known = this.known.get(key);
    if (
      known !== undefined &&
      known.parts.every(
        (part, index) => part.text === queries[index]?.text && part.parameters === queries[index].parameters,
      )
    )
      return known.combined;
    const combined = combineQueries(queries);
    if (combined !== undefined)
      this.known.set(key, { parts: queries.map(({ text, parameters }) => ({ text, parameters })), combined });
    return combined;
  }

  private numberOf(parameters: object): number {
    let number = this.numbers.get(parameters);
    if (number === undefined) {
      number = this.nextNumber++;
      this.numbers.set(parameters, number);
    }
    return number;
  }
}
