// The key tool (contract §4, §10): `npm run keys -- --help` prints its usage. Reads the same Neo4j
// settings as the service (NEO4J_URI, or the local server when it is unset).
import { readFileSync } from "node:fs";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { readManifest } from "../src/documents/manifest.js";
import { applySchemaFiles } from "../src/neo4j/apply-cypher.js";
import { connectNeo4j } from "../src/neo4j/connect.js";
import { readCommandLine } from "./command-line.js";

const USAGE = `Usage: npm run keys -- <command>

  create --name <name> [--scope <scope>]…   create a key (default scope: read; --scope none for
                                            none) and print it once, alone on the last line
  list                                      every key: id, name, scopes, created, revoked, and
                                            documents=<n> for a key restricted to trusted documents
  revoke <id>                               stop accepting a key
  trust <id> <manifest.json> [--replace]    restrict a key to a manifest's documents
                                            ({ "<sha256>": "<document>" }, as GraphQL Code
                                            Generator's persisted documents write it), added to
                                            the ones it has, or instead of them with --replace
  untrust <id>                              let a key run any document again

Options: --help prints this text. Neo4j: NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE
(without NEO4J_URI, the local server of npm start).`;

class UsageError extends Error {}

const {
  positionals,
  values,
  refuse,
  config: readConfig,
} = readCommandLine(USAGE, {
  allowPositionals: true,
  options: {
    name: { type: "string" },
    scope: { type: "string", multiple: true },
    replace: { type: "boolean" },
  },
});
const [command, id, file] = positionals;
if (!["create", "list", "revoke", "trust", "untrust"].includes(command ?? ""))
  refuse(command === undefined ? "No command given." : `Unknown command "${command}".`);

const config = readConfig();
const log = (line: string) => {
  console.error(line);
};
const within = `Running services apply it within ${config.auth.cacheTtlMs / 1000} s.`;
const { driver, local } = await connectNeo4j(config, log);
const store = new ApiKeyStore(driver, config.neo4j.database);
const requireId = (what: string) => {
  if (id === undefined) throw new UsageError(`${what} needs the key's id.\n\n${USAGE}`);
  return id;
};
try {
  if (local) await applySchemaFiles(driver, config.neo4j.database);
  switch (command) {
    case "create": {
      if (values.name === undefined || values.name.trim() === "")
        throw new UsageError(`create needs --name <name>.\n\n${USAGE}`);
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
            key.trustedDocuments === null ? "documents=any" : `documents=${String(key.trustedDocuments)}`,
          ]
            .concat(key.revokedAt === null ? [] : [`revoked=${key.revokedAt}`])
            .join("  "),
        );
      }
      break;
    case "revoke":
      if (!(await store.revoke(requireId("revoke")))) throw new UsageError(`No key has the id ${id ?? ""}.`);
      console.log(
        `Revoked key ${id ?? ""}. Running services stop accepting it within ${config.auth.cacheTtlMs / 1000} s.`,
      );
      break;
    case "trust": {
      const keyId = requireId("trust");
      if (file === undefined) throw new UsageError(`trust needs a manifest file.\n\n${USAGE}`);
      let manifest;
      try {
        manifest = readManifest(readFileSync(file, "utf8"));
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
      if (!(await store.trust(keyId, manifest, { replace: values.replace === true })))
        throw new UsageError(`No key has the id ${keyId}.`);
      const record = (await store.list()).find((key) => key.id === keyId);
      console.log(
        `Key ${keyId} may run only its ${String(record?.trustedDocuments ?? 0)} trusted document(s) ` +
          `(${String(Object.keys(manifest).length)} in this manifest). ${within}`,
      );
      break;
    }
    case "untrust":
      if (!(await store.untrust(requireId("untrust"))))
        throw new UsageError(`No key has the id ${id ?? ""}.`);
      console.log(`Key ${id ?? ""} may run any document again. ${within}`);
      break;
  }
} catch (error) {
  console.error(error instanceof UsageError ? error.message : error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
} finally {
  await driver.close();
}
