// `npm run bench:restart -- [--size 10k|100k|1m] [--requests 20]`: known documents never plan cold
// in front of a user (issue 22). A key is restricted to the bench's questions as trusted documents
// (what an integration ships) and Neo4j is stopped and started again, as `npm run db -- stop` and
// `start` do: its plan caches start empty, and so do its page cache and its JIT-compiled code.
// Twice: with kg-graphql pre-planning (each document's first request timed once the service has
// logged its next round, then its second request), and with a second kg-graphql that does not
// (`PREPLAN_MAX_DOCUMENTS=0`, its first requests timed after the same wait). Against the warm
// time, and the first request after `CALL db.clearQueryCaches()` on a warm server (plans alone
// cold). Prints the figures and writes bench/results/restart-<size>.json.
import { readFile, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { sha256Hex } from "../src/documents/document-hash.js";
import { projectRoot } from "../src/project-root.js";
import { log, openBenchGraph, parseSize, PRODUCT_ARGS, productEnv, startChild } from "./harness.js";
import { median } from "./load.js";
import { questions, type GraphQLRequest } from "./questions.js";
import { measuredCommit } from "./report.js";
import { readCommandLine } from "../scripts/command-line.js";

const { values, count, refuse } = readCommandLine(
  "Usage: npm run bench:restart -- [--size 10k|100k|1m] [--requests 20]\n\nWhat it measures: the comment at the top of bench/restart.ts.",
  {
    options: {
      size: { type: "string", default: "10k" },
      requests: { type: "string", default: "20" },
    },
  },
);
const size = parseSize(values.size, refuse);
const REQUESTS = count("requests");
const ROUND_TIMEOUT_MS = 180_000;

async function main(): Promise<void> {
  const graph = await openBenchGraph(size);
  const documents = questions(graph.subjects).map((question) => ({
    name: question.name,
    ...question.graphql,
  }));
  const keys = new ApiKeyStore(graph.driver, "neo4j");
  const { key, record } = await keys.create(`bench restart ${new Date().toISOString()}`, ["read"]);
  await keys.trust(record.id, Object.fromEntries(documents.map((d) => [sha256Hex(d.query), d.query])));
  const product = await startChild("kg-graphql", PRODUCT_ARGS, await productEnv(graph));
  const unplanned = await startChild("kg-graphql-without-preplanning", PRODUCT_ARGS, {
    ...(await productEnv(graph)),
    PREPLAN_MAX_DOCUMENTS: "0",
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  /** One request with the restricted key; its time in ms. Anything but data is an error. */
  const ask = (document: GraphQLRequest, port = product.port) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/v1/graphql",
          method: "POST",
          agent,
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const body = Buffer.concat(chunks).toString("utf8");
            if (res.statusCode === 200 && !body.includes('"errors"')) resolve(performance.now() - started);
            else reject(new Error(`${String(res.statusCode)}: ${body.slice(0, 300)}`));
          });
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ query: document.query, variables: document.variables }));
    });
  const rounds = async () =>
    (await readFile(product.output, "utf8")).split("\n").filter((line) => line.includes("Pre-planned"));
  const nextRound = async (after: number) => {
    const deadline = Date.now() + ROUND_TIMEOUT_MS;
    for (;;) {
      const logged = await rounds();
      if (logged.length > after) return logged.at(-1) ?? "";
      if (Date.now() > deadline) throw new Error("no pre-planning round was logged");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const askEach = async (port = product.port) => {
    const times: Record<string, number> = {};
    for (const document of documents) times[document.name] = await ask(document, port);
    return times;
  };
  try {
    await nextRound(0);
    const warm: Record<string, number> = {};
    for (const document of documents) {
      const times: number[] = [];
      for (let i = 0; i < 3 + REQUESTS; i++) times.push(await ask(document));
      warm[document.name] = median(times.slice(3));
    }

    log(`Restarting Neo4j (instance bench-${size}), kg-graphql pre-planning…`);
    const before = (await rounds()).length;
    const restarting = performance.now();
    await graph.restart();
    const neo4jReady = performance.now();
    const round = await nextRound(before);
    const planned = performance.now();
    const afterRestart = await askEach();
    const secondAfterRestart = await askEach();

    log("Restarting Neo4j again, kg-graphql without pre-planning…");
    product.process.kill("SIGTERM");
    await graph.restart();
    // The same wait as the pre-planning service's, so both meet a server up as long.
    await new Promise((resolve) => setTimeout(resolve, planned - neo4jReady));
    const withoutPreplanningAfterRestart = await askEach(unplanned.port);

    // Plans alone cold: the same first requests on a warm server with its plan caches emptied.
    await askEach(unplanned.port);
    await graph.driver.executeQuery("CALL db.clearQueryCaches()");
    const withoutPreplanning = await askEach(unplanned.port);

    const rows = documents.map(({ name }) => ({
      document: name,
      warmMedian: warm[name] ?? Number.NaN,
      firstAfterRestart: afterRestart[name] ?? Number.NaN,
      secondAfterRestart: secondAfterRestart[name] ?? Number.NaN,
      firstAfterRestartWithoutPreplanning: withoutPreplanningAfterRestart[name] ?? Number.NaN,
      firstWithPlanCachesCleared: withoutPreplanning[name] ?? Number.NaN,
    }));
    const results = {
      size,
      command: `npm run bench:restart -- --size ${size} --requests ${String(REQUESTS)}`,
      measuredAt: new Date().toISOString(),
      commit: measuredCommit(),
      method:
        "A key restricted to the bench's questions as trusted documents; the warm time is the median of --requests sequential requests after 3 unmeasured. Neo4j stopped and started; once kg-graphql logged its next pre-planning round, each document asked once (first after restart), then once more (second). Neo4j stopped and started again; after the same wait, each document asked once of a second kg-graphql with PREPLAN_MAX_DOCUMENTS=0 (first after restart without pre-planning); then, the server warm, CALL db.clearQueryCaches() and each asked once more (plans alone cold). Times end to end over HTTP, in ms, in the order the documents are listed.",
      neo4jRestartMs: neo4jReady - restarting,
      preplannedMsAfterNeo4jReady: planned - neo4jReady,
      preplanningRound: round,
      documents: rows,
    };
    log(
      `Neo4j restarted in ${(neo4jReady - restarting).toFixed(0)} ms; the service had pre-planned ${(planned - neo4jReady).toFixed(0)} ms later:`,
    );
    log(`  ${round.slice(0, 300)}`);
    const cell = (ms: number) => `${ms.toFixed(1).padStart(8)} ms`;
    log("after a restart:   warm p50     pre-planned 1st      2nd  not pre-planned  plans alone cold");
    for (const row of rows)
      log(
        `${row.document.padEnd(16)} ${cell(row.warmMedian)} ${cell(row.firstAfterRestart).padStart(19)} ${cell(row.secondAfterRestart)} ${cell(row.firstAfterRestartWithoutPreplanning).padStart(16)} ${cell(row.firstWithPlanCachesCleared).padStart(17)}`,
      );
    const file = join(projectRoot, "bench", "results", `restart-${size}.json`);
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
    log(`Wrote ${file}`);
  } finally {
    agent.destroy();
    product.process.kill("SIGTERM");
    unplanned.process.kill("SIGTERM");
    await keys.revoke(record.id);
    await graph.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
