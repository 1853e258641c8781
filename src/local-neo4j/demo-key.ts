import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hashApiKey } from "../auth/api-key.js";
import type { ApiKeyStore } from "../auth/api-key-store.js";
import { instanceDir } from "./server.js";

/**
 * The local demo database's API key, created on first start. Only here, for a development
 * database on 127.0.0.1, is a key kept in clear (in the git-ignored instance folder) so that
 * every `npm start` can print it; production keys exist in clear only when created.
 */
export async function ensureDemoKey(store: ApiKeyStore, instance: string): Promise<string> {
  const file = join(instanceDir(instance), "demo-api-key");
  if (existsSync(file)) {
    const key = (await readFile(file, "utf8")).trim();
    const record = await store.findByHash(hashApiKey(key));
    if (record !== undefined && record.revokedAt === null) return key;
  }
  const { key } = await store.create("demo (local development)", ["read"]);
  await writeFile(file, key + "\n", { mode: 0o600 });
  return key;
}
