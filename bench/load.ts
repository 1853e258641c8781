// Load for `npm run bench`: one cell is one contender answering one question at one concurrency
// for a number of seconds, every answer checked against the one all contenders agreed on.
import { Agent, request } from "node:http";
import autocannon from "autocannon";
import type { Driver } from "neo4j-driver";
import type { HttpContender } from "./contenders.js";
import { toJson, type Question } from "./questions.js";

export interface Cell {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Requests completed in the cell. */
  requests: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request on the shared keep-alive connection. A connection the server closed while it sat
 * idle can fail as it is reused (ECONNRESET): that request is sent again, as Node's documentation
 * of `request.reusedSocket` advises.
 */
export function post(
  contender: HttpContender,
  question: Question,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: contender.port,
        path: contender.path(question),
        method: "POST",
        headers: contender.headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === "ECONNRESET") post(contender, question).then(resolve, reject);
      else reject(error);
    });
    req.end(contender.body(question));
  });
}

/** A cell over HTTP: sequential requests at concurrency 1, autocannon above. */
export function httpLoad(
  contender: HttpContender,
  question: Question,
  concurrency: number,
  seconds: number,
): Promise<Cell> {
  return concurrency === 1
    ? sequentialLoad(contender, question, seconds)
    : concurrentLoad(contender, question, concurrency, seconds);
}

/**
 * Concurrency 1: one keep-alive connection, one request after another, each timed with
 * performance.now() (autocannon's latencies are whole milliseconds, too coarse at this scale).
 */
async function sequentialLoad(contender: HttpContender, question: Question, seconds: number): Promise<Cell> {
  const latencies: number[] = [];
  const expected = contender.expected.get(question.name);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const { status, body } = await post(contender, question);
    latencies.push(performance.now() - start);
    if (status !== 200 || body !== expected)
      throw new Error(`${contender.name} answered ${question.name} with ${status}: ${body.slice(0, 300)}`);
  }
  return summarise(latencies, seconds);
}

/** autocannon, every response checked against the expected body. */
function concurrentLoad(
  contender: HttpContender,
  question: Question,
  connections: number,
  seconds: number,
): Promise<Cell> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${contender.port}${contender.path(question)}`,
        method: "POST",
        headers: contender.headers,
        body: contender.body(question),
        expectBody: contender.expected.get(question.name),
        connections,
        duration: seconds,
        // A label scan at 1M decisions under 16 connections can take seconds: slow is a result here.
        timeout: 120,
      },
      (error, result) => {
        if (error !== null && error !== undefined) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const failed = result.errors + result.non2xx + result.mismatches;
        if (failed > 0) {
          reject(
            new Error(
              `${contender.name} had ${failed} failed or wrong answers to ${question.name} (${JSON.stringify(result.statusCodeStats)})`,
            ),
          );
          return;
        }
        resolve({
          requestsPerSecond: result.requests.total / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          requests: result.requests.total,
        });
      },
    );
  });
}

/** raw-driver: the hand-written Cypher through the driver, in-process, `concurrency` at a time. */
export async function rawDriverLoad(
  driver: Driver,
  question: Question,
  concurrency: number,
  seconds: number,
): Promise<Cell> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      const { records } = await driver.executeQuery(question.cypher, question.graphql.variables, {
        routing: "READ",
      });
      JSON.stringify({ data: toJson(records[0]?.get("data")) });
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarise(latencies, seconds);
}

/**
 * Ends the transactions a finished cell left behind. autocannon stops at the deadline and drops
 * its connections, but Neo4j goes on running what they asked (a label scan at 1M decisions takes
 * seconds), which would slow whichever contender comes next.
 */
export async function settle(driver: Driver): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { records } = await driver.executeQuery(
      `SHOW TRANSACTIONS YIELD transactionId, currentQuery
       WHERE NOT currentQuery STARTS WITH 'SHOW TRANSACTIONS' RETURN collect(transactionId) AS ids`,
    );
    const ids = records[0]?.get("ids") as string[] | undefined;
    if (ids === undefined || ids.length === 0) return;
    await driver.executeQuery("TERMINATE TRANSACTIONS $ids", { ids }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function summarise(latencies: number[], seconds: number): Cell {
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requestsPerSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
  };
}

/** The median of a list (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle)
    ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
    : (sorted[Math.floor(middle)] ?? 0);
}

/** A cell over the rounds: the median of each figure, and the spread (lowest, highest) of req/s. */
export interface CellOverRounds extends Cell {
  spread: { requestsPerSecond: [number, number] };
}

export function overRounds(cells: Cell[]): CellOverRounds {
  const rates = cells.map((c) => c.requestsPerSecond);
  return {
    requestsPerSecond: median(rates),
    p50: median(cells.map((c) => c.p50)),
    p99: median(cells.map((c) => c.p99)),
    requests: cells.reduce((sum, c) => sum + c.requests, 0),
    spread: { requestsPerSecond: [Math.min(...rates), Math.max(...rates)] },
  };
}
