import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../project-root.js";

const run = promisify(execFile);

/** Newest 5.26 LTS on Maven Central; 2025.x and later need Java 21. */
export const NEO4J_VERSION = "5.26.30";
/** Newest APOC core for 5.26; `apoc.version()` reports it and `checkNeo4jCompat()` accepts it. */
export const APOC_VERSION = "5.26.19";

/** Where the Neo4j Community jars (`lib/`) and the APOC jars (`plugins/`) are kept. */
export const distributionDir = join(projectRoot, ".neo4j", `neo4j-community-${NEO4J_VERSION}`);

const COMPLETE_MARKER = ".complete";

/**
 * Downloads Neo4j Community and APOC core from Maven Central (through `mvn`, so later runs hit
 * `~/.m2`) unless a complete copy is already there. The copy is assembled in a temporary folder
 * and renamed into place, so an interrupted download never leaves a half-installed server.
 */
export async function ensureNeo4jInstalled(log: (line: string) => void): Promise<string> {
  if (existsSync(join(distributionDir, COMPLETE_MARKER))) return distributionDir;

  log(`Fetching Neo4j Community ${NEO4J_VERSION} and APOC core ${APOC_VERSION} from Maven Central…`);
  const work = await mkdtemp(join(tmpdir(), "kg-neo4j-"));
  try {
    const staging = join(work, "dist");
    const lib = join(staging, "lib");
    const plugins = join(staging, "plugins");
    const apocClosure = join(work, "apoc");
    // The runtime closure of the `org.neo4j:neo4j` POM artifact is the whole Community server;
    // `neo4j-server` alone lacks the entry point.
    await copyDependencies(work, "server", [["org.neo4j", "neo4j", NEO4J_VERSION]], lib);
    // APOC core ships as apoc-core plus apoc-common (there is no `-core` classifier jar).
    await copyDependencies(
      work,
      "apoc",
      [
        ["org.neo4j.procedure", "apoc-core", APOC_VERSION],
        ["org.neo4j.procedure", "apoc-common", APOC_VERSION],
      ],
      apocClosure,
    );
    // Only the artifacts the server lacks go to plugins/: APOC's closure also names older
    // versions of jars the server has (commons-lang3 3.12 beside 3.18), and an older copy first on
    // the classpath breaks the server's own classes.
    const serverArtifacts = new Set((await readdir(lib)).map(artifactId));
    await mkdir(plugins, { recursive: true });
    for (const jar of await readdir(apocClosure)) {
      if (!serverArtifacts.has(artifactId(jar))) await copyFile(join(apocClosure, jar), join(plugins, jar));
    }
    await writeFile(join(staging, COMPLETE_MARKER), `${NEO4J_VERSION} ${APOC_VERSION}\n`);
    await mkdir(join(distributionDir, ".."), { recursive: true });
    if (!existsSync(distributionDir)) await rename(staging, distributionDir);
    log(`Neo4j installed in ${distributionDir}`);
    return distributionDir;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `commons-lang3-3.18.0.jar` → `commons-lang3`: copy-dependencies names jars `<artifactId>-<version>.jar`. */
function artifactId(jarName: string): string {
  return jarName.replace(/-\d[^-]*(-[^-]+)?\.jar$/, "");
}

type Artifact = [groupId: string, artifactId: string, version: string];

async function copyDependencies(work: string, name: string, artifacts: Artifact[], outputDir: string) {
  const dependencies = artifacts
    .map(
      ([g, a, v]) =>
        `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`,
    )
    .join("");
  const pom = join(work, `${name}.pom.xml`);
  await writeFile(
    pom,
    `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>` +
      `<groupId>kg-graphql.local</groupId><artifactId>${name}</artifactId><version>1</version>` +
      `<packaging>pom</packaging><dependencies>${dependencies}</dependencies></project>`,
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
