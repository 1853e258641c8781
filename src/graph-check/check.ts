// `npm run graph:check`: every node that breaks contract §8's model, found in bounded batches. Each
// label is read in `id` order from its constraint's index, a batch at a time (one short read
// transaction each, the problems computed in Neo4j so only bad nodes travel), then once more for
// the nodes whose `id` is missing or not a string, which that index cannot seek.
import neo4j, { type Driver } from "neo4j-driver";
import { constantsOf, isServableDate, isServableInstant } from "../cypher/values.js";
import type { LabelModel, PropertyRule } from "./model.js";

/** Cypher's name of the type §8 stores a GraphQL type as. */
const STORED_AS: Readonly<Record<string, string>> = {
  ID: "STRING",
  String: "STRING",
  Boolean: "BOOLEAN",
  // A whole number written as a float (JavaScript's numbers are) is served as an Int too.
  Int: "INTEGER | FLOAT",
  Float: "INTEGER | FLOAT",
  Date: "DATE",
  DateTime: "ZONED DATETIME",
};

const quoted = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The check of one property of `n`: a problem's text, or null. */
function propertyCheck(rule: PropertyRule): string {
  const value = `n.\`${rule.name}\``;
  const problem = (text: string) => quoted(`${rule.name}: ${text}`);
  const storedAs = rule.values === undefined ? STORED_AS[rule.type] : "STRING";
  if (storedAs === undefined) throw new Error(`No stored type for ${rule.type}`);
  const beyond =
    rule.values !== undefined
      ? [`NOT ${value} IN [${rule.values.map(quoted).join(", ")}]`, problem(`outside ${rule.type}`)]
      : rule.type === "Int"
        ? [
            `NOT (-2147483648 <= ${value} <= 2147483647 AND ${value} = toInteger(${value}))`,
            problem("not a 32-bit whole number"),
          ]
        : rule.type === "Date"
          ? [`NOT ${isServableDate(value)}`, problem("beyond the years 0000-9999")]
          : rule.type === "DateTime"
            ? [`NOT ${isServableInstant(value)}`, problem("beyond the years 0000-9999")]
            : undefined;
  return [
    `CASE WHEN ${value} IS NULL THEN ${rule.required ? problem("missing") : "null"}`,
    `WHEN NOT ${value} IS :: ${storedAs} THEN ${problem("another type")}`,
    ...(beyond === undefined ? [] : [`WHEN ${beyond[0]} THEN ${beyond[1]}`]),
    "END",
  ].join(" ");
}

/** Cypher for the list of `n`'s problems (empty when it keeps the model). */
export function problemsOf(model: LabelModel): string {
  const checks = [
    ...model.properties.map(propertyCheck),
    ...model.links.map(
      ({ field, pattern, v }) =>
        `CASE WHEN COUNT { MATCH ${pattern.replace("(this)", "(n)")} RETURN DISTINCT ${v} } > 1 THEN ${quoted(`${field}: several targets`)} END`,
    ),
  ];
  return `[problem IN [${checks.join(", ")}] WHERE problem IS NOT NULL]`;
}

/** How long one read may take before the check gives up (a batch reads in well under a second). */
const READ_TIMEOUT_MS = 120_000;

/** What the check found for one label and problem: how many nodes, and the first ones' ids. */
export interface Finding {
  label: string;
  problem: string;
  count: number;
  examples: string[];
}

export interface CheckReport {
  nodes: number;
  findings: Finding[];
  ms: number;
}

export interface CheckOptions {
  database: string;
  /** Nodes per read transaction. */
  batchSize?: number;
  /** How many ids each finding lists. */
  examples?: number;
  progress?: (line: string) => void;
}

