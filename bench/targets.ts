// Issue 14's targets, checked against a run (and, for flatness, against the committed 10k run).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { BASELINE, PRODUCT } from "./contenders.js";
import type { BenchSize } from "./harness.js";
import type { CellOverRounds } from "./load.js";

/** question → contender → concurrency → cell. */
export type Results = Record<string, Record<string, Record<number, CellOverRounds>>>;

export interface Target {
  target: string;
  value: number;
  met: boolean;
}

export interface Measured {
  results: Results;
  /** kg-graphql's CPU milliseconds per dashboard request at c=16. */
  serviceCpuMsPerDashboard: number;
  peakRssMb: number;
}

export async function checkTargets(size: BenchSize, resultsDir: string, run: Measured): Promise<Target[]> {
  const rate = (question: string, contender: string) =>
    run.results[question]?.[contender]?.[16]?.requestsPerSecond ?? Number.NaN;
  const list: Target[] = [];
  const atLeast = (target: string, value: number, bound: number) =>
    list.push({ target, value, met: value >= bound });
  const atMost = (target: string, value: number, bound: number) =>
    list.push({ target, value, met: value <= bound });
  const asked = Object.keys(run.results);

  if (asked.includes("dashboard")) {
    atLeast(
      `dashboard: ${PRODUCT} ≥ 1.0× ${BASELINE} req/s at c=16`,
      rate("dashboard", PRODUCT) / rate("dashboard", BASELINE),
      1,
    );
    atLeast(
      `dashboard: ${PRODUCT} ≥ 10× naive req/s at c=16`,
      rate("dashboard", PRODUCT) / rate("dashboard", "naive"),
      10,
    );
    atMost(`dashboard: ${PRODUCT} CPU ≤ 0.8 ms per request (ms)`, run.serviceCpuMsPerDashboard, 0.8);
  }
  if (asked.includes("wide")) {
    atLeast(
      `wide: ${PRODUCT} ≥ 0.8× ${BASELINE} req/s at c=16`,
      rate("wide", PRODUCT) / rate("wide", BASELINE),
      0.8,
    );
  }
  // Left out where the library as shipped cannot run (no APOC on Neo4j 2025 and later).
  for (const question of asked.filter((q) => run.results[q]?.stock !== undefined)) {
    atLeast(
      `${question}: ${PRODUCT} ≥ 1.0× stock req/s at c=16`,
      rate(question, PRODUCT) / rate(question, "stock"),
      1,
    );
  }
  const baseline = join(resultsDir, "10k.json");
  if (size !== "10k" && existsSync(baseline)) {
    const small = JSON.parse(await readFile(baseline, "utf8")) as {
      results: { question: string; contender: string; c1: { p50: number } }[];
    };
    for (const question of asked) {
      const before = small.results.find((r) => r.question === question && r.contender === PRODUCT);
      const now = run.results[question]?.[PRODUCT]?.[1]?.p50;
      if (before === undefined || now === undefined) continue;
      atMost(`${question}: ${PRODUCT} p50 at ${size} ≤ 1.5× p50 at 10k`, now / before.c1.p50, 1.5);
    }
  }
  atMost(`${PRODUCT} RSS ≤ 300 MB under c=16 (MB)`, run.peakRssMb, 300);
  return list;
}
