import { randomUUID } from "node:crypto";
import type { Driver } from "neo4j-driver";
import { answerWithin } from "../neo4j/deadline.js";
import { generateApiKey, hashApiKey } from "./api-key.js";

/** What the service knows of a key: never the key, and the hash only inside the store. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

/**
 * `:ApiKey` nodes in the service's Neo4j (contract §4): SHA-256 hash, scopes, created and
 * revoked timestamps. The GraphQL schema has no type for this label, so no query can reach it.
 */
export class ApiKeyStore {
  constructor(
    private readonly driver: Driver,
    private readonly database: string,
    /** How long a lookup may wait for Neo4j before it fails as unavailable (no bound if unset). */
    private readonly lookupTimeoutMs?: number,
  ) {}

  /** Creates a key and returns it with its record: the only time the key exists in clear. */
  async create(name: string, scopes: string[]): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const { records } = await this.driver.executeQuery(
      `CREATE (k:ApiKey {id: $id, name: $name, hash: $hash, scopes: $scopes, createdAt: datetime()})
       RETURN ${RECORD}`,
      { id: randomUUID(), name, hash: hashApiKey(key), scopes },
      { database: this.database },
    );
    return { key, record: toRecord(records[0]?.get("record")) };
  }

  /** Every key record, oldest first. */
  async list(): Promise<ApiKeyRecord[]> {
    const { records } = await this.driver.executeQuery(
      `MATCH (k:ApiKey) RETURN ${RECORD} ORDER BY k.createdAt, k.id`,
      {},
      { database: this.database, routing: "READ" },
    );
    return records.map((r) => toRecord(r.get("record")));
  }

  /** Marks a key revoked; false when no key has that id. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<boolean> {
    const { records } = await this.driver.executeQuery(
      `MATCH (k:ApiKey {id: $id}) SET k.revokedAt = coalesce(k.revokedAt, datetime()) RETURN k.id AS id`,
      { id },
      { database: this.database },
    );
    return records.length > 0;
  }

  /** The record and stored hash of the key with this hash, if any (revoked ones included). */
  async findByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | undefined> {
    const lookup = this.driver.executeQuery(
      `MATCH (k:ApiKey {hash: $hash}) RETURN ${RECORD}, k.hash AS hash LIMIT 1`,
      { hash },
      { database: this.database, routing: "READ" },
    );
    // A request authenticates before anything else: a silent database must not hold it forever.
    const { records } =
      this.lookupTimeoutMs === undefined ? await lookup : await answerWithin(lookup, this.lookupTimeoutMs);
    const row = records[0];
    return row === undefined
      ? undefined
      : { ...toRecord(row.get("record")), hash: row.get("hash") as string };
  }
}

const RECORD = `k { .id, .name, .scopes, createdAt: toString(k.createdAt), revokedAt: toString(k.revokedAt) } AS record`;

function toRecord(value: unknown): ApiKeyRecord {
  const record = value as ApiKeyRecord;
  return { ...record, revokedAt: record.revokedAt ?? null };
}
