// Writes the `@cypher` statements of src/graphql/cypher-templates.ts into typeDefs/*.graphql:
// `npm run typedefs`. The SDL files stay the readable, committed source the service loads;
// test/typedefs.test.ts fails when one drifts from its template.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { STATEMENTS } from "../src/graphql/cypher-templates.js";
import { typeDefsDir } from "../src/graphql/schema.js";
import { cypherFields, withTemplateStatements } from "../src/graphql/typedefs-sync.js";

const files = (await readdir(typeDefsDir)).filter((name) => name.endsWith(".graphql")).sort();
const templated = new Set<string>();
for (const name of files) {
  const path = join(typeDefsDir, name);
  const source = await readFile(path, "utf8");
  for (const { field } of cypherFields(source)) templated.add(field);
  const text = await format(withTemplateStatements(source), {
    ...(await resolveConfig(path)),
    filepath: path,
  });
  if (text !== source) {
    await writeFile(path, text);
    console.log(`typeDefs/${name} written`);
  }
}
const unused = Object.keys(STATEMENTS).filter((field) => !templated.has(field));
if (unused.length > 0) {
  console.error(`Templates without a @cypher field in typeDefs/: ${unused.join(", ")}`);
  process.exitCode = 1;
}
