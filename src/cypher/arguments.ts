// What a statement reads for the arguments it is given. Most are read as the request gives them;
// two are read as the service prepares them, so that Neo4j needs no plugin for either: a cursor
// as the position it names, and a search as its word rule's regular expression (with the
// full-text index's query for its candidates).
import { positionOf } from "./cursor.js";
import { searchParameter } from "./search.js";

/**
 * A field's arguments as its statement reads them: `$after` is the position the cursor names
 * (cursor.ts), `$search` its words' pattern and the index's query for them (search.ts). The
 * request pipeline has checked both (src/graphql/argument-checks.ts); null and absent stay as they
 * are (not given).
 */
export function cypherArguments(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { after, search } = args;
  return {
    ...args,
    ...(typeof after === "string" ? { after: positionOf(after) } : {}),
    ...(typeof search === "string" ? { search: searchParameter(search) } : {}),
  };
}
