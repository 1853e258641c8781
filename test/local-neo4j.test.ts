import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { featureRelease, findJava } from "../src/local-neo4j/java.js";
import { runningServer, startLocalNeo4j } from "../src/local-neo4j/server.js";
import { testNeo4jVersion, testPassword } from "./support/test-neo4j.js";

describe("the local Neo4j", () => {
  it("reuses the running instance instead of starting a second one", async () => {
    const before = await runningServer("test", testNeo4jVersion);
    expect(before).to.not.equal(undefined);
    const again = await startLocalNeo4j({
      name: "test",
      version: testNeo4jVersion,
      boltPort: before?.boltPort ?? 0,
      password: testPassword,
      heap: "1g",
      pageCache: "256m",
    });
    expect(again.reused).to.equal(true);
    expect(again.pid).to.equal(before?.pid);
  });

  it("refuses to reuse the instance on another port", async () => {
    const running = await runningServer("test", testNeo4jVersion);
    const port = (running?.boltPort ?? 0) + 1;
    const attempt = startLocalNeo4j({
      name: "test",
      version: testNeo4jVersion,
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

  it(`runs Neo4j Community ${testNeo4jVersion} with authentication on and no plugin`, async () => {
    const neo4j = (await import("neo4j-driver")).default;
    const running = await runningServer("test", testNeo4jVersion);
    const uri = `bolt://127.0.0.1:${running?.boltPort}`;
    const wrong = neo4j.driver(uri, neo4j.auth.basic("neo4j", "wrong-password"));
    await wrong.executeQuery("RETURN 1").then(
      () => expect.fail("an unauthenticated query ran"),
      (error: unknown) => expect(String(error)).to.match(/unauthorized|authentication/i),
    );
    await wrong.close();
    const driver = neo4j.driver(uri, neo4j.auth.basic("neo4j", testPassword));
    const { records } = await driver.executeQuery(
      "CALL dbms.components() YIELD name, versions, edition WHERE name = 'Neo4j Kernel' RETURN versions[0] AS neo4j, edition",
    );
    const plugins = await driver.executeQuery(
      "SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'apoc.' RETURN count(*) AS apoc",
    );
    await driver.close();
    expect(records[0]?.toObject()).to.deep.equal({ neo4j: testNeo4jVersion, edition: "community" });
    expect(plugins.records[0]?.get("apoc")).to.deep.equal(neo4j.int(0));
  });
});

describe("finding a Java for the local Neo4j", () => {
  /** A fake JDK home: a `release` file and an (empty) `bin/java`, which findJava only looks at. */
  async function jdk(folder: string, name: string, version: string): Promise<string> {
    const home = join(folder, name);
    await mkdir(join(home, "bin"), { recursive: true });
    await writeFile(join(home, "bin", "java"), "");
    await writeFile(join(home, "release"), `IMPLEMENTOR="test"\nJAVA_VERSION="${version}"\n`);
    return home;
  }

  it("reads feature releases of every version scheme", () => {
    expect(["17.0.15", "25", "21.0.2+13", "1.8.0_402"].map(featureRelease)).to.deep.equal([17, 25, 21, 8]);
  });

  it("takes JAVA_HOME when it is recent enough, else the newest installed JDK", async () => {
    const folder = await mkdtemp(join(tmpdir(), "kg-jdks-"));
    const old = await jdk(folder, "java-17", "17.0.15");
    const recent = await jdk(folder, "java-21", "21.0.9");
    const newest = await jdk(folder, "temurin-25", "25.0.3");
    expect(await findJava(21, { JAVA_HOME: recent }, [folder])).to.deep.include({
      java: join(recent, "bin", "java"),
      major: 21,
    });
    expect(await findJava(21, { JAVA_HOME: old }, [folder])).to.deep.include({
      java: join(newest, "bin", "java"),
      major: 25,
    });
    expect(await findJava(17, {}, [folder])).to.deep.include({ major: 25 });
  });

  it("says what to install when no Java is recent enough", async () => {
    const folder = await mkdtemp(join(tmpdir(), "kg-jdks-"));
    const old = await jdk(folder, "java-17", "17.0.15");
    await findJava(99, { JAVA_HOME: old }, [folder]).then(
      () => expect.fail("found one"),
      (error: unknown) =>
        expect(String(error)).to.match(
          /needs Java 99 or later and found only Java 17 \(JAVA_HOME\).*Install a JDK 99\+/,
        ),
    );
  });
});
