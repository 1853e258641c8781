// Local Neo4j for development: `npm run db -- start|stop|status [--instance <name>]`.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.js";
import { instanceDir, runningPid, startLocalNeo4j, stopLocalNeo4j } from "../src/local-neo4j/server.js";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { instance: { type: "string", default: "dev" } },
});
const command = positionals[0] ?? "status";
const name = values.instance;
const config = loadConfig();

switch (command) {
  case "start": {
    const server = await startLocalNeo4j({
      name,
      boltPort: config.localNeo4j.boltPort,
      password: config.neo4j.password,
      heap: config.localNeo4j.heap,
      pageCache: config.localNeo4j.pageCache,
      log: (line) => console.log(line),
    });
    console.log(`${server.reused ? "Already running" : "Started"}: ${server.uri} (pid ${server.pid})`);
    break;
  }
  case "stop":
    console.log((await stopLocalNeo4j(name)) ? `Stopped instance "${name}".` : `Instance "${name}" was not running.`);
    break;
  case "status": {
    const pid = await runningPid(name);
    console.log(pid === undefined ? `Instance "${name}" is not running.` : `Instance "${name}" is running (pid ${pid}).`);
    console.log(`Data: ${instanceDir(name)}`);
    break;
  }
  default:
    console.error(`Unknown command "${command}". Use start, stop or status.`);
    process.exitCode = 2;
}
