import { expect } from "chai";
import { readCommandLine, type CommandLineIo } from "../scripts/command-line.js";

const USAGE = "Usage: tool [--runs <n>] [--name <text>]";
const OPTIONS = { options: { runs: { type: "string", default: "10" }, name: { type: "string" } } } as const;

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${String(code)}`);
  }
}

/** Reads `args` as a tool would, and what it printed and the code it exited with, if it did. */
function run(
  args: string[],
  read: (line: ReturnType<typeof readCommandLine<typeof OPTIONS>>) => unknown = () => 0,
) {
  const printed = { out: "", err: "" };
  const io: CommandLineIo = {
    args,
    out: (text) => (printed.out += text),
    err: (text) => (printed.err += text),
    exit: (code) => {
      throw new Exit(code);
    },
  };
  try {
    return { ...printed, value: read(readCommandLine(USAGE, OPTIONS, io)), code: undefined };
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    return { ...printed, value: undefined, code: error.code };
  }
}

describe("the tools' command line (scripts/command-line.ts)", () => {
  it("reads options and their defaults", () => {
    expect(run(["--name", "x"], (line) => [line.values.name, line.count("runs")]).value).to.deep.equal([
      "x",
      10,
    ]);
    expect(run(["--runs", "3"], (line) => line.count("runs")).value).to.equal(3);
  });

  it("prints the usage for --help and -h and exits 0", () => {
    for (const flag of ["--help", "-h"]) {
      const answer = run(["--runs", "3", flag]);
      expect(answer).to.include({ code: 0, out: USAGE, err: "" });
    }
  });

  it("refuses an unknown option or a missing value with the problem, then the usage, exit 2", () => {
    const unknown = run(["--verbose"]);
    expect(unknown.code).to.equal(2);
    expect(unknown.err)
      .to.match(/^Unknown option '--verbose'/)
      .and.include(`\n\n${USAGE}`);
    const missing = run(["--name"]);
    expect(missing.code).to.equal(2);
    expect(missing.err).to.match(/^Option '--name <value>' argument missing/);
  });

  it("takes a count only as a whole number of at least its minimum", () => {
    for (const text of ["abc", "1.5", "-1", "0", "", "1e3", "99999999999999999999"]) {
      const answer = run([`--runs=${text}`], (line) => line.count("runs"));
      expect(answer.code, text).to.equal(2);
      expect(answer.err).to.match(/^--runs must be a whole number of at least 1, not "/);
    }
    expect(run(["--runs", "0"], (line) => line.count("runs", 0)).value).to.equal(0);
  });

  it("reads the service's settings, and refuses bad ones with what is wrong, exit 2", () => {
    expect(
      run([], (line) => line.config({ LOCAL_NEO4J_BOLT_PORT: "7999" }).localNeo4j.boltPort).value,
    ).to.equal(7999);
    const refused = run([], (line) => line.config({ LOCAL_NEO4J_BOLT_PORT: "99999" }));
    expect(refused.code).to.equal(2);
    expect(refused.err).to.match(/^Invalid configuration:\n {2}LOCAL_NEO4J_BOLT_PORT: /);
  });
});
