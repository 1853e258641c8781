// `npm run bench:cold -- --size 10k|1m [--shapes 200] [--warm-up 1000] [--seed 22] [--cypher-only]`: what a
// question costs the first time it is asked. Neo4j plans every Cypher text it has not seen
// before it reads a row, and data teams rarely send the same document twice. `--shapes` distinct
// query shapes (documents whose Cypher differs: bench/cold-shapes.ts) are each asked once (first
// asking: Neo4j plans it), again (second asking: planned) and, after all of them, reworded (fields
// aliased, in reverse order: the same question, the same Cypher), end to end over HTTP, after Neo4j's
// plan caches were cleared (`CALL db.clearQueryCaches()`). Before that, `--warm-up` other shapes
// are asked and not measured: a server that has run for a while has its planner's code compiled
// by the JVM, and a plan-cold question should not also pay a JVM-cold planner (the instance may
// have been started by this very command). Also issue 22's six connections of one topic in
// one request and issue 34's `where` of ten operators over two link levels, each cold and warm,
// and the distribution of each root field's Cypher length. Prints the
// figures against issue 22's targets and writes bench/results/cold-<size>.json. `--cypher-only`
// prints the Cypher lengths of the same shapes (with stand-in ids) without a database.
import { writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";
import { queriesSent } from "../src/neo4j/combine.js";
import { projectRoot } from "../src/project-root.js";
import { DEFAULT_NEO4J_VERSION } from "../src/config.js";
import { LIMITS } from "../src/contract.js";
import { documentArbitrary, reworded, rootFieldNesting, type ShapeSubjects } from "./cold-shapes.js";
import { lineFit, plannerFloor, subqueryCount } from "./planning-cost.js";
import {
  log,
  openBenchGraph,
  parseSize,
  PRODUCT_ARGS,
  productAsker,
  productEnv,
  shapeSubjects,
  startChild,
} from "./harness.js";
import { median } from "./load.js";
import { measuredCommit } from "./report.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:cold -- --size 10k|1m [--shapes 200] [--warm-up 1000] [--seed 22] [--cypher-only]\n\nWhat it measures: the comment at the top of bench/cold.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      shapes: { type: "string", default: "200" },
      seed: { type: "string", default: "22" },
      "warm-up": { type: "string", default: "1000" },
      "cypher-only": { type: "boolean", default: false },
    },
  },
);
const size = parseSize(values.size, refuse);
const SHAPES = count("shapes");
const SEED = count("seed", 0);
const WARM_UP = count("warm-up", 0);
const COLD_RUNS = 5;
/** How many warm-up shapes between two readings of the planner's time. */
const WARM_UP_STEP = 250;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? Number.NaN;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: median(sorted),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

interface Shape {
  document: string;
  /** Each root field's Cypher length, in document order. */
  fieldLengths: number[];
  /** Each root field's nesting (cold-shapes.ts), in the same order. */
  fieldNesting: number[];
  subqueries: number;
}

/** Distinct shapes (documents whose Cypher, as the service sends it, differs): the warm-up's and the measured. */
async function generateShapes(subjects: ShapeSubjects): Promise<{ warmUp: Shape[]; shapes: Shape[] }> {
  const schema = await translatingSchema();
  const seen = new Set<string>();
  const distinct = async (seed: number, count: number) => {
    const found: Shape[] = [];
    for (const document of fc.sample(documentArbitrary(subjects), { seed, numRuns: count * 20 })) {
      if (found.length === count) break;
      const queries = await translateDocument(schema, document);
      const sent = queriesSent(queries)
        .map((query) => query.text)
        .join("\n");
      if (sent === "" || seen.has(sent)) continue;
      seen.add(sent);
      found.push({
        document,
        fieldLengths: queries.map((query) => query.text.length),
        fieldNesting: rootFieldNesting(document),
        subqueries: subqueryCount(sent),
      });
    }
    return found;
  };
  // The measured shapes first, so that they are the same whatever the warm-up's length.
  const shapes = await distinct(SEED, SHAPES);
  return { warmUp: await distinct(SEED + 1, WARM_UP), shapes };
}

/** The distribution of `lengths`, with how many are over 3,000 characters. */
const lengthSummary = (lengths: number[]) => ({
  fields: lengths.length,
  min: Math.min(...lengths),
  ...summary(lengths),
  over3000: lengths.filter((length) => length > 3_000).length,
});

