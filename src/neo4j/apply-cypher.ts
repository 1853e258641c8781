import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Driver } from "neo4j-driver";
import { projectRoot } from "../project-root.js";

export const cypherDir = join(projectRoot, "cypher");

/**
 * The statements of a `.cypher` file: `//` comment lines dropped, split at a `;` that ends a
 * line. Schema files hold one statement per `;`-terminated line group, nothing fancier.
 */
export function splitStatements(source: string): string[] {
  return source
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("//"))
    .join("\n")
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/**
 * Applies every `cypher/*.cypher` file in name order (constraints and indexes only, each
 * `IF NOT EXISTS`, so this is idempotent and never touches the domain data) and waits until the
 * indexes are online.
 */
export async function applySchemaFiles(driver: Driver, database: string): Promise<number> {
  const files = (await readdir(cypherDir)).filter((name) => name.endsWith(".cypher")).sort();
  let applied = 0;
  // Schema commands run as auto-commit transactions, one per statement.
  const session = driver.session({ database });
  try {
    for (const file of files) {
      for (const statement of splitStatements(await readFile(join(cypherDir, file), "utf8"))) {
        await session.run(statement);
        applied++;
      }
      await session.run("CALL db.awaitIndexes(600)");
    }
  } finally {
    await session.close();
  }
  return applied;
}
