import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Neo4jVersion } from "../config.js";
import { projectRoot } from "../project-root.js";

const run = promisify(execFile);

/**
 * The Neo4j Community releases the project runs from Maven Central: 2026.09 by default (it plans
 * new statements in about 0.6× the time of 5.26: docs/performance.md), and 5.26 LTS for operators
 * who still run it. The service needs no plugin on either (no APOC: it is not published for
 * 2025.x and later).
 */
export const NEO4J_RELEASES: Readonly<Record<Neo4jVersion, { minimumJava: number; entryPoint: string }>> = {
  "2026.09.0": { minimumJava: 21, entryPoint: "org.neo4j.server.Neo4jCommunity" },
  "5.26.30": { minimumJava: 17, entryPoint: "org.neo4j.server.CommunityEntryPoint" },
};

/** Where a release's jars (`lib/`) are kept. */
export const distributionDir = (version: Neo4jVersion): string =>
  join(projectRoot, ".neo4j", `neo4j-community-${version}`);

const COMPLETE_MARKER = ".complete";

/**
 * Downloads Neo4j Community `version` from Maven Central (through `mvn`, so later runs hit
 * `~/.m2`) unless a complete copy is already there. The copy is assembled in a temporary folder
 * and renamed into place, so an interrupted download never leaves a half-installed server.
 */
export async function ensureNeo4jInstalled(
  version: Neo4jVersion,
  log: (line: string) => void,
): Promise<string> {
  const home = distributionDir(version);
  if (existsSync(join(home, COMPLETE_MARKER))) return home;

  log(`Fetching Neo4j Community ${version} from Maven Central…`);
  const work = await mkdtemp(join(tmpdir(), "kg-neo4j-"));
  try {
    const staging = join(work, "dist");
    // The runtime closure of the `org.neo4j:neo4j` POM artifact is the whole Community server;
    // `neo4j-server` alone lacks the entry point.
    await copyDependencies(work, ["org.neo4j", "neo4j", version], join(staging, "lib"));
    await writeFile(join(staging, COMPLETE_MARKER), `${version}\n`);
    await mkdir(join(home, ".."), { recursive: true });
    if (!existsSync(home)) await rename(staging, home);
    log(`Neo4j installed in ${home}`);
    return home;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

type Artifact = [groupId: string, artifactId: string, version: string];

async function copyDependencies(work: string, [g, a, v]: Artifact, outputDir: string) {
  const pom = join(work, "server.pom.xml");
  await writeFile(
    pom,
    `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>` +
      `<groupId>kg-graphql.local</groupId><artifactId>server</artifactId><version>1</version>` +
      `<packaging>pom</packaging><dependencies><dependency><groupId>${g}</groupId>` +
      `<artifactId>${a}</artifactId><version>${v}</version></dependency></dependencies></project>`,
  );
  await run(
    "mvn",
    [
      "-B",
      "-q",
      "-f",
      pom,
      "dependency:copy-dependencies",
      "-DincludeScope=runtime",
      `-DoutputDirectory=${outputDir}`,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
}
