// The contenders of `npm run bench`, by name: how each is started and how it is asked a question.
// raw-driver runs in the bench process itself (bench/load.ts); the others are HTTP services.
import type { ChildProcess } from "node:child_process";
import type { Driver } from "neo4j-driver";
import { log, PRODUCT_ARGS, productEnv, startChild, tsxArgs, type BenchGraph } from "./harness.js";
import { unwrapSingular, type GraphQLRequest, type Question } from "./questions.js";

/** The ratio every figure is given against. */
export const BASELINE = "http-driver";
export const PRODUCT = "kg-graphql";
/** Hand-written Cypher through the driver in the bench process: no HTTP at all. */
export const IN_PROCESS = "raw-driver";

/** How a contender served over HTTP is started and asked. */
interface ContenderSpec {
  start: (graph: BenchGraph) => Promise<{ process: ChildProcess; port: number }>;
  path: (question: Question) => string;
  body: (question: Question) => string;
  headers: (graph: BenchGraph) => Record<string, string>;
  /** Its answer's `data` in the contract's shape. */
  data: (body: { data?: unknown }, question: Question) => unknown;
  /** It cannot answer without the APOC plugin (not published for Neo4j 2025 and later). */
  needsApoc?: true;
}

const json = { "content-type": "application/json" };
const graphqlBody = (request: GraphQLRequest) =>
  JSON.stringify({ query: request.query, variables: request.variables });

const httpDriver = (name: string, transaction: "managed" | "auto"): ContenderSpec => ({
  start: (graph) =>
    startChild(name, tsxArgs("bench/contenders/http-driver.ts"), {
      ...graph.env,
      SUBJECTS: JSON.stringify(graph.subjects),
      TRANSACTION: transaction,
    }),
  path: (q) => `/q/${q.name}`,
  body: () => "{}",
  headers: () => json,
  data: (body) => body.data,
});

/** In report order. */
export const CONTENDERS = {
  /** A minimal Express endpoint running the hand-written Cypher in a managed transaction. */
  [BASELINE]: httpDriver(BASELINE, "managed"),
  /** The same endpoint running it as one auto-commit query, as kg-graphql does. */
  "http-driver-auto": httpDriver("http-driver-auto", "auto"),
  /** Apollo Server with a resolver per field, each running its own Cypher: N+1. */
  naive: {
    start: (graph) => startChild("naive", tsxArgs("bench/contenders/naive.ts"), graph.env),
    path: () => "/graphql",
    body: (q) => graphqlBody(q.graphql),
    headers: () => json,
    data: (body) => body.data,
  },
  /** `@neo4j/graphql` with its generated schema, out of the box. */
  stock: {
    start: (graph) => startChild("stock", tsxArgs("bench/contenders/stock.ts"), graph.env),
    path: () => "/graphql",
    body: (q) => graphqlBody(q.stock),
    headers: () => json,
    data: (body, q) => unwrapSingular(body.data, q.stock.singular),
    // The library as shipped writes DateTimes with `apoc.date.convertFormat`.
    needsApoc: true,
  },
  [PRODUCT]: {
    start: async (graph) => startChild(PRODUCT, PRODUCT_ARGS, await productEnv(graph)),
    path: () => "/api/v1/graphql",
    body: (q) => graphqlBody(q.graphql),
    headers: (graph) => ({ ...json, authorization: `Bearer ${graph.key}` }),
    data: (body) => body.data,
  },
} satisfies Record<string, ContenderSpec>;

export type ContenderName = keyof typeof CONTENDERS;

/** A started contender. */
export interface HttpContender {
  name: ContenderName;
  port: number;
  process: ChildProcess;
  path: (question: Question) => string;
  body: (question: Question) => string;
  headers: Record<string, string>;
  data: (body: { data?: unknown }, question: Question) => unknown;
  /** The exact response body of each question, checked on every request under load. */
  expected: Map<string, string>;
}

/** Starts every contender; each child goes into `children` as soon as it runs, for the caller to stop. */
export async function startContenders(graph: BenchGraph, children: ChildProcess[]): Promise<HttpContender[]> {
  const started: HttpContender[] = [];
  const apoc = await hasApoc(graph.driver);
  for (const [name, spec] of Object.entries(CONTENDERS) as [ContenderName, ContenderSpec][]) {
    if (spec.needsApoc === true && !apoc) {
      log(
        `  ${name} left out: it needs APOC, which this Neo4j does not have (LOCAL_NEO4J_VERSION=5.26.30 has it).`,
      );
      continue;
    }
    const { process, port } = await spec.start(graph);
    children.push(process);
    started.push({
      name,
      port,
      process,
      path: spec.path,
      body: spec.body,
      headers: spec.headers(graph),
      data: spec.data,
      expected: new Map(),
    });
  }
  return started;
}

/** Whether the database has the APOC functions the library as shipped calls. */
async function hasApoc(driver: Driver): Promise<boolean> {
  const { records } = await driver.executeQuery(
    "SHOW FUNCTIONS YIELD name WHERE name = 'apoc.date.convertFormat' RETURN count(*) AS n",
  );
  return Number(records[0]?.get("n")) > 0;
}

/** Every contender's name in report order, raw-driver first. */
export const CONTENDER_NAMES: string[] = [IN_PROCESS, ...Object.keys(CONTENDERS)];