/** Each root field's Cypher length over the shapes, in all and by the field's nesting. */
function cypherLengths(shapes: readonly Shape[]) {
  const fields = shapes.flatMap((shape) =>
    shape.fieldLengths.map((length, i) => ({ length, nesting: shape.fieldNesting[i] ?? 0 })),
  );
  const deepest = Math.max(...fields.map((field) => field.nesting));
  return {
    ...lengthSummary(fields.map((field) => field.length)),
    byNesting: Array.from({ length: deepest + 1 }, (_, nesting) => ({
      nesting,
      ...lengthSummary(fields.filter((field) => field.nesting === nesting).map((field) => field.length)),
    })),
  };
}

const printLengths = (c: ReturnType<typeof cypherLengths>) => {
  log(
    `Cypher per root field (${String(c.fields)}): p50 ${String(c.p50)}, p90 ${String(c.p90)}, p99 ${String(c.p99)}, max ${String(c.max)} characters; ${String(c.over3000)} over 3,000`,
  );
  for (const n of c.byNesting)
    log(
      `  nesting ${String(n.nesting)}: ${String(n.fields).padStart(3)} fields, p50 ${String(n.p50)}, p90 ${String(n.p90)}, max ${String(n.max)}; ${String(n.over3000)} over 3,000`,
    );
};

/** Stand-ins for the bench graph's ids, for `--cypher-only` (the Cypher's length does not depend on them). */
const STAND_IN_SUBJECTS: ShapeSubjects = {
  topicIds: ["topic-00001", "topic-00002"],
  ownerIds: ["person-000001", "person-000002"],
  teams: ["Search", "Platform"],
};

