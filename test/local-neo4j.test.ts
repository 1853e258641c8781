import { expect } from "chai";
import { runningServer, startLocalNeo4j } from "../src/local-neo4j/server.js";
import { testPassword } from "./support/test-neo4j.js";

describe("the local Neo4j", () => {
  it("reuses the running instance instead of starting a second one", async () => {
    const before = await runningServer("test");
    expect(before).to.not.equal(undefined);
    const again = await startLocalNeo4j({
      name: "test",
      boltPort: before?.boltPort ?? 0,
      password: testPassword,
      heap: "1g",
      pageCache: "256m",
    });
    expect(again.reused).to.equal(true);
    expect(again.pid).to.equal(before?.pid);
  });

  it("refuses to reuse the instance on another port", async () => {
    const running = await runningServer("test");
    const port = (running?.boltPort ?? 0) + 1;
    const attempt = startLocalNeo4j({
      name: "test",
      boltPort: port,
      password: testPassword,
      heap: "1g",
      pageCache: "256m",
    });
    await attempt.then(
      () => expect.fail("started"),
      (error: unknown) => expect(String(error)).to.match(/already runs on port/),
    );
  });

  it("runs APOC core 5.26.19 on Neo4j 5.26.30 with authentication on", async () => {
    const neo4j = (await import("neo4j-driver")).default;
    const running = await runningServer("test");
    const uri = `bolt://127.0.0.1:${running?.boltPort}`;
    const wrong = neo4j.driver(uri, neo4j.auth.basic("neo4j", "wrong-password"));
    await wrong.executeQuery("RETURN 1").then(
      () => expect.fail("an unauthenticated query ran"),
      (error: unknown) => expect(String(error)).to.match(/unauthorized|authentication/i),
    );
    await wrong.close();
    const driver = neo4j.driver(uri, neo4j.auth.basic("neo4j", testPassword));
    const { records } = await driver.executeQuery(
      "CALL dbms.components() YIELD versions RETURN versions[0] AS neo4j, apoc.version() AS apoc",
    );
    await driver.close();
    expect(records[0]?.toObject()).to.deep.equal({ neo4j: "5.26.30", apoc: "5.26.19" });
  });
});
