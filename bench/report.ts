// The report of `npm run bench`: a table on stdout, bench/results/<size>.json, and docs/performance.md's table.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { graphSizes } from "../src/demo-data/sizes.js";
import { DEFAULT_NEO4J_VERSION } from "../src/config.js";
import { projectRoot } from "../src/project-root.js";
import { BASELINE, CONTENDER_NAMES, PRODUCT } from "./contenders.js";
import { BENCH_QUOTA, log, type BenchSize } from "./harness.js";
import type { BenchSubjects } from "./questions.js";
import { formatRatio, updateReadme, type BenchDocument } from "./readme.js";
import { checkTargets, type Results } from "./targets.js";

export interface Run {
  size: BenchSize;
  command: string;
  secondsPerCell: number;
  rounds: number;
  results: Results;
  /** Per contender measured on the dashboard at c=16: CPU ms per request of each process. */
  dashboardCpu: Record<string, Record<string, number>>;
  peakRssMb: number;
  subjects: BenchSubjects;
  elapsedMs: number;
}

const resultsDir = join(projectRoot, "bench", "results");

export async function report(run: Run): Promise<void> {
  const rows: BenchDocument["results"] = [];
  const lines = [
    "question         contender         c=1 p50 ms  p99 ms  ×http | c=16 req/s (spread)      ×http  ×auto",
  ];
  for (const [question, byContender] of Object.entries(run.results)) {
    const base = byContender[BASELINE];
    const auto = byContender["http-driver-auto"]?.[16];
    for (const contender of CONTENDER_NAMES) {
      const c1 = byContender[contender]?.[1];
      const c16 = byContender[contender]?.[16];
      if (c1 === undefined || c16 === undefined || base?.[1] === undefined || base[16] === undefined)
        continue;
      const ratioToHttpDriver = {
        p50: c1.p50 / base[1].p50,
        requestsPerSecond: c16.requestsPerSecond / base[16].requestsPerSecond,
      };
      const ratioToAutoCommit =
        auto === undefined ? undefined : c16.requestsPerSecond / auto.requestsPerSecond;
      rows.push({
        question,
        contender,
        c1,
        c16,
        ratioToHttpDriver,
        ...(ratioToAutoCommit === undefined ? {} : { ratioToAutoCommit }),
      });
      const [low, high] = c16.spread.requestsPerSecond;
      lines.push(
        [
          question.padEnd(16),
          contender.padEnd(16),
          c1.p50.toFixed(2).padStart(11),
          c1.p99.toFixed(2).padStart(7),
          ratioToHttpDriver.p50.toFixed(2).padStart(6),
          "|",
          c16.requestsPerSecond.toFixed(0).padStart(10),
          `(${low.toFixed(0)}–${high.toFixed(0)})`.padEnd(13),
          ratioToHttpDriver.requestsPerSecond.toFixed(2).padStart(6),
          (ratioToAutoCommit === undefined ? "" : ratioToAutoCommit.toFixed(2)).padStart(6),
        ].join(" "),
      );
    }
  }
  const serviceCpu = run.dashboardCpu[PRODUCT]?.service ?? Number.NaN;
  const targets = await checkTargets(run.size, resultsDir, {
    results: run.results,
    serviceCpuMsPerDashboard: serviceCpu,
    peakRssMb: run.peakRssMb,
  });
  lines.push("", "dashboard at c=16, CPU ms per request:");
  for (const [contender, byProcess] of Object.entries(run.dashboardCpu)) {
    lines.push(
      `  ${contender.padEnd(16)} ${Object.entries(byProcess)
        .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
        .join(", ")}`,
    );
  }
  lines.push(
    `${PRODUCT}: peak RSS ${run.peakRssMb.toFixed(0)} MB under c=16`,
    ...targets.map((t) => `${t.met ? "met   " : "MISSED"} ${t.target}: ${formatRatio(t.value)}`),
  );
  log(`\n${lines.join("\n")}`);

  const versions: Record<string, string> = {
    neo4j: DEFAULT_NEO4J_VERSION,
    node: process.version,
  };
  for (const name of [
    "@apollo/server",
    "@neo4j/graphql",
    "neo4j-driver",
    "graphql",
    "express",
    "@escape.tech/graphql-armor",
    "ioredis",
    "autocannon",
  ]) {
    versions[name] = await installedVersion(name);
  }
  const document: BenchDocument & Record<string, unknown> = {
    size: run.size,
    command: run.command,
    measuredAt: new Date().toISOString(),
    commit: measuredCommit(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model },
    versions,
    graph: graphSizes[run.size],
    quotas: `raised to ${BENCH_QUOTA} per window for this run (operator settings); any 429 fails the run`,
    method:
      `Each cell is ${String(run.secondsPerCell)} s of load after a warm-up at the same concurrency, ` +
      `repeated over ${String(run.rounds)} rounds in alternating contender order; a figure is the ` +
      "median over the rounds, and `spread` the lowest and highest req/s. c=1: sequential keep-alive " +
      "requests timed with performance.now(); c=16: autocannon. Every response is checked against the " +
      "answer all contenders agreed on. raw-driver runs in the bench process; the services' stdout goes " +
      "to files. CPU per request is read from /proc for each process over the dashboard's c=16 cells. " +
      "Every contender answers the dashboard and wide; the other questions are asked of kg-graphql, " +
      "stock and http-driver, the contenders their targets name.",
    secondsPerCell: run.secondsPerCell,
    rounds: run.rounds,
    subjects: run.subjects,
    contenders: CONTENDER_NAMES.filter((name) => rows.some((row) => row.contender === name)),
    results: rows,
    dashboardCpuMsPerRequest: run.dashboardCpu,
    service: { peakRssMb: run.peakRssMb, cpuPerRequestMs: serviceCpu },
    targets,
    elapsedSeconds: run.elapsedMs / 1000,
  };
  // A contender that completed no request in its window gives an infinite ratio: written as text.
  const finite = (_key: string, value: unknown) =>
    typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
  const file = join(resultsDir, `${run.size}.json`);
  await writeFile(file, `${JSON.stringify(document, finite, 2)}\n`);
  await updateReadme(document);
  log(`Wrote ${file} and its table in docs/performance.md (${(run.elapsedMs / 1000).toFixed(0)} s)`);
}

/**
 * The commit the figures are of, marked when the working tree differs from it (other than in the
 * results and the tables of docs/performance.md that earlier sizes of the same series wrote). Read
 * when the bench starts, right after its build: a commit made while it runs is not what it measures.
 */
export const measuredCommit = (): string => COMMIT_AT_START;

function currentCommit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: projectRoot, encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--", ".", ":!bench/results", ":!docs/performance.md") === "" ? "" : "+changes"}`;
  } catch {
    return "unknown (not a git checkout)";
  }
}

async function installedVersion(name: string): Promise<string> {
  const file = join(projectRoot, "node_modules", name, "package.json");
  return (JSON.parse(await readFile(file, "utf8")) as { version: string }).version;
}

const COMMIT_AT_START = currentCommit();