/** Reads every domain node in batches and reports each one that breaks the model. */
export async function checkGraph(
  driver: Driver,
  models: readonly LabelModel[],
  { database, batchSize = 20_000, examples = 5, progress = () => undefined }: CheckOptions,
): Promise<CheckReport> {
  const started = performance.now();
  const findings = new Map<string, Finding>();
  let nodes = 0;
  const found = (label: string, problem: string, count: number, ids: string[]) => {
    const key = `${label}\u0000${problem}`;
    const finding = findings.get(key) ?? { label, problem, count: 0, examples: [] };
    finding.count += count;
    finding.examples.push(...ids.slice(0, examples - finding.examples.length));
    findings.set(key, finding);
  };
  // Each read is one bounded transaction: a database that stops answering fails the check.
  const read = (text: string, parameters: Record<string, unknown>) =>
    driver.executeQuery(
      text,
      { ...parameters, ...constantsOf(text) },
      {
        database,
        routing: "READ",
        transactionConfig: { timeout: READ_TIMEOUT_MS },
      },
    );

  for (const model of models) {
    const { label } = model;
    const problems = problemsOf(model);
    const batch = (first: boolean) =>
      [
        `MATCH (n:${label}) USING INDEX n:${label}(id)`,
        first ? "WHERE n.id >= ''" : "WHERE n.id > $after",
        "WITH n ORDER BY n.id LIMIT $batchSize",
        `WITH n, ${problems} AS problems`,
        "RETURN count(n) AS seen, max(n.id) AS last,",
        "  collect(CASE WHEN size(problems) > 0 THEN [n.id, problems] END) AS bad",
      ].join("\n");
    let after: string | undefined;
    let checked = 0;
    for (;;) {
      const { records } = await read(batch(after === undefined), { after, batchSize: neo4j.int(batchSize) });
      const record = records[0];
      const seen = Number(record?.get("seen") ?? 0);
      for (const [id, list] of (record?.get("bad") ?? []) as [string, string[]][])
        for (const problem of list) found(label, problem, 1, [id]);
      checked += seen;
      nodes += seen;
      if (seen > 0) progress(`${label}: ${checked.toLocaleString("en")} nodes checked`);
      if (seen < batchSize) break;
      after = record?.get("last") as string;
    }
    // The nodes the `id` index cannot seek: no id, or one of another type (one scan of the label),
    // counted by problem in Neo4j, so the answer stays small however many there are. Each has one
    // `id` problem, so those counts are the nodes.
    const { records } = await read(
      [
        // Not `NOT n.id IS :: STRING NOT NULL`: Neo4j 5.26 answers no row for it under the id constraint.
        `MATCH (n:${label}) WHERE n.id IS NULL OR NOT n.id IS :: STRING`,
        `UNWIND ${problems} AS problem`,
        "WITH problem, count(n) AS count, collect('(node ' + elementId(n) + ')')[..$examples] AS ids",
        "RETURN problem, count, ids",
      ].join("\n"),
      { examples: neo4j.int(examples) },
    );
    for (const record of records) {
      const problem = record.get("problem") as string;
      const count = Number(record.get("count"));
      found(label, problem, count, record.get("ids") as string[]);
      if (problem.startsWith("id: ")) nodes += count;
    }
  }
  return {
    nodes,
    findings: [...findings.values()].sort(
      (a, b) => a.label.localeCompare(b.label) || a.problem.localeCompare(b.problem),
    ),
    ms: performance.now() - started,
  };
}

/** The report as the command prints it: a summary by label and problem with the first ids. */
export function formatReport(report: CheckReport): string {
  const seconds = (report.ms / 1000).toFixed(1);
  const head = `Checked ${report.nodes.toLocaleString("en")} nodes in ${seconds} s against the graph model (docs/api.md §8).`;
  if (report.findings.length === 0) return `${head}\nNo problems found.`;
  const width = Math.max(...report.findings.map((f) => `${f.label} ${f.problem}`.length));
  const rows = report.findings.map(
    (f) =>
      `  ${`${f.label} ${f.problem}`.padEnd(width)}  ${String(f.count).padStart(9)}  ${f.examples.join(", ")}${f.count > f.examples.length ? ", …" : ""}`,
  );
  const total = report.findings.reduce((sum, f) => sum + f.count, 0);
  return [
    head,
    `${total.toLocaleString("en")} problems:`,
    `  ${"label and problem".padEnd(width)}  ${"nodes".padStart(9)}  first ids`,
    ...rows,
  ].join("\n");
}
