// `npm run bench:analytics -- --size 10k|100k|1m [--requests 200] [--seconds 60] [--no-stock] [--only <text>]`:
// issue 15's questions (and issue 34's `where` questions and issue 35's neighborhoods and paths
// beside the fastest Cypher we write by hand for them, served over HTTP like http-driver's and
// also run through the driver alone), asked one at a time of kg-graphql and (where its generated schema can express them)
// stock, on the size's bench graph: a connection's first page against a page deep in the list
// (page 5,000 at 1m, the last page below that), the same two pages in another order (`orderBy`
// regret score, issue 24), `totalCount` alone and with one filter, and group lists (by status;
// by topic and month over everything, since a date and over a year; by ISO week over a year).
// Each is asked `--requests` times in sequence on one keep-alive connection, or for `--seconds`
// when that comes first (at least 5 times). Prints p50 and p99 and writes
// bench/results/analytics-<size>.json.
import { Agent, request } from "node:http";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import neo4j from "neo4j-driver";
import { encodeCursor } from "../src/cypher/cursor.js";
import { addBusyTopic, graphContenders, removeBusyTopic } from "./graph-questions.js";
import { projectRoot } from "../src/project-root.js";
import { BASELINE, CONTENDERS, PRODUCT } from "./contenders.js";
import { log, openBenchGraph, parseSize } from "./harness.js";
import { measuredCommit } from "./report.js";
import { median } from "./load.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:analytics -- --size 10k|100k|1m [--requests 200] [--seconds 60] [--no-stock] [--only <text>[,<text>…]]\n\nWhat it measures: the comment at the top of bench/analytics.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      requests: { type: "string", default: "200" },
      seconds: { type: "string", default: "60" },
      // `--no-stock`: kg-graphql alone, e.g. when stock's answers at 1M take minutes and the
      // targets are kg-graphql's own.
      stock: { type: "boolean", default: true },
      // `--only <text>[,<text>…]`: the questions whose name holds one of the texts (`neighborhood,pathsTo`).
      only: { type: "string" },
    },
    allowNegative: true,
  },
);
const size = parseSize(values.size, refuse);
const REQUESTS = count("requests");
const SECONDS = count("seconds");
/**
 * Warm-up before each measure: a tenth of `--seconds` of requests, and at least this many. Neo4j
 * and V8 compile a statement's hot paths over its first few hundred runs; 20 alone measured that
 * warming (a plain 20-customer page: 4.4 ms in its first 300 runs through the driver, 1.1 ms after).
 */
const WARM_UP = 20;
const AT_LEAST = 5;
const PAGE = 20;
/** Page 5,000 when the list is that long. */
const DEEP_ROW = 5_000 * PAGE;
/** The demo data's decisions span late 2021 to 2026: this keeps about a third (301,469 of 1m's). */
const RECENT = "2024-12-01";
const STATUSES = ["PROPOSED", "DECIDED", "EXECUTED", "REVERSED", "SUPERSEDED"];
/** A year of the demo data's decisions, for the year's groups (by topic and month, by week). */
const YEAR_START = "2025-01-01";
const YEAR_END = "2025-12-31";

interface Asked {
  name: string;
  kg: string;
  /** The same question in stock's generated schema, where it has one. */
  stock?: string;
  /**
   * The fastest Cypher we write by hand for the same answer (issue 34), run through the driver: a
   * list by name reads the name index in order and stops at the page, as kg-graphql's does.
   */
  cypher?: string;
}

