import { expect } from "chai";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { LOG_FLUSH_MS } from "../src/ops/logger.js";
import { projectRoot } from "../src/project-root.js";
import { hashApiKey } from "../src/auth/api-key.js";
import type { RequestLogEntry } from "../src/ops/request-log.js";
import { startService, type RunningService } from "./support/service.js";
import { testDriver } from "./support/test-neo4j.js";

describe("request log: one entry per request", () => {
  let service: RunningService;
  const entries: RequestLogEntry[] = [];

  before(async () => {
    service = await startService(testDriver(), { logRequest: (entry) => entries.push(entry) });
  });
  after(async () => {
    await service.close();
  });
  beforeEach(() => {
    entries.length = 0;
  });

  /** The entry of the response with this request id (written when the response is done). */
  async function entryFor(requestId: string | null): Promise<RequestLogEntry> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = entries.filter((entry) => entry.requestId === requestId);
      if (found.length > 0) {
        expect(found).to.have.length(1);
        return found[0] as RequestLogEntry;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no log entry for request ${String(requestId)}`);
  }

  it("logs a query with request id, key id, path, status, cost, duration and execution time", async () => {
    const response = await service.graphql("{ topics(limit: 3) { name decisions(limit: 2) { title } } }");
    expect(response.status).to.equal(200);
    const entry = await entryFor(response.headers.get("x-request-id"));
    expect(entry).to.deep.include({
      keyId: service.keyId,
      method: "POST",
      path: "/api/v1/graphql",
      status: 200,
      cost: response.body.extensions.cost.requested,
    });
    expect(entry.code).to.equal(undefined);
    expect(entry.durationMs).to.be.a("number").and.above(0);
    expect(entry.executionMs).to.be.a("number").and.at.most(entry.durationMs);
  });

  it("logs the contract code of an error, from the HTTP stages and from GraphQL validation", async () => {
    const badJson = await service.request("/v1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(await entryFor(badJson.headers.get("x-request-id"))).to.deep.include({
      path: "/v1/graphql",
      status: 422,
      code: "invalid_json",
    });
    const unknownField = await service.graphql("{ nope }");
    const entry = await entryFor(unknownField.headers.get("x-request-id"));
    expect(entry).to.deep.include({ status: 422, code: "validation_failed", keyId: service.keyId });
    expect(entry.executionMs).to.equal(undefined); // never executed
  });

  it("logs a refused key without a key id, and never the key or its hash", async () => {
    const refused = await service.request(
      "/api/v1/graphql",
      { method: "POST", headers: { authorization: "Bearer not-a-real-key" } },
      { authenticated: false },
    );
    const entry = await entryFor(refused.headers.get("x-request-id"));
    expect(entry).to.deep.include({ status: 401, code: "unauthorized" });
    expect(entry).not.to.have.property("keyId");
    await service.graphql("{ topics(limit: 1) { id } }");
    const text = JSON.stringify(entries);
    expect(text).not.to.include(service.key);
    expect(text).not.to.include(hashApiKey(service.key));
    expect(text).not.to.include("not-a-real-key");
  });

  it("does not log the health probes", async () => {
    await service.request("/healthz", {}, { authenticated: false });
    await service.request("/readyz", {}, { authenticated: false });
    const response = await service.graphql("{ topics(limit: 1) { id } }");
    await entryFor(response.headers.get("x-request-id"));
    expect(entries.map((entry) => entry.path)).to.deep.equal(["/api/v1/graphql"]);
  });
});

describe("the service's logger (stdout, JSON lines)", () => {
  it("writes a lone line within its flush interval, and the lines left when the process exits", async () => {
    // A process that logs one line, waits, then logs 200 more (several batches) and exits at once.
    const script = `
      const { createLogger } = await import("./src/ops/logger.ts");
      const logger = createLogger({ level: "info", format: "json" });
      logger.info("lone");
      setTimeout(() => {
        for (let i = 0; i < 200; i++) logger.info({ i }, "burst");
        process.exit(0);
      }, ${String(LOG_FLUSH_MS * 8)});`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    let first: string | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      first ??= chunk.toString();
      output += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).to.equal(0);
    // Written alone, before the burst was logged: within the flush interval, not only at exit.
    expect(first, output).to.include('"msg":"lone"');
    expect(first).not.to.include('"msg":"burst"');
    const lines = output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string; i?: number });
    expect(lines.map((line) => line.msg)).to.deep.equal(["lone", ...Array<string>(200).fill("burst")]);
    expect(lines.slice(1).map((line) => line.i)).to.deep.equal([...Array(200).keys()]);
  });
});
