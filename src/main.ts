// `npm start`: the service, configured from the environment (src/service.ts).
import { ConfigError } from "./config.js";
import { StartupError } from "./neo4j/errors.js";
import { runService } from "./service.js";

runService().catch((error: unknown) => {
  // Settings and dependencies the operator can fix get one line; anything else its stack.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
