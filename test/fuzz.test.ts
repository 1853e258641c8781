import { expect } from "chai";
import fc from "fast-check";
import { loadBadValues, loadFixtures } from "./support/fixtures.js";
import {
  checkAnswer,
  requestArbitrary,
  send,
  timeLimit,
  type FuzzAnswer,
  type FuzzRequest,
} from "./support/fuzz.js";
import { buildTestSchema, startService, type RunningService } from "./support/service.js";

/** `npm run fuzz -- --runs N [--seed S] [--concurrency C]` sets these; `npm test` runs a bounded number. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Callers sending at once. One caller lets fast-check shrink a failure; several sample the same
 *  generator and send it from that many callers, as a burst of new documents (issue 32). */
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 1);
/** The contract's bound on any answer: the query timeout (in the suite 2 s) plus a few seconds. */
const QUERY_TIMEOUT_MS = Number(process.env.FUZZ_QUERY_TIMEOUT_MS ?? 2_000);
const ANSWER_WITHIN_MS = QUERY_TIMEOUT_MS + 5_000;

/** A failed request and why, in a line a CI log keeps. */
const failureLine = (request: FuzzRequest, error: unknown) =>
  `${request.method} ${request.path} ${JSON.stringify(request.headers)} ` +
  `${JSON.stringify(request.body.toString("utf8").slice(0, 3000))}: ${error instanceof Error ? error.message : String(error)}`;

// Against the fixture, and against a graph the ingest got wrong (contract §3's field errors).
for (const [graph, load, runs] of [
  ["the fixture graph", loadFixtures, RUNS],
  ["a graph holding bad values", loadBadValues, RUNS],
] as const)
  describe(`fuzz: random requests against the real app on ${graph} (contract §2, §3)`, () => {
    let service: RunningService;
    let schema: Awaited<ReturnType<typeof buildTestSchema>>;

    before(async () => {
      await load();
      schema = await buildTestSchema();
      service = await startService(undefined, { schema, queryTimeoutMs: QUERY_TIMEOUT_MS });
      // As the service reads them at start-up: reads start from the fewest-keeping filter, and
      // pages of few rows are read and sorted (src/planning/row-estimates.ts).
      expect(await service.readRowEstimates()).to.equal(0);
    });
    after(async () => {
      await service.close();
    });

    it(`answers every request within its deadline, with a catalogue code and the one error shape (${runs} runs${CONCURRENCY > 1 ? `, ${CONCURRENCY} callers` : ""})`, async function () {
      const seen = new Map<string, number>();
      /** The slowest answer of each outcome (`200`, `503 service_unavailable`…), in ms. */
      const slowest = new Map<string, number>();
      let failed = false;
      const ask = async (request: FuzzRequest) => {
        let answer: FuzzAnswer;
        try {
          answer = await send(service.url, request, ANSWER_WITHIN_MS);
          checkAnswer(request, answer, service.key);
        } catch (error) {
          // Printed as it happens: shrinking it may outlast the test's timeout, which would leave
          // a CI log with no request at all (the suite's seed is random).
          if (!failed) console.log(`      first failure, before shrinking: ${failureLine(request, error)}`);
          failed = true;
          throw error;
        }
        const code = /"code":"(\w+)"/.exec(answer.text)?.[1] ?? "";
        // Under a burst the only 5xx is overload shedding (contract §12), never a timeout.
        if (CONCURRENCY > 1 && answer.status >= 500 && code !== "service_unavailable")
          throw new Error(
            `${answer.status} ${code} under ${CONCURRENCY} callers after ${answer.ms} ms: ${request.body.toString("utf8").slice(0, 3000)}`,
          );
        const outcome = `${answer.status}${code === "" ? "" : ` ${code}`}`;
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        slowest.set(outcome, Math.max(slowest.get(outcome) ?? 0, answer.ms));
      };
      const arbitrary = requestArbitrary(schema, service.key);
      const seed = SEED !== undefined ? { seed: SEED } : {};
      if (CONCURRENCY > 1) {
        const requests = fc.sample(arbitrary, { numRuns: runs, ...seed });
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            for (let request = requests.pop(); request !== undefined; request = requests.pop())
              await ask(request);
          }),
        );
      } else
        await fc.assert(
          fc.asyncProperty(arbitrary, ask),
          // fast-check prints the seed and path of a failure: `npm run fuzz -- --seed S` replays it.
          // Under mocha's timeout (none for `npm run fuzz`), runs and shrinking stop with time to
          // report: a run cut short fails, a failure is reported as far as it was shrunk.
          { numRuns: runs, ...seed, endOnFailure: false, plugins: timeLimit(this.timeout(), true) },
        );
      const outcomes = [...seen].sort(([, a], [, b]) => b - a);
      console.log(`      ${outcomes.map(([outcome, n]) => `${n}× ${outcome}`).join(", ")}`);
      const slowestFirst = [...slowest].sort(([, a], [, b]) => b - a);
      console.log(
        `      slowest answer ${Math.round(slowestFirst[0]?.[1] ?? 0)} ms (deadline ${ANSWER_WITHIN_MS} ms); ` +
          `by outcome: ${slowestFirst
            .slice(0, 4)
            .map(([outcome, ms]) => `${outcome} ${String(Math.round(ms))} ms`)
            .join(", ")}`,
      );
      // The generator reaches every stage: some requests execute, others stop at each kind of check.
      // (About a tenth execute; a bound well below that keeps the check from failing by chance.)
      expect(seen.get("200") ?? 0, "requests that executed").to.be.above(runs / 50);
      expect(outcomes.filter(([outcome]) => outcome.startsWith("422")).length).to.be.above(3);
    });
  });
