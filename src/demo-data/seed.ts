import type { Driver } from "neo4j-driver";
import type { DemoDataSize } from "../config.js";
import { applySchemaFiles } from "../neo4j/apply-cypher.js";
import { generateDemoGraph } from "./generate.js";
import { deleteDomainData, loadDemoGraph } from "./load.js";
import { graphSizes } from "./sizes.js";

/** Applies `cypher/`, replaces the domain data with the demo organisation and reports the time. */
export async function seedDemoData(
  driver: Driver,
  database: string,
  size: DemoDataSize,
  seed: number,
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const counts = graphSizes[size];
  log(`Loading demo data "${size}" (seed ${seed}): ${counts.decisions.toLocaleString("en")} decisions…`);
  await applySchemaFiles(driver, database);
  await deleteDomainData(driver, database);
  await loadDemoGraph(driver, database, generateDemoGraph(counts, seed), counts);
  log(`Demo data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
