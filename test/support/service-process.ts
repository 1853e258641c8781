import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { projectRoot } from "../../src/project-root.js";
import { testBoltUri, testDatabase, testPassword } from "./test-neo4j.js";

export interface ServiceProcess {
  child: ChildProcess;
  /** The GraphQL endpoint. */
  url: string;
  port: number;
  output: () => string;
}

export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, "close");
  return port;
}

/** The service as its own process, on the suite's Neo4j unless `env` says otherwise. */
function spawnService(entry: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      NEO4J_URI: testBoltUri(),
      NEO4J_PASSWORD: testPassword,
      NEO4J_DATABASE: testDatabase,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs `npm start`'s entry until it exits (for start-up failures): its exit code and output. */
export async function runServiceToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawnService("src/main.ts", { PORT: String(await freePort()), ...env });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

/** Starts the service as its own process (as `npm start` would, plus a field that sleeps). */
export async function startServiceProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawnService("test/support/trouble-service.ts", { PORT: String(port), ...env });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes("kg-graphql is serving")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the service did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url: `http://127.0.0.1:${port}/api/v1/graphql`, port, output: () => output };
}
