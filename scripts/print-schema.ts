// Writes the public schema the service serves to schema.graphql: `npm run schema:print`.
// The test suite fails when the two differ, so a typeDefs change shows up in review as a
// schema.graphql diff.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { printPublicSchema } from "../src/graphql/public-schema.js";
import { projectRoot } from "../src/project-root.js";

await writeFile(join(projectRoot, "schema.graphql"), await printPublicSchema());
console.log("schema.graphql written");
