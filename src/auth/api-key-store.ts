import { randomUUID } from "node:crypto";
import neo4j, { type Driver } from "neo4j-driver";
import { answerWithin } from "../neo4j/deadline.js";
import { generateApiKey, hashApiKey } from "./api-key.js";

/** What the service knows of a key: never the key, and the hash only inside the store. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  /** How many trusted documents the key is restricted to; null when it may run any document. */
  trustedDocuments: number | null;
}

/** A manifest of trusted documents: SHA-256 (64 lowercase hex) → document text (contract §10). */
export type DocumentManifest = Readonly<Record<string, string>>;

/**
 * `:ApiKey` nodes in the service's Neo4j (contract §4): SHA-256 hash, scopes, created and
 * revoked timestamps, and for a key restricted to trusted documents (§10) their hashes and texts
 * as two lists of one order (`trustedHashes`, `trustedDocuments`). The GraphQL schema has no type
 * for this label, so no query can reach it.
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

  /**
   * Restricts a key to the manifest's documents, added to those it has unless `replace`; false
   * when no key has that id. Hashes are the manifest's (checked by {@link readManifest}).
   */
  async trust(id: string, manifest: DocumentManifest, { replace = false } = {}): Promise<boolean> {
    const { records } = await this.driver.executeQuery(
      `MATCH (k:ApiKey {id: $id})
       WITH k, CASE WHEN $replace THEN [] ELSE coalesce(k.trustedHashes, []) END AS hashes,
            CASE WHEN $replace THEN [] ELSE coalesce(k.trustedDocuments, []) END AS documents
       WITH k, hashes + [h IN $hashes WHERE NOT h IN hashes] AS allHashes,
            documents + [i IN range(0, size($hashes) - 1) WHERE NOT $hashes[i] IN hashes | $documents[i]] AS allDocuments
       SET k.trustedHashes = allHashes, k.trustedDocuments = allDocuments
       RETURN k.id AS id`,
      { id, replace, hashes: Object.keys(manifest), documents: Object.values(manifest) },
      { database: this.database },
    );
    return records.length > 0;
  }

  /** Lets a key run any document again, forgetting its trusted ones; false when no key has that id. */
  async untrust(id: string): Promise<boolean> {
    const { records } = await this.driver.executeQuery(
      `MATCH (k:ApiKey {id: $id}) REMOVE k.trustedHashes, k.trustedDocuments RETURN k.id AS id`,
      { id },
      { database: this.database },
    );
    return records.length > 0;
  }

  /**
   * The trusted documents of the keys not revoked, at most `limit` distinct texts, the newest keys'
   * first (for pre-planning).
   */
  async everyTrustedDocument(limit: number): Promise<string[]> {
    const { records } = await this.driver.executeQuery(
      `MATCH (k:ApiKey) WHERE k.revokedAt IS NULL AND k.trustedDocuments IS NOT NULL
       WITH k ORDER BY k.createdAt DESC
       UNWIND k.trustedDocuments AS text
       WITH DISTINCT text LIMIT $limit
       RETURN text`,
      { limit: neo4j.int(limit) },
      { database: this.database, routing: "READ" },
    );
    return records.map((row) => row.get("text") as string);
  }

  /** The text of one of a key's trusted documents, if it has that one. */
  async trustedDocument(id: string, sha256: string): Promise<string | undefined> {
    const lookup = this.driver.executeQuery(
      `MATCH (k:ApiKey {id: $id})
       WITH k, coalesce(k.trustedHashes, []) AS hashes
       RETURN [i IN range(0, size(hashes) - 1) WHERE hashes[i] = $sha256 | k.trustedDocuments[i]][0] AS text`,
      { id, sha256 },
      { database: this.database, routing: "READ" },
    );
    const { records } =
      this.lookupTimeoutMs === undefined ? await lookup : await answerWithin(lookup, this.lookupTimeoutMs);
    const text: unknown = records[0]?.get("text");
    return typeof text === "string" ? text : undefined;
  }

  /**
   * The record, stored hash and trusted document hashes (null: unrestricted) of the key with this
   * hash, if any (revoked ones included).
   */
  async findByHash(
    hash: string,
  ): Promise<(ApiKeyRecord & { hash: string; trustedHashes: string[] | null }) | undefined> {
    const lookup = this.driver.executeQuery(
      `MATCH (k:ApiKey {hash: $hash}) RETURN ${RECORD}, k.hash AS hash, k.trustedHashes AS trustedHashes LIMIT 1`,
      { hash },
      { database: this.database, routing: "READ" },
    );
    // A request authenticates before anything else: a silent database must not hold it forever.
    const { records } =
      this.lookupTimeoutMs === undefined ? await lookup : await answerWithin(lookup, this.lookupTimeoutMs);
    const row = records[0];
    return row === undefined
      ? undefined
      : {
          ...toRecord(row.get("record")),
          hash: row.get("hash") as string,
          trustedHashes: (row.get("trustedHashes") as string[] | null) ?? null,
        };
  }
}

const RECORD = `k { .id, .name, .scopes, createdAt: toString(k.createdAt), revokedAt: toString(k.revokedAt),
  trustedDocuments: size(k.trustedHashes) } AS record`;

function toRecord(value: unknown): ApiKeyRecord {
  const record = value as Omit<ApiKeyRecord, "trustedDocuments"> & { trustedDocuments: unknown };
  return {
    ...record,
    revokedAt: record.revokedAt ?? null,
    trustedDocuments: record.trustedDocuments === null ? null : Number(record.trustedDocuments),
  };
}
