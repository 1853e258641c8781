// Local Neo4j for development: `npm run db -- start|stop|status [--instance <name>] [--port <bolt port>]`
// (the release is LOCAL_NEO4J_VERSION's).
import { instanceDir, runningServer, startLocalNeo4j, stopLocalNeo4j } from "../src/local-neo4j/server.js";
import { readCommandLine } from "./command-line.js";

const USAGE = `Usage: npm run db -- start|stop|status [--instance <name>] [--port <bolt port>]

Starts, stops or reports a local Neo4j server (instance "dev" by default; the release is
LOCAL_NEO4J_VERSION's, Java from JAVA_HOME or the system's JDKs).`;

const {
  positionals,
  values,
  refuse,
  config: readConfig,
} = readCommandLine(USAGE, {
  allowPositionals: true,
  options: { instance: { type: "string", default: "dev" }, port: { type: "string" } },
});
const command = positionals[0] ?? "status";
if (!["start", "stop", "status"].includes(command)) refuse(`Unknown command "${command}".`);
const name = values.instance;
const config = readConfig(
  values.port === undefined ? process.env : { ...process.env, LOCAL_NEO4J_BOLT_PORT: values.port },
);

switch (command) {
  case "start": {
    const server = await startLocalNeo4j({
      name,
      version: config.localNeo4j.version,
      boltPort: config.localNeo4j.boltPort,
      password: config.neo4j.password,
      heap: config.localNeo4j.heap,
      pageCache: config.localNeo4j.pageCache,
      log: (line) => {
        console.log(line);
      },
    });
    console.log(`${server.reused ? "Already running" : "Started"}: ${server.uri} (pid ${server.pid})`);
    break;
  }
  case "stop":
    console.log(
      (await stopLocalNeo4j(name, config.localNeo4j.version))
        ? `Stopped instance "${name}".`
        : `Instance "${name}" was not running.`,
    );
    break;
  case "status": {
    const server = await runningServer(name, config.localNeo4j.version);
    console.log(
      server === undefined
        ? `Instance "${name}" is not running.`
        : `Instance "${name}" is running on port ${server.boltPort} (pid ${server.pid}).`,
    );
    console.log(`Data: ${instanceDir(name, config.localNeo4j.version)}`);
    break;
  }
}
