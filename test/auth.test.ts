import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import neo4j from "neo4j-driver";
import { sha256Hex } from "../src/documents/document-hash.js";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { Authenticator } from "../src/auth/authenticate.js";
import { assembleService } from "../src/assembly.js";
import { loadConfig } from "../src/config.js";
import { memoryParts, startService, type RunningService, withoutCost } from "./support/service.js";
import { testDatabase, testDriver, testPassword, testBoltUri } from "./support/test-neo4j.js";

const run = promisify(execFile);
const CHALLENGE = 'Bearer realm="kg-graphql"';
const QUERY = JSON.stringify({ query: "{ __typename }" });

describe("API keys on the wire", () => {
  let service: RunningService;
  before(async () => {
    // No cache: revocation is visible at once (the cache itself has its own tests below).
    service = await startService(testDriver(), { keyCacheTtlMs: 0 });
  });
  after(() => service.close());

  const post = (authorization?: string, init: RequestInit = {}) =>
    service.request(
      "/api/v1/graphql",
      {
        method: "POST",
        body: QUERY,
        ...init,
        headers: {
          "content-type": "application/json",
          ...(authorization === undefined ? {} : { authorization }),
          ...(init.headers as Record<string, string> | undefined),
        },
      },
      { authenticated: false },
    );

  const expectUnauthorized = (response: Awaited<ReturnType<typeof post>>) => {
    expect(response.status).to.equal(401);
    expect(response.headers.get("www-authenticate")).to.equal(CHALLENGE);
    expect(response.body.errors[0].extensions).to.deep.equal({
      code: "unauthorized",
      requestId: response.headers.get("x-request-id"),
    });
  };

  it("answers a valid read key with 200, whatever the case of the scheme name", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const response = await post(`${scheme} ${service.key}`);
      expect(response.status).to.equal(200);
      expect(withoutCost(response.body)).to.deep.equal({ data: { __typename: "Query" } });
    }
  });

  for (const [name, header] of [
    ["no Authorization header", undefined],
    ["a Basic credential", "Basic dXNlcjpwYXNz"],
    ["Bearer without a token", "Bearer "],
    ["an unknown key", "Bearer kgq_unknownunknownunknownunknownunknownunk"],
  ] as const) {
    it(`refuses ${name} with 401 and the Bearer challenge`, async () => {
      expectUnauthorized(await post(header));
    });
  }

  it("refuses two Authorization headers with 401, even when the first holds a valid key", async () => {
    /** `count` short header lines (`x-n: n`), as raw pairs. */
    const filler = (count: number) =>
      Array.from({ length: count }, (_, n) => [`x-${String(n)}`, String(n)]).flat();
    // fetch folds repeated headers into one; node:http sends each raw header pair as its own line.
    const sent = (authorization: string[], fillers: { before?: number; between?: number } = {}) =>
      new Promise<{ status: number; challenge: unknown; body: { errors: { message: string }[] } }>(
        (resolve, reject) => {
          const req = request(
            `${service.url}/api/v1/graphql`,
            {
              method: "POST",
              // Raw pairs: Node adds no Host of its own then.
              headers: [
                "host",
                new URL(service.url).host,
                "content-type",
                "application/json",
                ...filler(fillers.before ?? 0),
                ...authorization.flatMap((value, index) => [
                  ...(index === 0 ? [] : filler(fillers.between ?? 0)),
                  "authorization",
                  value,
                ]),
              ],
            },
            (res) => {
              let text = "";
              res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
              res.on("end", () => {
                resolve({
                  status: res.statusCode ?? 0,
                  challenge: res.headers["www-authenticate"],
                  body: JSON.parse(text) as { errors: { message: string }[] },
                });
              });
            },
          );
          req.on("error", reject);
          req.end(QUERY);
        },
      );
    const valid = `Bearer ${service.key}`;
    for (const headers of [
      [valid, "Bearer nope"],
      [valid, valid],
    ]) {
      const refused = await sent(headers);
      expect(refused.status).to.equal(401);
      expect(refused.challenge).to.equal(CHALLENGE);
      expect(refused.body.errors[0]?.message).to.equal("Send one Authorization header; this request has 2.");
    }
    expect((await sent([valid])).status).to.equal(200);
    // Past the thousand or so header lines Node kept by default, the rest were dropped unseen: a second
    // Authorization behind 1,000 others was served, a valid one behind them refused. Every line
    // within the headers' size limit is read.
    const behind = await sent([valid, "Bearer nope"], { between: 1_100 });
    expect(behind.status).to.equal(401);
    expect(behind.body.errors[0]?.message).to.equal("Send one Authorization header; this request has 2.");
    expect((await sent([valid], { before: 1_100 })).status).to.equal(200);
  });

  it("refuses a revoked key with 401", async () => {
    const { key, record } = await service.keys.create("to revoke", ["read"]);
    expect((await post(`Bearer ${key}`)).status).to.equal(200);
    await service.keys.revoke(record.id);
    expectUnauthorized(await post(`Bearer ${key}`));
  });

  it("refuses a key without the read scope with 403 insufficient_scope", async () => {
    const { key } = await service.keys.create("no scopes", []);
    const response = await post(`Bearer ${key}`);
    expect(response.status).to.equal(403);
    expect(response.headers.get("www-authenticate")).to.equal(
      'Bearer realm="kg-graphql", error="insufficient_scope", scope="read"',
    );
    expect(response.body.errors[0].extensions.code).to.equal("insufficient_scope");
  });

  it("authenticates before reading the body: no key and a bad body is 401", async () => {
    expectUnauthorized(
      await post(undefined, { body: "{not json", headers: { "content-type": "text/plain" } }),
    );
  });

  it("checks method and path before the key: GET without a key is 405, an unknown path 404", async () => {
    expect(
      (await service.request("/api/v1/graphql", { method: "GET" }, { authenticated: false })).status,
    ).to.equal(405);
    expect(
      (await service.request("/elsewhere", { method: "POST" }, { authenticated: false })).status,
    ).to.equal(404);
  });

  it("answers 503 service_unavailable with Retry-After, fast, when the key store's database is down", async () => {
    const downDriver = neo4j.driver("bolt://127.0.0.1:1", neo4j.auth.basic("neo4j", "irrelevant"), {
      connectionTimeout: 1_000,
      maxTransactionRetryTime: 0,
    });
    // The service's own assembly and settings, over a Neo4j that is not there.
    const { app, stop } = await assembleService(loadConfig({ API_KEY_CACHE_TTL_MS: "0" }), {
      driver: downDriver,
      schema: (await import("graphql")).buildSchema("type Query { x: Int }"),
      ...memoryParts(),
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${service.key}` },
        body: QUERY,
      });
      expect(response.status).to.equal(503);
      expect(response.headers.get("retry-after")).to.equal("5");
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).to.equal("service_unavailable");
      expect(body.errors[0]?.message).not.to.match(/bolt|127\.0\.0\.1|ECONNREFUSED/);
    } finally {
      server.close();
      await stop();
      await downDriver.close();
    }
  });

  describe("the keys command", () => {
    const env = { ...process.env, NEO4J_URI: testBoltUri(), NEO4J_PASSWORD: testPassword };
    // Node with tsx's loader, as `npm run keys` runs it (without npx's second or so of lookup).
    const keys = (...args: string[]) =>
      run(process.execPath, ["--import", "tsx", "scripts/keys.ts", ...args], { env });

    it("creates a key that works, lists it without key or hash, and revokes it", async () => {
      const created = await keys("create", "--name", "cli test");
      const key = created.stdout.trim().split("\n").at(-1) ?? "";
      expect(key).to.match(/^kgq_[A-Za-z0-9_-]{43}$/);
      expect((await post(`Bearer ${key}`)).status).to.equal(200);

      // The suite's database outlives a run: find this run's key by the id the command printed.
      const id = /Created key (\S+)/.exec(created.stdout)?.[1];
      const record = (await new ApiKeyStore(testDriver(), testDatabase).list()).find((k) => k.id === id);
      expect(record?.name).to.equal("cli test");
      const listed = (await keys("list")).stdout;
      expect(listed).to.include(record?.id).and.include('"cli test"').and.include("scopes=read");
      expect(listed).not.to.include(key).and.not.to.include(key.slice(4));
      expect(listed).not.to.match(/[0-9a-f]{64}/);

      await keys("revoke", record?.id ?? "");
      expectUnauthorized(await post(`Bearer ${key}`));
    });

    it("creates a key with no scopes for --scope none, refused with 403", async () => {
      const key = (await keys("create", "--name", "scopeless", "--scope", "none")).stdout
        .trim()
        .split("\n")
        .at(-1);
      expect((await post(`Bearer ${key}`)).status).to.equal(403);
    });

    it("prints its usage for --help (exit 0), and with the problem for an unknown option or command (exit 2), never a stack", async () => {
      const help = await keys("--help");
      expect(help.stdout).to.match(/^Usage: npm run keys -- <command>/);
      expect(help.stdout).to.include("trust <id> <manifest.json> [--replace]").and.include("untrust <id>");
      const [unknown, ...others] = await Promise.all(
        [["list", "--verbose"], ["frobnicate"], []].map(
          async (args) =>
            (await keys(...args).then(
              () => expect.fail(`keys ${args.join(" ")} succeeded`),
              (error: unknown) => error,
            )) as { code: number; stderr: string },
        ),
      );
      for (const failed of [unknown, ...others]) {
        expect(failed?.code).to.equal(2);
        expect(failed?.stderr).to.include("Usage: npm run keys -- <command>");
        expect(failed?.stderr).not.to.match(/\n\s+at /);
      }
      expect(unknown?.stderr).to.match(/^Unknown option '--verbose'/m);
    });

    it("restricts a key to a manifest's documents (trust), lists how many it has, and lifts it (untrust)", async () => {
      const created = await keys("create", "--name", "cli trust");
      const key = created.stdout.trim().split("\n").at(-1) ?? "";
      const id = /Created key (\S+)/.exec(created.stdout)?.[1] ?? "";
      const registered = "{ topics(limit: 1) { id } }";
      const dir = mkdtempSync(join(tmpdir(), "kg-keys-"));
      const manifest = join(dir, "persisted-documents.json");
      writeFileSync(manifest, JSON.stringify({ [sha256Hex(registered)]: registered }));
      const trusted = await keys("trust", id, manifest);
      expect(trusted.stdout).to.include(`Key ${id} may run only its 1 trusted document(s)`);
      expect((await keys("list")).stdout.split("\n").find((line) => line.startsWith(id))).to.include(
        "documents=1",
      );
      expect((await post(`Bearer ${key}`, { body: JSON.stringify({ query: registered }) })).status).to.equal(
        200,
      );
      expect(
        (await post(`Bearer ${key}`, { body: JSON.stringify({ query: "{ topics(limit: 2) { id } }" }) }))
          .status,
      ).to.equal(403);

      // A manifest whose name is not its text's SHA-256 is refused whole, naming the entry.
      const wrong = join(dir, "wrong.json");
      writeFileSync(wrong, JSON.stringify({ ["0".repeat(64)]: registered }));
      const refused = (await keys("trust", id, wrong).catch((error: unknown) => error)) as {
        code: number;
        stderr: string;
      };
      expect(refused.code).to.equal(2);
      expect(refused.stderr).to.include(`${"0".repeat(64)}: the document hashes to ${sha256Hex(registered)}`);

      await keys("untrust", id);
      expect((await keys("list")).stdout.split("\n").find((line) => line.startsWith(id))).to.include(
        "documents=any",
      );
      expect(
        (await post(`Bearer ${key}`, { body: JSON.stringify({ query: "{ topics(limit: 2) { id } }" }) }))
          .status,
      ).to.equal(200);
    });
  });
});

describe("Authenticator cache", () => {
  const record = {
    id: "k1",
    name: "k",
    scopes: ["read"],
    createdAt: "",
    revokedAt: null as string | null,
    trustedDocuments: null,
    hash: "",
    trustedHashes: null,
  };
  let lookups = 0;
  const store = {
    findByHash: (hash: string) => {
      lookups++;
      return Promise.resolve(record.revokedAt === null && hash === record.hash ? { ...record } : undefined);
    },
  };

  it("serves a known key and an unknown key from the cache until the lifetime ends", async () => {
    const { hashApiKey } = await import("../src/auth/api-key.js");
    record.hash = hashApiKey("kgq_good");
    let now = 0;
    const authenticator = new Authenticator(store, 60_000, () => now);
    lookups = 0;
    await authenticator.authenticate("Bearer kgq_good");
    await authenticator.authenticate("Bearer kgq_good");
    await authenticator.authenticate("Bearer kgq_bad").catch(() => undefined);
    await authenticator.authenticate("Bearer kgq_bad").catch(() => undefined);
    expect(lookups).to.equal(2);

    record.revokedAt = "now";
    now = 59_999;
    expect(await authenticator.authenticate("Bearer kgq_good")).to.deep.equal({ keyId: "k1" });
    now = 60_000;
    const refused = await authenticator.authenticate("Bearer kgq_good").catch((error: unknown) => error);
    expect(refused).to.have.property("code", "unauthorized");
  });
});
