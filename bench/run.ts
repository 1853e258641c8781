// `npm run bench -- --size 10k|100k|1m [--seconds 10] [--rounds 3] [--questions dashboard,wide]`:
// every contender answers the same questions on the same Neo4j and data, in one run; prints a
// table and writes bench/results/<size>.json and docs/performance.md's table. Figures are medians over the
// rounds, and ratios to http-driver measured in the same run.
import type { ChildProcess } from "node:child_process";
import type { Driver } from "neo4j-driver";
import { BASELINE, IN_PROCESS, PRODUCT, startContenders, type HttpContender } from "./contenders.js";
import { log, openBenchGraph, parseSize } from "./harness.js";
import { httpLoad, median, overRounds, post, rawDriverLoad, settle, type Cell } from "./load.js";
import { cpuMeter, localRedisPid, sampleRss } from "./proc.js";
import { canonical, questions, toJson, type Question } from "./questions.js";
import { report } from "./report.js";
import type { Results } from "./targets.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench -- --size 10k|100k|1m [--seconds 10] [--rounds 3] [--questions dashboard,wide]\n\nWhat it measures: the comment at the top of bench/run.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      seconds: { type: "string", default: "10" },
      rounds: { type: "string", default: "3" },
      questions: { type: "string" },
    },
  },
);
const size = parseSize(values.size, refuse);
const secondsPerCell = count("seconds");
const rounds = count("rounds");
const CONCURRENCIES = [1, 16] as const;
const WARM_UP_SECONDS = 2;
/**
 * The questions every contender answers. The others are measured for the targets that name them
 * (kg-graphql against stock, and its flatness over sizes), with http-driver as the reference: a
 * cell costs the same whoever answers, and the whole field on seven questions is 45 min a size.
 */
const WHOLE_FIELD = new Set(["dashboard", "wide"]);
const REFERENCES = new Set<string>([BASELINE, "stock", PRODUCT]);

async function main(): Promise<void> {
  const started = Date.now();
  const graph = await openBenchGraph(size);
  const { driver, subjects } = graph;
  const children: ChildProcess[] = [];
  try {
    const wanted = values.questions?.split(",");
    const asked = questions(subjects).filter((q) => wanted === undefined || wanted.includes(q.name));
    if (asked.length === 0)
      throw new Error(
        `--questions names none of ${questions(subjects)
          .map((q) => q.name)
          .join(", ")}`,
      );
    log("Starting the contenders…");
    const contenders = await startContenders(graph, children);
    const product = contenders.find((c) => c.name === PRODUCT);
    if (product?.process.pid === undefined) throw new Error(`${PRODUCT} did not start`);
    const redisPid = await localRedisPid(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

    log("Checking that every contender gives the same JSON…");
    for (const question of asked) await expectSameAnswers(driver, question, contenders);

    const results: Results = {};
    const dashboardCpu: Record<string, Record<string, number[]>> = {};
    let peakRss = 0;
    for (const question of asked) {
      const whole = WHOLE_FIELD.has(question.name);
      const field = whole ? contenders : contenders.filter((c) => REFERENCES.has(c.name));
      for (const concurrency of CONCURRENCIES) {
        const cells = new Map<string, Cell[]>();
        const record = (name: string, cell: Cell) => cells.set(name, [...(cells.get(name) ?? []), cell]);
        for (const contender of field) await httpLoad(contender, question, concurrency, WARM_UP_SECONDS);
        await settle(driver);
        for (let round = 1; round <= rounds; round++) {
          // Alternate the order each round, so machine noise hits every contender alike.
          const order = round % 2 === 0 ? [...field].reverse() : field;
          for (const contender of order) {
            const measured = concurrency === 16 && question.name === "dashboard";
            const meter = measured
              ? await cpuMeter({
                  service: contender.process.pid,
                  neo4j: graph.neo4jPid,
                  redis: contender === product ? redisPid : undefined,
                })
              : undefined;
            const rss =
              concurrency === 16 && contender === product ? sampleRss(product.process.pid) : undefined;
            const cell = await httpLoad(contender, question, concurrency, secondsPerCell);
            if (rss !== undefined) peakRss = Math.max(peakRss, rss.stop());
            if (meter !== undefined) {
              const spent = await meter.stop();
              const perProcess = (dashboardCpu[contender.name] ??= {});
              for (const [name, seconds] of Object.entries(spent)) {
                if (Number.isFinite(seconds))
                  (perProcess[name] ??= []).push((seconds * 1000) / cell.requests);
              }
            }
            await settle(driver);
            record(contender.name, cell);
          }
          if (whole) record(IN_PROCESS, await rawDriverLoad(driver, question, concurrency, secondsPerCell));
          log(
            `  ${question.name.padEnd(16)} c=${String(concurrency).padEnd(2)} round ${String(round)}/${String(rounds)} done`,
          );
        }
        for (const [name, list] of cells)
          ((results[question.name] ??= {})[name] ??= {})[concurrency] = overRounds(list);
      }
    }
    await report({
      size,
      command: `npm run bench -- --size ${size} --seconds ${String(secondsPerCell)} --rounds ${String(rounds)}${
        values.questions === undefined ? "" : ` --questions ${values.questions}`
      }`,
      secondsPerCell,
      rounds,
      results,
      dashboardCpu: Object.fromEntries(
        Object.entries(dashboardCpu).map(([contender, byProcess]) => [
          contender,
          Object.fromEntries(Object.entries(byProcess).map(([name, list]) => [name, median(list)])),
        ]),
      ),
      peakRssMb: peakRss / 1024,
      subjects,
      elapsedMs: Date.now() - started,
    });
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await graph.close();
  }
}

/** Asks every contender once, and fails unless all give the driver's data. */
async function expectSameAnswers(driver: Driver, question: Question, contenders: HttpContender[]) {
  const { records } = await driver.executeQuery(question.cypher, question.graphql.variables);
  const expected = canonical(toJson(records[0]?.get("data")));
  for (const contender of contenders) {
    const { status, body } = await post(contender, question);
    const data = canonical(contender.data(JSON.parse(body) as { data?: unknown }, question));
    if (status !== 200 || data !== expected) {
      throw new Error(
        `${contender.name} answers ${question.name} differently (${status}):\n${body}\n${expected}`,
      );
    }
    contender.expected.set(question.name, body);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
