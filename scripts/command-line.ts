// How the project's tools (`scripts/`, `bench/`) read their command line: `--help` or `-h` prints
// the tool's usage and exits 0; an unknown option, a missing value or a count that is not a whole
// number prints what was wrong, then the usage, and exits 2 — never a stack trace, never a run
// with NaN. A setting the service would refuse (src/config.ts) is refused the same way.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError, loadConfig, type Config } from "../src/config.js";

/** Where a tool's command line comes from and where its answers go; tests pass their own. */
export interface CommandLineIo {
  args: string[];
  out: (text: string) => void;
  err: (text: string) => void;
  exit: (code: number) => never;
}

const processIo: CommandLineIo = {
  args: process.argv.slice(2),
  out: (text) => {
    console.log(text);
  },
  err: (text) => {
    console.error(text);
  },
  exit: (code) => process.exit(code),
};

export interface CommandLine<T extends ParseArgsConfig> {
  values: ReturnType<typeof parseArgs<T>>["values"];
  positionals: string[];
  /** Option `name`'s value as a whole number of at least `min`, or the tool's usage and exit 2. */
  count: (name: string, min?: number) => number;
  /** Prints `why` and the usage, exits 2. */
  refuse: (why: string) => never;
  /** The service's settings from `env` (src/config.ts), or what is wrong with them and exit 2. */
  config: (env?: NodeJS.ProcessEnv) => Config;
}

/**
 * Reads the command line by `config` (node:util's `parseArgs`). `usage` is what `--help` prints
 * and what follows any complaint.
 */
export function readCommandLine<const T extends ParseArgsConfig>(
  usage: string,
  config: T,
  io: CommandLineIo = processIo,
): CommandLine<T> {
  const refuse = (why: string): never => {
    io.err(`${why}\n\n${usage}`);
    return io.exit(2);
  };
  if (io.args.includes("--help") || io.args.includes("-h")) {
    io.out(usage);
    return io.exit(0);
  }
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs<T>({ ...config, args: io.args });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, unknown>;
  return {
    values: parsed.values,
    positionals: (parsed as { positionals?: string[] }).positionals ?? [],
    count: (name, min = 1) => {
      const text = values[name];
      const value = typeof text === "string" && /^\d+$/.test(text) ? Number(text) : Number.NaN;
      return Number.isSafeInteger(value) && value >= min
        ? value
        : refuse(`--${name} must be a whole number of at least ${String(min)}, not ${JSON.stringify(text)}.`);
    },
    refuse,
    config: (env = process.env) => {
      try {
        return loadConfig(env);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        io.err(error.message);
        return io.exit(2);
      }
    },
  };
}
