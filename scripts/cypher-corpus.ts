// The Cypher of many generated documents, without a database, to diff a change of the compiler:
// `npm run cypher:corpus -- <file> [count] [seed]` writes one line per document of the fuzz test's
// generator (test/support/fuzz.ts), its root fields' queries as JSON (or its error), so two runs
// before and after a refactor compare with `cmp`.
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";
import { documentArbitrary } from "../test/support/fuzz.js";

const [file, count = "3000", seed = "7"] = process.argv.slice(2);
if (file === undefined || file === "--help") {
  console.log("Usage: npm run cypher:corpus -- <output file> [documents, 3000] [seed, 7]");
  process.exit(file === undefined ? 2 : 0);
}
const schema = await translatingSchema();
const documents = fc.sample(documentArbitrary(schema), { numRuns: Number(count), seed: Number(seed) });
const lines: string[] = [];
let compiled = 0;
for (const { text, variables } of documents) {
  try {
    const queries = await translateDocument(schema, text, variables);
    if (queries.length > 0) compiled++;
    lines.push(JSON.stringify(queries));
  } catch (error) {
    lines.push(`error ${(error as Error).message}`);
  }
}
writeFileSync(file, `${lines.join("\n")}\n`);
console.log(`${String(documents.length)} documents, ${String(compiled)} with Cypher, written to ${file}`);
