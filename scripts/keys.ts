// API keys: `npm run keys -- create --name <name> [--scope <scope>]…` (default scope `read`;
// `--scope none` for no scopes) prints the new key once, alone on the last line of stdout;
// `npm run keys -- list`; `npm run keys -- revoke <id>`. Reads the same Neo4j settings as the
// service (NEO4J_URI, or the local server when it is unset).
import { parseArgs } from "node:util";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { loadConfig } from "../src/config.js";
import { applySchemaFiles } from "../src/neo4j/apply-cypher.js";
import { connectNeo4j } from "../src/neo4j/connect.js";

class UsageError extends Error {}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { name: { type: "string" }, scope: { type: "string", multiple: true } },
});
const [command, argument] = positionals;
const usage = "Usage: npm run keys -- create --name <name> [--scope <scope>]… | list | revoke <id>";

const config = loadConfig();
const log = (line: string) => {
  console.error(line);
};
const { driver, local } = await connectNeo4j(config, log);
const store = new ApiKeyStore(driver, config.neo4j.database);
try {
  if (local) await applySchemaFiles(driver, config.neo4j.database);
  switch (command) {
    case "create": {
      if (values.name === undefined || values.name.trim() === "")
        throw new UsageError("create needs --name <name>");
      const scopes = (values.scope ?? ["read"]).filter((scope) => scope !== "none");
      const { key, record } = await store.create(values.name, [...new Set(scopes)]);
      console.log(`Created key ${record.id} "${record.name}" with scopes [${record.scopes.join(", ")}].`);
      console.log("Store it now: it is shown only once.");
      console.log(key);
      break;
    }
    case "list":
      for (const key of await store.list()) {
        console.log(
          [
            key.id,
            JSON.stringify(key.name),
            `scopes=${key.scopes.join(",") || "-"}`,
            `created=${key.createdAt}`,
          ]
            .concat(key.revokedAt === null ? [] : [`revoked=${key.revokedAt}`])
            .join("  "),
        );
      }
      break;
    case "revoke":
      if (argument === undefined) throw new UsageError("revoke needs the key's id");
      if (!(await store.revoke(argument))) throw new UsageError(`No key has the id ${argument}.`);
      console.log(
        `Revoked key ${argument}. Running services stop accepting it within ${config.auth.cacheTtlMs / 1000} s.`,
      );
      break;
    default:
      throw new UsageError(usage);
  }
} catch (error) {
  console.error(error instanceof UsageError ? error.message : error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
} finally {
  await driver.close();
}
