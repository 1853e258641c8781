// `npm run bench:readme -- 10k 100k 1m` (also done by every `npm run bench`): writes a run's table into
// docs/performance.md, between `<!-- bench:<size> -->` and `<!-- /bench:<size> -->`, so that it always
// shows the latest committed results with the command that produced them.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as prettier from "prettier";
import { projectRoot } from "../src/project-root.js";

interface Cell {
  requestsPerSecond: number;
  p50: number;
  spread?: { requestsPerSecond: [number, number] };
}

export interface BenchDocument {
  size: string;
  command: string;
  measuredAt: string;
  /** The commit measured; older results did not say. */
  commit?: string;
  machine: { cores: number; cpu?: string };
  results: {
    question: string;
    contender: string;
    c1: Cell;
    c16: Cell;
    ratioToHttpDriver: { p50: number; requestsPerSecond: number };
    /** c=16 req/s against http-driver-auto (one auto-commit query, as kg-graphql runs), when it was asked. */
    ratioToAutoCommit?: number | string;
  }[];
  /** In report order; older results did not list http-driver-auto. */
  contenders: string[];
  /** contender → process → CPU ms per dashboard request at c=16. */
  dashboardCpuMsPerRequest?: Record<string, Record<string, number>>;
  service: { peakRssMb: number; cpuPerRequestMs: number };
  /** `value` is "Infinity" when the other contender completed no request in its window. */
  targets: { target: string; value: number | string; met: boolean }[];
  elapsedSeconds: number;
}

/** A target's value; a non-finite one (written as text in the JSON) means the other side completed nothing. */
export function formatRatio(value: number | string): string {
  return typeof value === "number" && Number.isFinite(value)
    ? value.toFixed(2)
    : "∞: the other contender completed no request within the window";
}

export function markdown(document: BenchDocument): string {
  const CONTENDERS = document.contenders;
  const questions = [...new Set(document.results.map((row) => row.question))];
  const lines = [
    `\`${document.command}\` (${document.measuredAt.slice(0, 10)}${
      document.commit === undefined ? "" : `, commit ${document.commit}`
    }, ${document.machine.cores} cores, ` +
      `${Math.round(document.elapsedSeconds)} s). Each cell: p50 at c=1 · requests/s at c=16, ` +
      "in square brackets the lowest and highest req/s over the rounds, and in round brackets the ratio to http-driver (p50: lower is better; req/s: higher is better). " +
      "An empty cell is a contender the question was not asked of.",
    "",
    `| question | ${CONTENDERS.join(" | ")} |`,
    `| --- | ${CONTENDERS.map(() => "---").join(" | ")} |`,
  ];
  for (const question of questions) {
    const cells = CONTENDERS.map((contender) => {
      const row = document.results.find((r) => r.question === question && r.contender === contender);
      if (row === undefined) return "";
      const { p50, requestsPerSecond } = row.ratioToHttpDriver;
      const spread = row.c16.spread?.requestsPerSecond;
      const rate = `${row.c16.requestsPerSecond.toFixed(0)}/s${spread === undefined ? "" : ` [${spread.map((r) => r.toFixed(0)).join("–")}]`}`;
      return contender === "http-driver"
        ? `${row.c1.p50.toFixed(2)} ms · ${rate}`
        : `${row.c1.p50.toFixed(2)} ms (${p50.toFixed(2)}×) · ${rate} (${requestsPerSecond.toFixed(2)}×)`;
    });
    lines.push(`| ${question} | ${cells.join(" | ")} |`);
  }
  const cpu = Object.entries(document.dashboardCpuMsPerRequest ?? {}).map(
    ([contender, byProcess]) =>
      `${contender}: ${Object.entries(byProcess)
        .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
        .join(", ")}`,
  );
  const auto = document.results.flatMap((row) =>
    // Questions not asked of http-driver-auto have no ratio (written as "NaN" by older runs).
    row.contender === "kg-graphql" &&
    typeof row.ratioToAutoCommit === "number" &&
    Number.isFinite(row.ratioToAutoCommit)
      ? [`${row.question} ${row.ratioToAutoCommit.toFixed(2)}×`]
      : [],
  );
  lines.push(
    "",
    ...(auto.length === 0 ? [] : [`kg-graphql at c=16 against http-driver-auto: ${auto.join(", ")}.`, ""]),
    ...(cpu.length === 0
      ? []
      : [`CPU ms per dashboard request at c=16, per process: ${cpu.join("; ")}.`, ""]),
    `kg-graphql under load: peak RSS ${document.service.peakRssMb.toFixed(0)} MB. Targets:`,
    "",
    ...document.targets.map(
      (t) => `- ${t.met ? "met" : "**missed**"}: ${t.target} (${formatRatio(t.value)})`,
    ),
  );
  return lines.join("\n");
}

export async function updateReadme(document: BenchDocument): Promise<void> {
  const file = join(projectRoot, "docs", "performance.md");
  const readme = await readFile(file, "utf8");
  const open = `<!-- bench:${document.size} -->`;
  const close = `<!-- /bench:${document.size} -->`;
  const start = readme.indexOf(open);
  const end = readme.indexOf(close);
  if (start === -1 || end < start) throw new Error(`docs/performance.md has no ${open} … ${close} block`);
  const updated = `${readme.slice(0, start + open.length)}\n${markdown(document)}\n${readme.slice(end)}`;
  const options = await prettier.resolveConfig(file);
  await writeFile(file, await prettier.format(updated, { ...options, filepath: file }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const size of process.argv.slice(2)) {
    const file = join(projectRoot, "bench", "results", `${size}.json`);
    await updateReadme(JSON.parse(await readFile(file, "utf8")) as BenchDocument);
  }
}
