// The real service process (src/service.ts: configuration, signals, drain) with the test-only
// fields of TROUBLE_TYPEDEFS, so that a test can hold a request in flight and send SIGTERM.
import { runService } from "../../src/service.js";
import { TROUBLE_TYPEDEFS } from "./trouble-typedefs.js";

runService({ extraTypeDefs: [TROUBLE_TYPEDEFS] }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