async function main(): Promise<void> {
  const graph = await openBenchGraph(size);
  const children: ChildProcess[] = [];
  try {
    const counted = await graph.driver.executeQuery(
      "MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL RETURN count(d) AS dated",
    );
    const dated = Number(counted.records[0]?.get("dated"));
    /** The row the deep page starts after: page 5,000's, or the last full page's below that. */
    const row = Math.min(DEEP_ROW, dated - PAGE);
    const { records } = await graph.driver.executeQuery(
      `MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL
       WITH d ORDER BY d.decidedAt.epochSeconds DESC, d.decidedAt.nanosecond DESC, d.id
       SKIP $skip LIMIT 1
       RETURN toString(d.decidedAt.epochSeconds) AS seconds, d.decidedAt.nanosecond AS nanosecond, d.id AS id`,
      { skip: neo4j.int(row - 1) },
    );
    const deep = records[0];
    if (deep === undefined) throw new Error("the bench graph holds no dated decision");
    const after = encodeCursor([
      "Decision",
      String(deep.get("seconds")),
      Number(deep.get("nanosecond")),
      String(deep.get("id")),
    ]);
    const stockAfter = Buffer.from(`arrayconnection:${String(row - 1)}`).toString("base64");
    // Issue 24: the same pages by regret score, highest first (rows without a score last): page
    // 5,000, or the last full page of scored decisions below that.
    const scoredCount = await graph.driver.executeQuery(
      "MATCH (d:Decision) WHERE d.regretScore IS NOT NULL RETURN count(d) AS scored",
    );
    const regretRow = Math.min(DEEP_ROW, Number(scoredCount.records[0]?.get("scored")) - PAGE);
    const scored = await graph.driver.executeQuery(
      `MATCH (d:Decision) WHERE d.regretScore IS NOT NULL
       WITH d ORDER BY d.regretScore DESC, d.id SKIP $skip LIMIT 1
       RETURN d.regretScore AS score, d.id AS id`,
      { skip: neo4j.int(Math.max(0, regretRow - 1)) },
    );
    const scoredRow = scored.records[0];
    if (scoredRow === undefined) throw new Error("the bench graph holds too few scored decisions");
    const regretAfter = encodeCursor([
      "Decision/REGRET_SCORE/DESC",
      Number(scoredRow.get("score")),
      String(scoredRow.get("id")),
    ]);
    const regretStockAfter = Buffer.from(`arrayconnection:${String(regretRow - 1)}`).toString("base64");
    // Stock puts nulls first in a descending sort: asked for scored rows only, the same pages.
    const stockByRegret = "where: { regretScore: { gte: 0 } }, sort: [{ regretScore: DESC }, { id: ASC }]";
    const byRegret = "orderBy: {field: REGRET_SCORE, direction: DESC}";
    const titled = await graph.driver.executeQuery(
      "MATCH (d:Decision) WHERE d.title IS NOT NULL WITH d ORDER BY d.id LIMIT 1 RETURN d.title AS title",
    );
    const rareTitle = String(titled.records[0]?.get("title") ?? "");
    const page = `edges { cursor node { id title decidedAt } } pageInfo { hasNextPage endCursor }`;
    const regretPage = `edges { node { id title regretScore } } pageInfo { hasNextPage }`;
    const stockSort = "sort: [{ decidedAt: DESC }, { id: ASC }]";
    // Issue 34's `where` questions: a team of the demo data and today, for open commitments due.
    const teams = await graph.driver.executeQuery(
      "MATCH (p:Person) WHERE p.team IS NOT NULL RETURN p.team AS team, count(*) AS people ORDER BY people DESC, team LIMIT 1",
    );
    const team = String(teams.records[0]?.get("team") ?? "Platform");
    const today = new Date().toISOString().slice(0, 10);
    /** The page of decisions in their own order, newest first (a hand-written list's tail). */
    const newestPage = `WITH d ORDER BY d.decidedAt DESC, d.id LIMIT ${String(PAGE)} RETURN d.id AS id, d.title AS title`;
    // Issue 35's questions are asked on their own (`--only neighborhood,pathsTo`): the busy topic
    // they ask about is added for them and taken out after, never under the other questions.
    const asksGraph = values.only !== undefined && /neighborhood|pathsTo/.test(values.only);
    if (asksGraph) await addBusyTopic(graph.driver);
    const graphQuestions = asksGraph ? await graphContenders(graph.driver) : [];
    const asked: Asked[] = [
      {
        name: "decisions list (baseline)",
        kg: `{ decisions(limit: ${String(PAGE)}) { id title decidedAt } }`,
      },
      {
        name: "decisionsConnection page 1",
        kg: `{ decisionsConnection(first: ${String(PAGE)}) { ${page} } }`,
        stock: `{ decisionsConnection(first: ${String(PAGE)}, ${stockSort}) { ${page} } }`,
      },
      {
        name: `decisionsConnection page ${String(Math.floor(row / PAGE) + 1)}`,
        kg: `{ decisionsConnection(first: ${String(PAGE)}, after: "${after}") { ${page} } }`,
        stock: `{ decisionsConnection(first: ${String(PAGE)}, after: "${stockAfter}", ${stockSort}) { ${page} } }`,
      },
      {
        name: "decisionsConnection by regret, page 1",
        kg: `{ decisionsConnection(first: ${String(PAGE)}, ${byRegret}) { ${regretPage} } }`,
        stock: `{ decisionsConnection(first: ${String(PAGE)}, ${stockByRegret}) { ${regretPage} } }`,
      },
      {
        name: `decisionsConnection by regret, page ${String(Math.floor(regretRow / PAGE) + 1)}`,
        kg: `{ decisionsConnection(first: ${String(PAGE)}, after: "${regretAfter}", ${byRegret}) { ${regretPage} } }`,
        stock: `{ decisionsConnection(first: ${String(PAGE)}, after: "${regretStockAfter}", ${stockByRegret}) { ${regretPage} } }`,
      },
      {
        name: "totalCount",
        kg: "{ decisionsConnection { totalCount } }",
        stock: "{ decisionsConnection { totalCount } }",
      },
      {
        name: "totalCount status",
        kg: "{ decisionsConnection(status: DECIDED) { totalCount } }",
        stock: "{ decisionsConnection(where: { status: { eq: DECIDED } }) { totalCount } }",
      },
      {
        name: "decisionGroups [STATUS]",
        kg: "{ decisionGroups(by: [STATUS]) { status count } }",
        // stock has no group list: one filtered count per status value (not the missing-status group).
        stock: `{ ${STATUSES.map((status) => `${status}: decisionsConnection(where: { status: { eq: ${status} } }) { totalCount }`).join(" ")} }`,
      },
      {
        name: "decisionGroups [TOPIC, MONTH]",
        kg: "{ decisionGroups(by: [TOPIC, MONTH]) { topic { name } month count } }",
      },
      {
        // A dashboard's usual question: one range of dates, so only its rows are read.
        name: `decisionGroups [TOPIC, MONTH] since ${RECENT}`,
        kg: `{ decisionGroups(by: [TOPIC, MONTH], since: "${RECENT}") { topic { name } month count } }`,
      },
      {
        // Issue 22's "over a year's range": the calendar year 2025.
        name: `decisionGroups [TOPIC, MONTH] over a year`,
        kg: `{ decisionGroups(by: [TOPIC, MONTH], since: "${YEAR_START}", until: "${YEAR_END}") { topic { name } month count } }`,
      },
      {
        // Issue 24: a word many titles hold (about one decision in fifteen of the demo data's).
        name: 'search "kafka" (a common word)',
        kg: '{ decisionsConnection(search: "kafka", first: 20) { totalCount nodes { id title } } }',
      },
      {
        // A rare question: every word of one decision's title.
        name: "search a whole title (rare)",
        kg: `{ decisionsConnection(search: ${JSON.stringify(rareTitle)}, first: 20) { totalCount nodes { id title } } }`,
      },
      {
        name: "where status and regret (page 1)",
        kg: `{ decisions(limit: ${String(PAGE)}, where: {status: {eq: EXECUTED}, regretScore: {gte: 0.9}}) { id title } }`,
        cypher: `MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL AND d.status = 'EXECUTED' AND d.regretScore >= 0.9 ${newestPage}`,
      },
      {
        name: "where decidedBy's team (page 1)",
        kg: `{ decisions(limit: ${String(PAGE)}, where: {decidedBy: {team: {eq: ${JSON.stringify(team)}}}}) { id title } }`,
        cypher: `MATCH (d:Decision) WHERE d.decidedAt IS NOT NULL AND COLLECT { MATCH (d)-[:DECIDED_BY]->(p:Person) RETURN p ORDER BY p.id LIMIT 1 }[0].team = ${JSON.stringify(team)} ${newestPage}`,
      },
      {
        name: "topics with > 10 decisions, one reversed",
        kg: `{ topics(limit: ${String(PAGE)}, where: {decisions: {count: {gt: 10}, some: {status: {eq: REVERSED}}}}) { id name } }`,
        cypher: `MATCH (t:Topic) USING INDEX t:Topic(name) WHERE t.name >= '' AND COUNT { MATCH (t)<-[:ABOUT]-(d:Decision) RETURN DISTINCT d } > 10 AND EXISTS { MATCH (t)<-[:ABOUT]-(d:Decision {status: 'REVERSED'}) } WITH t ORDER BY t.name, t.id LIMIT ${String(PAGE)} RETURN t.id AS id, t.name AS name`,
      },
      {
        name: "customers wanting an unshipped feature",
        kg: `{ customers(limit: ${String(PAGE)}, where: {requestedFeatures: {some: {shipped: {eq: false}}}}) { id name } }`,
        cypher: `MATCH (c:Customer) USING INDEX c:Customer(name) WHERE c.name >= '' AND EXISTS { MATCH (c)-[:REQUESTED]->(f:Feature {shipped: false}) } WITH c ORDER BY c.name, c.id LIMIT ${String(PAGE)} RETURN c.id AS id, c.name AS name`,
      },
      {
        name: "people with no open commitment overdue",
        kg: `{ people(limit: ${String(PAGE)}, where: {openCommitments: {none: {dueOn: {lt: "${today}"}}}}) { id name } }`,
        cypher: `MATCH (p:Person) USING INDEX p:Person(name) WHERE p.name >= '' AND NOT EXISTS { MATCH (p)-[:COMMITTED_TO]->(m:Commitment {status: 'OPEN'}) WHERE m.dueOn < date('${today}') } WITH p ORDER BY p.name, p.id LIMIT ${String(PAGE)} RETURN p.id AS id, p.name AS name`,
      },
      {
        // Issue 24: a year's weeks, oldest first.
        name: `decisionGroups [WEEK] over a year`,
        kg: `{ decisionGroups(by: [WEEK], since: "${YEAR_START}", until: "${YEAR_END}", orderBy: DIMENSIONS, limit: 53) { week count } }`,
      },
      // Issue 35's neighborhoods and paths, each beside the Cypher we write by hand for it.
      ...graphQuestions,
    ].filter(
      (question) =>
        values.only === undefined || values.only.split(",").some((text) => question.name.includes(text)),
    );

    log(values.stock ? "Starting kg-graphql and stock…" : "Starting kg-graphql…");
    const product = await CONTENDERS[PRODUCT].start(graph);
    children.push(product.process);
    const stock = values.stock ? await CONTENDERS.stock.start(graph) : undefined;
    if (stock !== undefined) children.push(stock.process);
    // The hand-written contenders are served like http-driver's (a minimal Express endpoint, a
    // managed transaction), so that both sides of a ratio pay for HTTP; each is also run through
    // the driver in this process, for the database's share alone.
    const byHand = asked.some((question) => question.cypher !== undefined)
      ? await CONTENDERS[BASELINE].start(graph)
      : undefined;
    if (byHand !== undefined) children.push(byHand.process);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** One request on the keep-alive connection; its time in ms. Anything but data is an error. */
    const ask = (port: number, path: string, headers: Record<string, string>, query: string) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const body = JSON.stringify({ query });
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path,
            method: "POST",
            agent,
            headers: { "content-type": "application/json", ...headers },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
              const elapsed = performance.now() - started;
              const text = Buffer.concat(chunks).toString();
              if (res.statusCode !== 200 || text.includes('"errors"'))
                reject(new Error(`${query}\n${text.slice(0, 500)}`));
              else resolve(elapsed);
            });
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    /** Warm-up, then sequential askings of `once` (its time in ms each). */
    const timeWith = async (once: () => Promise<unknown>) => {
      const timed = async () => {
        const started = performance.now();
        await once();
        return performance.now() - started;
      };
      const warmUntil = performance.now() + (SECONDS * 1000) / 10;
      for (let i = 0; i < WARM_UP || performance.now() < warmUntil; i++) await timed();
      const times: number[] = [];
      const until = performance.now() + SECONDS * 1000;
      while (times.length < REQUESTS && (times.length < AT_LEAST || performance.now() < until))
        times.push(await timed());
      times.sort((a, b) => a - b);
      return {
        requests: times.length,
        p50: median(times),
        p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Number.NaN,
      };
    };
    const time = (port: number, path: string, headers: Record<string, string>, query: string) =>
      timeWith(() => ask(port, path, headers, query));
    const results = [];
    // Either contender may fail a question (stock's offset page deep in a large list sorts it
    // whole in one transaction's memory; a group over every row of 1m may pass the query
    // timeout): its error is the figure then.
    const timeOrError = (port: number, path: string, headers: Record<string, string>, query: string) =>
      time(port, path, headers, query).catch((error: unknown) => ({
        error:
          (error instanceof Error ? error.message : String(error)).split("\n")[1]?.slice(0, 300) ?? "failed",
      }));
    const p50 = (times: Awaited<ReturnType<typeof timeOrError>> | undefined) =>
      times === undefined || "error" in times ? Number.NaN : times.p50;
    const describe = (times: Awaited<ReturnType<typeof timeOrError>>) =>
      "error" in times
        ? `failed: ${times.error}`
        : `p50 ${times.p50.toFixed(2)} ms (p99 ${times.p99.toFixed(2)}, ${String(times.requests)} requests)`;
    // The service and Neo4j start cold: their JITs have compiled little yet, and the first
    // question measured paid for it (3x its time after the others at 10k). Every question is
    // asked round-robin first, by both sides, for up to 10 s; failures are measured below.
    const warmUntil = performance.now() + 10_000;
    for (let round = 0; round < 20 && performance.now() < warmUntil; round++)
      for (const question of asked) {
        if (performance.now() >= warmUntil) break;
        await ask(
          product.port,
          "/api/v1/graphql",
          { authorization: `Bearer ${graph.key}` },
          question.kg,
        ).catch(() => undefined);
        if (question.cypher !== undefined)
          await graph.driver.executeQuery(question.cypher).catch(() => undefined);
      }
    for (const question of asked) {
      const kg = await timeOrError(
        product.port,
        "/api/v1/graphql",
        { authorization: `Bearer ${graph.key}` },
        question.kg,
      );
      const stockTimes =
        question.stock === undefined || stock === undefined
          ? undefined
          : await timeOrError(stock.port, "/graphql", {}, question.stock);
      const cypher = question.cypher;
      const cypherTimes =
        cypher === undefined || byHand === undefined
          ? undefined
          : await timeOrError(byHand.port, "/cypher", {}, cypher);
      const cypherInProcess =
        cypher === undefined
          ? undefined
          : await timeWith(async () => {
              await graph.driver.executeQuery(cypher);
            }).catch((error: unknown) => ({
              error: error instanceof Error ? error.message.slice(0, 300) : "failed",
            }));
      results.push({ question: question.name, kg, stock: stockTimes, cypher: cypherTimes, cypherInProcess });
      log(
        `  ${question.name.padEnd(34)} kg-graphql ${describe(kg)}` +
          (stockTimes === undefined ? "" : `, stock ${describe(stockTimes)}`) +
          (cypherTimes === undefined || cypherInProcess === undefined
            ? ""
            : `, hand-written Cypher over HTTP ${describe(cypherTimes)} (${(p50(kg) / p50(cypherTimes)).toFixed(2)}×), ` +
              `through the driver alone ${describe(cypherInProcess)} (${(p50(kg) / p50(cypherInProcess)).toFixed(2)}×)`),
      );
    }
    const [, first, deepPage, regretFirst, regretDeep] = values.only === undefined ? results : [];
    const ratio = p50(deepPage?.kg) / p50(first?.kg);
    const regretRatio = p50(regretDeep?.kg) / p50(regretFirst?.kg);
    if (values.only === undefined) {
      log(`  deep page / page 1 (kg-graphql p50): ${ratio.toFixed(2)} (target ≤ 1.5 at 1m)`);
      log(`  by regret, deep page / page 1 (kg-graphql p50): ${regretRatio.toFixed(2)}`);
    }
    const file = join(
      projectRoot,
      "bench",
      "results",
      values.only === undefined ? `analytics-${size}.json` : `analytics-${size}-only.json`,
    );
    await writeFile(
      file,
      `${JSON.stringify(
        {
          size,
          command: `npm run bench:analytics -- --size ${size} --requests ${String(REQUESTS)} --seconds ${String(SECONDS)}${values.stock ? "" : " --no-stock"}${values.only === undefined ? "" : ` --only ${values.only}`}`,
          measuredAt: new Date().toISOString(),
          commit: measuredCommit(),
          method: `Every question asked round-robin by both sides for up to 10 s first; then per question and contender, ${String(SECONDS / 10)} s of warm-up requests (at least ${String(WARM_UP)}), then ${String(REQUESTS)} sequential requests on one keep-alive connection (fewer past ${String(SECONDS)} s, at least ${String(AT_LEAST)}); p50 and p99 in ms. stock's decisionGroups [STATUS] is one filtered totalCount per status value.`,
          deepRow: row,
          regretDeepRow: regretRow,
          results,
          deepPageOverFirstPage: ratio,
          byRegretDeepPageOverFirstPage: regretRatio,
        },
        null,
        2,
      )}\n`,
    );
    log(`Wrote ${file}`);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await removeBusyTopic(graph.driver);
    await graph.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
