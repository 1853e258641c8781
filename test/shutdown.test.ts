import { once } from "node:events";
import { connect } from "node:net";
import { expect } from "chai";
import { hashApiKey } from "../src/auth/api-key.js";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { startServiceProcess } from "./support/service-process.js";
import { testBoltUri, testDatabase, testDriver } from "./support/test-neo4j.js";

/** Resolves once Neo4j shows the request's transaction running. */
async function untilRunning(requestId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { records } = await testDriver().executeQuery(
      "SHOW TRANSACTIONS YIELD metaData WHERE metaData.requestId = $requestId RETURN count(*) AS n",
      { requestId },
      { database: testDatabase },
    );
    if (Number(records[0]?.get("n")) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`request ${requestId} never reached Neo4j`);
}

/** Whether a new TCP connection to the port is accepted. */
function accepts(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      resolve(false);
    });
  });
}

describe("graceful shutdown (the service as its own process)", function () {
  this.timeout(90_000);
  let key: string;
  let keyId: string;

  before(async () => {
    const created = await new ApiKeyStore(testDriver(), testDatabase).create("shutdown test", ["read"]);
    key = created.key;
    keyId = created.record.id;
  });

  const slowRequest = (url: string, ms: number, requestId: string, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${key}`,
        "x-request-id": requestId,
      },
      body: JSON.stringify({ query: `{ slow(ms: ${ms}) }` }),
      ...(signal === undefined ? {} : { signal }),
    });

  it("on SIGTERM stops accepting connections, lets the query in flight finish, then exits 0", async () => {
    const service = await startServiceProcess();
    // The probes as src/service.ts wires them: its driver, and no Redis configured.
    const origin = new URL(service.url).origin;
    expect(await (await fetch(`${origin}/healthz`)).json()).to.deep.equal({ status: "ok" });
    expect(await (await fetch(`${origin}/readyz`)).json()).to.deep.equal({
      status: "ready",
      checks: { neo4j: "up", schema: "built", redis: "not configured" },
    });
    const requestId = `drain-${String(Date.now())}`;
    const pending = slowRequest(service.url, 1_500, requestId);
    await untilRunning(requestId);
    const exited = once(service.child, "exit");
    service.child.kill("SIGTERM");
    let accepting = true;
    for (let attempt = 0; attempt < 50 && accepting; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      accepting = await accepts(service.url);
    }
    expect(accepting, "still accepting connections after SIGTERM").to.equal(false);

    const response = await pending;
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.include({ data: { slow: 1500 } });
    const [code, signal] = (await exited) as [number | null, string | null];
    expect(code, `${service.output()}\nsignal ${String(signal)}`).to.equal(0);
    expect(service.output()).to.include(
      `Neo4j: ${testBoltUri()}, database ${testDatabase}, user neo4j; schema built.`,
    );
    expect(service.output()).to.match(/SIGTERM: no new connections/);
    expect(service.output()).to.include("Stopped.");

    // Its log: JSON lines, the request's own line with its ids, no key material anywhere.
    const lines = service
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).to.include({ app: "kg-graphql", level: 30 });
    expect(lines.find((line) => line.requestId === requestId)).to.deep.include({
      msg: "request",
      path: "/api/v1/graphql",
      status: 200,
      keyId,
    });
    expect(service.output()).not.to.include(key);
    expect(service.output()).not.to.include(hashApiKey(key));
  });

  it("lets the query of a caller who hung up end before closing Neo4j: no 500, exits 0", async () => {
    const service = await startServiceProcess();
    const requestId = `gone-${String(Date.now())}`;
    const hangUp = new AbortController();
    const pending = slowRequest(service.url, 1_500, requestId, hangUp.signal).then(
      () => "answered",
      () => "hung up",
    );
    await untilRunning(requestId);
    hangUp.abort();
    expect(await pending).to.equal("hung up");
    const exited = once(service.child, "exit");
    service.child.kill("SIGTERM");
    const [code, signal] = (await exited) as [number | null, string | null];
    expect(code, `${service.output()}\nsignal ${String(signal)}`).to.equal(0);
    const lines = service
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Its query ran to its end: answered, to a caller who had left.
    expect(lines.find((line) => line.requestId === requestId && line.msg === "request")).to.deep.include({
      status: 200,
    });
    expect(service.output()).not.to.include("internal_error");
  });

  it("cuts what is still running after SHUTDOWN_TIMEOUT_MS and still exits 0", async () => {
    const service = await startServiceProcess({ SHUTDOWN_TIMEOUT_MS: "300" });
    const requestId = `cut-${String(Date.now())}`;
    const pending = slowRequest(service.url, 20_000, requestId).then(
      (response) => response.status,
      () => "cut",
    );
    await untilRunning(requestId);
    const exited = once(service.child, "exit");
    const signalled = Date.now();
    service.child.kill("SIGTERM");
    const [code, signal] = (await exited) as [number | null, string | null];
    expect(code, `${service.output()}\nsignal ${String(signal)}`).to.equal(0);
    expect(Date.now() - signalled).to.be.below(15_000); // not the query's 20 s
    expect(await pending).to.equal("cut");
    expect(service.output()).to.include("Cut 1 connection(s) still busy after 300 ms.");
  });
});
