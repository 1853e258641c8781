// The Java that runs the local Neo4j. Neo4j 2025.x and later need Java 21 or later, while many
// machines keep an older default `java` (Debian's is 17) with newer JDKs installed beside it.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A Java runtime: its `java` command and its feature release (17, 21, 25…). */
export interface JavaRuntime {
  java: string;
  major: number;
  /** Where it was found, for messages: `JAVA_HOME`, a folder of installed JDKs, or `PATH`. */
  source: string;
}

/** Folders that hold installed JDKs, one per subfolder (Debian, Red Hat, Docker images, macOS). */
const JDK_FOLDERS = ["/usr/lib/jvm", "/usr/java", "/opt/java", "/Library/Java/JavaVirtualMachines"];

/**
 * The Java to run a server that needs `minimumMajor`: `JAVA_HOME`'s when it is recent enough,
 * else the newest installed JDK that is (the newest plans Cypher fastest: docs/performance.md),
 * else the `java` on `PATH`. Throws a message saying what to install when none is.
 */
export async function findJava(
  minimumMajor: number,
  env: NodeJS.ProcessEnv = process.env,
  jdkFolders: readonly string[] = JDK_FOLDERS,
): Promise<JavaRuntime> {
  const seen: JavaRuntime[] = [];
  const javaHome = env.JAVA_HOME;
  if (javaHome !== undefined && javaHome !== "") {
    const runtime = await runtimeAt(javaHome, "JAVA_HOME");
    if (runtime !== undefined) {
      if (runtime.major >= minimumMajor) return runtime;
      seen.push(runtime);
    }
  }
  const installed = jdkFolders.flatMap(installedJdks);
  const runtimes = (await Promise.all(installed.map((home) => runtimeAt(home, home)))).filter(
    (runtime) => runtime !== undefined,
  );
  const newest = runtimes
    .filter((runtime) => runtime.major >= minimumMajor)
    .sort((a, b) => b.major - a.major)[0];
  if (newest !== undefined) return newest;
  seen.push(...runtimes);
  const onPath = await versionOf("java").catch(() => undefined);
  if (onPath !== undefined) {
    const runtime = { java: "java", major: onPath, source: "PATH" };
    if (onPath >= minimumMajor) return runtime;
    seen.push(runtime);
  }
  const found =
    seen.length === 0
      ? "no Java was found"
      : `found only ${seen.map((runtime) => `Java ${String(runtime.major)} (${runtime.source})`).join(", ")}`;
  throw new Error(
    `This Neo4j needs Java ${String(minimumMajor)} or later and ${found}. Install a JDK ${String(minimumMajor)}+ ` +
      `(Debian: apt install openjdk-21-jdk-headless; or Eclipse Temurin 25) and set JAVA_HOME to it if it is ` +
      `not under ${jdkFolders.join(", ")}.`,
  );
}

/** The JDK homes under a folder of installed JDKs (a macOS bundle keeps its home in `Contents/Home`). */
function installedJdks(folder: string): string[] {
  if (!existsSync(folder)) return [];
  try {
    return readdirSync(folder).map((name) => {
      const bundle = join(folder, name, "Contents", "Home");
      return existsSync(bundle) ? bundle : join(folder, name);
    });
  } catch {
    return [];
  }
}

/** The runtime of a Java home, its version read from the home's `release` file or else from `java -version`. */
async function runtimeAt(home: string, source: string): Promise<JavaRuntime | undefined> {
  const java = join(home, "bin", "java");
  if (!existsSync(java)) return undefined;
  const major = releaseVersion(home) ?? (await versionOf(java).catch(() => undefined));
  return major === undefined ? undefined : { java, major, source };
}

/** `JAVA_VERSION="25.0.3"` of a JDK's `release` file (every JDK since 9 has one). */
function releaseVersion(home: string): number | undefined {
  try {
    const match = /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(join(home, "release"), "utf8"));
    return match?.[1] === undefined ? undefined : featureRelease(match[1]);
  } catch {
    return undefined;
  }
}

/** What `java -version` says of itself (on stderr): `openjdk version "17.0.15" 2025-04-15`. */
async function versionOf(java: string): Promise<number | undefined> {
  const { stderr } = await run(java, ["-version"], { timeout: 10_000 });
  const match = /version "([^"]+)"/.exec(stderr);
  return match?.[1] === undefined ? undefined : featureRelease(match[1]);
}

/** `17.0.15` → 17, `25` → 25, `1.8.0_402` → 8. */
export function featureRelease(version: string): number | undefined {
  const [first, second] = version.split(/[.+_-]/).map(Number);
  const major = first === 1 ? second : first;
  return major !== undefined && Number.isInteger(major) ? major : undefined;
}
