import { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";

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
/** A query that returns one column at its very end: every root field query the library writes. */
const ONE_COLUMN = /\bRETURN\s+[A-Za-z_]\w*\s+AS\s+([A-Za-z_]\w*)\s*$/;

/**
 * What a request sends Neo4j for its root fields' queries (src/neo4j/runner.ts): one query when
 * there are several and they combine, else each as it is.
 */
export function queriesSent(queries: readonly CypherQuery[]): CypherQuery[] {
  const combined = queries.length > 1 ? combineQueries(queries) : undefined;
  return combined === undefined ? [...queries] : [combined];
}

/**
 * Several root fields' queries as one: `RETURN COLLECT { q0 } AS r0, COLLECT { q1 } AS r1, …`,
 * each query a subquery expression returning its rows as one list, its parameters renamed apart
 * (`$param0` of the second query becomes `$r1_param0`). One round trip, and one snapshot of the
 * graph for all of them. Undefined when the queries do not all start with the same options and
 * end with one returned column, which is what `COLLECT { }` needs.
 */
export function combineQueries(queries: readonly CypherQuery[]): CombinedQuery | undefined {
  const parts = queries.map(({ text }) => {
    const options = OPTIONS.exec(text)?.[0] ?? "";
    return { options, body: text.slice(options.length), column: ONE_COLUMN.exec(text)?.[1] };
  });
  const options = parts[0]?.options;
  if (parts.some((part) => part.column === undefined || part.options !== options)) return undefined;

  const parameters: Record<string, unknown> = {};
  const columns = parts.map((part, index) => {
    const prefix = `r${String(index)}_`;
    const own = queries[index]?.parameters ?? {};
    for (const [name, value] of Object.entries(own)) parameters[prefix + name] = value;
    const body = renameParameters(part.body, (name) => (Object.hasOwn(own, name) ? prefix + name : name));
    return `COLLECT {\n${body}\n} AS r${String(index)}`;
  });
  return {
    text: `${options ?? ""}RETURN ${columns.join(",\n")}`,
    parameters,
    split: (result) => {
      const [record] = result.records;
      return parts.map((part, index) => {
        const rows = (record?.get(`r${String(index)}`) ?? []) as unknown[];
        const key = part.column ?? "";
        return { ...result, records: rows.map((row) => new Neo4jRecord([key], [row])) };
      });
    },
  };
}

/**
 * Renames `$name` parameters outside string literals, quoted names and comments. Cypher escapes
 * inside literals with a backslash; a quoted name doubles its backtick, which reads here as two
 * quoted names in a row, the same text.
 */
export function renameParameters(text: string, rename: (name: string) => string): string {
  const special = /['"`$]|\/[/*]/g;
  const name = /[A-Za-z_]\w*/y;
  let out = "";
  let copied = 0;
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    const at = match.index;
    const token = match[0];
    let end: number;
    if (token === "$") {
      name.lastIndex = at + 1;
      const found = name.exec(text)?.[0];
      if (found === undefined) continue;
      out += `${text.slice(copied, at)}$${rename(found)}`;
      copied = at + 1 + found.length;
      special.lastIndex = copied;
      continue;
    }
    if (token === "//" || token === "/*") {
      const close = token === "//" ? "\n" : "*/";
      const found = text.indexOf(close, at + 2);
      end = found === -1 ? text.length : found + close.length;
    } else {
      end = at + 1;
      while (end < text.length && text[end] !== token) end += text[end] === "\\" && token !== "`" ? 2 : 1;
      end = Math.min(end + 1, text.length);
    }
    special.lastIndex = end;
  }
  return out + text.slice(copied);
}
