// The Cypher a document translates to, without a database: `npm run cypher -- '<document>' ['<variables JSON>']`.
// Each root field's query with its length and parameters, then, for several, the one query the
// service sends (src/neo4j/combine.ts).
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";
import { queriesSent } from "../src/neo4j/combine.js";

const [document, variables] = process.argv.slice(2);
if (document === undefined || document === "--help") {
  console.log("Usage: npm run cypher -- '<GraphQL document>' ['<variables as JSON>']");
  process.exit(document === undefined ? 2 : 0);
}
const queries = await translateDocument(
  await translatingSchema(),
  document,
  variables === undefined ? {} : (JSON.parse(variables) as Record<string, unknown>),
);
for (const [index, query] of queries.entries()) {
  console.log(`// root field ${String(index + 1)}: ${String(query.text.length)} characters`);
  console.log(query.text);
  console.log(`// parameters: ${JSON.stringify(query.parameters)}\n`);
}
const sent = queriesSent(queries);
if (queries.length > 1 && sent.length === 1)
  console.log(`// sent as one query of ${String(sent[0]?.text.length)} characters`);
