import { expect } from "chai";
import fc from "fast-check";
import { loadBadValues, loadFixtures } from "./support/fixtures.js";
import { checkAnswer, requestArbitrary, send } from "./support/fuzz.js";
import { buildTestSchema, startService, type RunningService } from "./support/service.js";

/** `npm run fuzz -- --runs N [--seed S]` sets these; `npm test` runs a bounded number. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** The contract's bound on any answer: the query timeout (here 2 s) plus a few seconds. */
const QUERY_TIMEOUT_MS = 2_000;
const ANSWER_WITHIN_MS = QUERY_TIMEOUT_MS + 5_000;

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
    });
    after(async () => {
      await service.close();
    });

    it(`answers every request within its deadline, with a catalogue code and the one error shape (${runs} runs)`, async () => {
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(schema, service.key), async (request) => {
          const answer = await send(service.url, request, ANSWER_WITHIN_MS);
          checkAnswer(request, answer, service.key);
          const code = /"code":"(\w+)"/.exec(answer.text)?.[1] ?? "";
          const outcome = `${answer.status}${code === "" ? "" : ` ${code}`}`;
          seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        }),
        // fast-check prints the seed and path of a failure: `npm run fuzz -- --seed S` replays it.
        { numRuns: runs, ...(SEED !== undefined && { seed: SEED }), endOnFailure: false },
      );
      const outcomes = [...seen].sort(([, a], [, b]) => b - a);
      console.log(`      ${outcomes.map(([outcome, n]) => `${n}× ${outcome}`).join(", ")}`);
      // The generator reaches every stage: some requests execute, others stop at each kind of check.
      // (About a tenth execute; a bound well below that keeps the check from failing by chance.)
      expect(seen.get("200") ?? 0, "requests that executed").to.be.above(runs / 50);
      expect(outcomes.filter(([outcome]) => outcome.startsWith("422")).length).to.be.above(3);
    });
  });