async function main(): Promise<void> {
  if (values["cypher-only"]) {
    printLengths(cypherLengths((await generateShapes(STAND_IN_SUBJECTS)).shapes));
    return;
  }
  const graph = await openBenchGraph(size);
  const product = await startChild("kg-graphql", PRODUCT_ARGS, await productEnv(graph));
  try {
    const subjects = await shapeSubjects(graph.driver);

    const { warmUp, shapes } = await generateShapes(subjects);
    log(
      `${String(shapes.length)} distinct query shapes (seed ${String(SEED)}), after ${String(warmUp.length)} others`,
    );

    const { ask, close } = productAsker(product.port, graph.key);
    const clearPlans = () => graph.driver.executeQuery("CALL db.clearQueryCaches()");
    const floorAt4 = async () => (await plannerFloor(graph.driver, [4]))[0]?.ms ?? Number.NaN;
    // The service's and Neo4j's warm-up (connections, JIT-compiled planner) before anything is
    // measured, with the planner's time on one synthetic statement as it goes: on a server just
    // started it keeps falling for about a thousand plannings, as the JVM compiles the planner.
    for (let i = 0; i < 20; i++) await ask("{ topics(limit: 1) { id } }");
    const warmUpFloor = [{ shapes: 0, ms: await floorAt4() }];
    for (const [i, shape] of warmUp.entries()) {
      await ask(shape.document);
      if ((i + 1) % WARM_UP_STEP === 0 || i === warmUp.length - 1)
        warmUpFloor.push({ shapes: i + 1, ms: await floorAt4() });
    }
    log(
      `the planner's time on a statement of 4 subqueries during the warm-up: ${warmUpFloor.map((point) => `${String(point.shapes)} shapes: ${ms(point.ms)}`).join(", ")}`,
    );
    await clearPlans();

    const first: number[] = [];
    const second: number[] = [];
    const rewordedAskings: number[] = [];
    const failures: { document: string; status: number; body: string }[] = [];
    const slow: { document: string; ms: number; secondMs: number; cypherLength: number }[] = [];
    for (const shape of shapes) {
      const cold = await ask(shape.document);
      const warm = await ask(shape.document);
      for (const answer of [cold, warm]) {
        if (answer.status !== 200 || answer.body.includes('"errors"'))
          failures.push({ document: shape.document, status: answer.status, body: answer.body.slice(0, 300) });
      }
      first.push(cold.ms);
      second.push(warm.ms);
      if (cold.ms > 250)
        slow.push({
          document: shape.document,
          ms: cold.ms,
          secondMs: warm.ms,
          cypherLength: Math.max(...shape.fieldLengths),
        });
    }

    // The same questions worded otherwise (aliases, the order of fields): the same Cypher texts,
    // planned. A pass of their own: a document of several root fields asked a third time has its
    // combination planned in the background (src/neo4j/runner.ts), which would share the cores
    // with the next shape's first asking.
    for (const shape of shapes) {
      const answer = await ask(reworded(shape.document, LIMITS.aliases));
      if (answer.status !== 200 || answer.body.includes('"errors"'))
        failures.push({ document: shape.document, status: answer.status, body: answer.body.slice(0, 300) });
      rewordedAskings.push(answer.ms);
    }

    const topic = subjects.topicIds[0] ?? "";
    const six = `{ ${[
      'since: "2024-01-01"',
      "status: DECIDED",
      "regretScoreMin: 0.5",
      "executionGapDaysMin: 10",
      'until: "2025-06-30"',
      'since: "2023-01-01", status: EXECUTED',
    ]
      .map(
        (filters, index) =>
          `a${String(index + 1)}: decisionsConnection(topicId: "${topic}", ${filters}) { totalCount nodes { id } }`,
      )
      .join(" ")} }`;
    const sixCold: number[] = [];
    const sixWarm: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      await clearPlans();
      sixCold.push((await ask(six)).ms);
      sixWarm.push((await ask(six)).ms);
    }

    // Issue 34: a `where` of ten operators over two link levels, its Cypher new to Neo4j each time.
    const team = subjects.teams[0] ?? "";
    // Its decidedAt condition bounds the page's ordered read; the second form, with a condition on
    // another property in its place, leaves the page three reads each holding the where.
    const where = (min: number, dated = true) =>
      `{ decisions(limit: 20, where: {status: {in: [DECIDED, EXECUTED]}, regretScore: {gte: ${String(min)}}, ` +
      `${dated ? 'decidedAt: {gte: "2023-01-01T00:00:00Z"}' : "executionGapDays: {lte: 1000}"}, title: {contains: "a"}, ` +
      `decidedBy: {team: {eq: ${JSON.stringify(team)}}, decisionsMade: {some: {status: {eq: REVERSED}}}}, ` +
      `topic: {name: {startsWith: "A"}}}) { id title decidedBy { name } } }`;
    const askCold = async (document: (i: number) => string) => {
      const cold: number[] = [];
      const warm: number[] = [];
      for (let i = 0; i < COLD_RUNS; i++) {
        await clearPlans();
        const asked = await ask(document(i));
        if (asked.status !== 200 || asked.body.includes('"errors"'))
          failures.push({ document: document(i), status: asked.status, body: asked.body.slice(0, 300) });
        cold.push(asked.ms);
        warm.push((await ask(document(i))).ms);
      }
      return { cold, warm };
    };
    const { cold: whereCold, warm: whereWarm } = await askCold((i) => where(i / 10));
    const { cold: undatedCold, warm: undatedWarm } = await askCold((i) => where(i / 10, false));

    // Why a first asking costs what it costs: its time against the subqueries Neo4j plans, and the
    // planner's floor per subquery on this machine (synthetic statements, nothing of ours in them).
    const fit = lineFit(
      shapes.map((shape) => shape.subqueries),
      first,
    );
    const floor = await plannerFloor(graph.driver, [1, 4, 16, 32]);
    const floorFit = lineFit(
      floor.map((point) => point.subqueries),
      floor.map((point) => point.ms),
    );
    const bySubqueries = [
      [0, 8],
      [9, 16],
      [17, 32],
      [33, Infinity],
    ].map(([low = 0, high = Infinity]) => {
      const times = shapes.flatMap((shape, i) =>
        shape.subqueries >= low && shape.subqueries <= high ? [first[i] ?? 0] : [],
      );
      return {
        subqueries: high === Infinity ? `${String(low)}+` : `${String(low)}–${String(high)}`,
        shapes: times.length,
        over250: times.filter((time) => time > 250).length,
        ...summary(times),
      };
    });

    const longest = [...shapes]
      .sort((a, b) => Math.max(...b.fieldLengths) - Math.max(...a.fieldLengths))
      .slice(0, 5)
      .map((shape) => ({ document: shape.document, cypherLength: Math.max(...shape.fieldLengths) }));
    const results = {
      size,
      command: `npm run bench:cold -- --size ${size} --shapes ${String(SHAPES)} --warm-up ${String(WARM_UP)} --seed ${String(SEED)}`,
      measuredAt: new Date().toISOString(),
      commit: measuredCommit(),
      neo4j: graph.neo4jVersion,
      java: graph.javaMajor,
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) },
      method:
        "After the warm-up shapes (asked, not measured) and CALL db.clearQueryCaches(), each shape (its Cypher text new to Neo4j) asked twice in sequence over HTTP on one keep-alive connection (first asking: Neo4j plans it; second asking: planned), and after all of them each again reworded (fields given aliases, every selection set reversed: the same question; a document of several root fields asked a third time may have its combination planned in the background meanwhile). The six connections: caches cleared before each cold run. Times end to end, in ms.",
      warmUpShapes: warmUp.length,
      warmUpPlannerFloor: warmUpFloor,
      shapes: shapes.length,
      firstAsking: summary(first),
      secondAsking: summary(second),
      rewordedAsking: summary(rewordedAskings),
      sixConnections: {
        document: six,
        coldMedian: median(sixCold),
        cold: sixCold,
        warmMedian: median(sixWarm),
      },
      whereTenOperators: {
        document: where(0),
        coldMedian: median(whereCold),
        cold: whereCold,
        warmMedian: median(whereWarm),
        unboundedOrder: {
          document: where(0, false),
          coldMedian: median(undatedCold),
          cold: undatedCold,
          warmMedian: median(undatedWarm),
        },
      },
      cypherCharactersPerRootField: cypherLengths(shapes),
      planning: {
        firstAskingOverSubqueries: fit,
        bySubqueries,
        plannerFloor: { statements: floor, perSubquery: floorFit.slope, intercept: floorFit.intercept },
      },
      longest,
      slowFirstAskings: slow,
      failures,
    };
    const { firstAsking: f, secondAsking: s, cypherCharactersPerRootField: c } = results;
    log(`first asking   p50 ${ms(f.p50)}  p90 ${ms(f.p90)}  p99 ${ms(f.p99)}  max ${ms(f.max)}`);
    log(`second asking  p50 ${ms(s.p50)}  p90 ${ms(s.p90)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`);
    const r = results.rewordedAsking;
    log(
      `reworded       p50 ${ms(r.p50)}  p90 ${ms(r.p90)}  p99 ${ms(r.p99)}  max ${ms(r.max)} (each shape again, fields aliased, in reverse order)`,
    );
    log(
      `six connections of one topic: cold ${ms(median(sixCold))} (median of ${String(COLD_RUNS)}), warm ${ms(median(sixWarm))}`,
    );
    printLengths(c);
    log(
      `first asking ≈ ${ms(fit.intercept)} + ${ms(fit.slope)} per subquery (r² ${fit.r2.toFixed(2)}); ` +
        `the planner alone: ${ms(floorFit.intercept)} + ${ms(floorFit.slope)} per subquery (${floor.map((point) => `${String(point.subqueries)}: ${ms(point.ms)}`).join(", ")})`,
    );
    for (const bucket of bySubqueries)
      log(
        `  ${bucket.subqueries.padEnd(6)} subqueries: ${String(bucket.shapes).padStart(3)} shapes, first asking p50 ${ms(bucket.p50)}, p99 ${ms(bucket.p99)}, ${String(bucket.over250)} over 250 ms`,
      );
    const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
    // Issue 32's targets (Neo4j 2026.09 on Java 25): at 10k, and p99 ≤ 800 ms at 1M.
    log(`Neo4j ${graph.neo4jVersion} on Java ${String(graph.javaMajor)}`);
    log(`${verdict(f.p50 <= 80)} first-asking p50 ≤ 80 ms`);
    log(
      `${verdict(f.p99 <= (size === "1m" ? 800 : 500))} first-asking p99 ≤ ${size === "1m" ? "800" : "500"} ms`,
    );
    log(`${verdict(f.max <= 1_500)} first-asking max ≤ 1,500 ms`);
    log(`${verdict(median(sixCold) <= 300)} six connections cold ≤ 300 ms`);
    log(
      `${verdict(median(whereCold) <= 300)} a where of ten operators over two link levels cold ≤ 300 ms (issue 34): ${ms(median(whereCold))}, warm ${ms(median(whereWarm))}`,
    );
    log(
      `     the same where with no bound on decidedAt (three reads): cold ${ms(median(undatedCold))}, warm ${ms(median(undatedWarm))}`,
    );
    log(
      `${verdict(c.over3000 / c.fields <= 0.05)} root-field Cypher ≤ 3,000 characters (${String(c.over3000)} of ${String(c.fields)} over)`,
    );
    log(
      `${String(failures.length)} answers not 200 without errors; ${String(slow.length)} first askings over 250 ms`,
    );
    // One file per release and Java, so that the arms of issue 32 sit side by side.
    const arm = `${graph.neo4jVersion === DEFAULT_NEO4J_VERSION ? "" : `-neo4j-${graph.neo4jVersion}`}-java${String(graph.javaMajor)}`;
    const file = join(projectRoot, "bench", "results", `cold-${size}${arm}.json`);
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
    log(`Wrote ${file}`);
    close();
  } finally {
    product.process.kill("SIGTERM");
    await graph.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
