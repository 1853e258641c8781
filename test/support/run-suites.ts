// `npm test`'s two runs of the suite, side by side: on the Neo4j release the project runs
// (LOCAL_NEO4J_VERSION, 2026.09 unless set), and on Neo4j 5.26 LTS, the release operators may
// still run (issue 32), on a port of its own. The first run's instance is started here; the
// second run's root hooks start and stop their own, as they do for a plain `mocha`.
import { spawn } from "node:child_process";
import { startTestNeo4j, stopTestNeo4j, testNeo4jVersion } from "./test-neo4j.js";

/**
 * The suites whose answers do not depend on the Neo4j release: HTTP and the request's stages before
 * its Cypher, Redis, overload and admission, browsers and clients, pure logic, the key store
 * (every other suite's requests pass through it), and the fuzz test of the whole pipeline. Each
 * runs once, in the first run unless {@link IN_SECOND_RUN} names it, which keeps the two runs
 * within CI's time; every plan, Cypher and wire test of the graph runs on both, and so do the
 * failures of the database itself.
 */
const RELEASE_INDEPENDENT = [
  "assembly",
  "auth",
  "canonical",
  "clients",
  "command-line",
  "cors",
  "explorer",
  "fuzz",
  "graphql-errors",
  "graphql-over-http",
  "health",
  "http",
  "http-head",
  "last-values",
  "metrics",
  "operation-plan",
  "overload",
  "persisted-documents",
  "query-limits",
  "quota",
  "readme",
  "redis-production",
  "request-body",
  "request-log",
  "shutdown",
  "stages",
];

/**
 * One run's output in its turn: written through while every run before it has ended, held till
 * then. Runs end in any order; each one's lines come whole, in the order of {@link RUNS}.
 */
class Turn {
  private static current = 0;
  private static readonly waiting: Turn[] = [];
  private readonly held: [NodeJS.WriteStream, Buffer][] = [];
  private ended = false;

  constructor(
    private readonly index: number,
    title: string,
  ) {
    Turn.waiting[index] = this;
    this.held.push([process.stdout, Buffer.from(title)]);
    if (index === 0) this.flush();
  }

  write(stream: NodeJS.WriteStream, chunk: Buffer): void {
    if (Turn.current === this.index) stream.write(chunk);
    else this.held.push([stream, chunk]);
  }

  end(): void {
    this.ended = true;
    if (Turn.current !== this.index) return;
    for (let next = Turn.waiting[++Turn.current]; next !== undefined; next = Turn.waiting[++Turn.current]) {
      next.flush();
      if (!next.ended) return;
    }
  }

  private flush(): void {
    for (const [stream, chunk] of this.held.splice(0)) stream.write(chunk);
  }
}

/**
 * Release-independent suites run in the second run instead of the first, so that the two runs,
 * side by side, end at about the same time (11 and 10 minutes with these three in the second).
 */
const IN_SECOND_RUN = ["auth", "operation-plan", "redis-production"];

const ignoring = (names: readonly string[]) => names.flatMap((name) => ["--ignore", `test/${name}.test.ts`]);
const LTS = "5.26.30";
// Once, whole, when the first run is on 5.26 already (a second would share its instance).
const RUNS: { env: Readonly<Record<string, string>>; args: string[] }[] =
  testNeo4jVersion === LTS
    ? [{ env: {}, args: [] }]
    : [
        { env: {}, args: ignoring(IN_SECOND_RUN) },
        {
          env: { LOCAL_NEO4J_VERSION: LTS, TEST_NEO4J_BOLT_PORT: "7698" },
          args: ignoring(RELEASE_INDEPENDENT.filter((name) => !IN_SECOND_RUN.includes(name))),
        },
      ];

await startTestNeo4j();
let status: number;
try {
  // Both runs at once: one run alone kept CI's two cores about two-thirds busy (its Neo4j most of
  // it), so side by side the two took 10–11 minutes against 8 and 6–7 one after the other. The
  // first run writes as it goes; what the others write is held until the runs before them end,
  // then follows live, so no two runs' lines mix.
  const statuses = await Promise.all(
    RUNS.map(({ env, args }, index) => {
      const label = Object.entries(env).map(([name, value]) => `${name}=${value}`);
      const title = `\n> mocha${label.length === 0 ? "" : ` (${label.join(" ")})`}\n`;
      // `mocha` from node_modules/.bin, which npm puts on the PATH of `npm test`.
      // Through a pipe mocha would drop its colours; a terminal keeps them.
      const colour = process.stdout.isTTY ? ["--color"] : [];
      const run = spawn("mocha", [...colour, ...process.argv.slice(2), ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...env },
      });
      const out = new Turn(index, title);
      run.stdout.on("data", (chunk: Buffer) => {
        out.write(process.stdout, chunk);
      });
      run.stderr.on("data", (chunk: Buffer) => {
        out.write(process.stderr, chunk);
      });
      return new Promise<number>((resolve) => {
        run.once("error", (error) => {
          out.write(process.stderr, Buffer.from(`mocha did not start: ${error.message}\n`));
          out.end();
          resolve(1);
        });
        run.once("close", (code) => {
          out.end();
          resolve(code ?? 1);
        });
      });
    }),
  );
  status = statuses.find((code) => code !== 0) ?? 0;
} finally {
  await stopTestNeo4j();
}
process.exit(status);
