// `npm start`: the service, configured from the environment (src/service.ts).
import { ConfigError } from "./config.js";
import { runService } from "./service.js";

runService().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
