import type { Caller } from "../auth/authenticate.js";
import type { RequestReport } from "../ops/request-log.js";

// What the pipeline's stages leave for the stages after them, on Express's own augmentation
// point for per-response values.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set first, by the request-id stage. */
      requestId: string;
      /** `performance.now()` when the request's headers had arrived, set with the request id. */
      receivedAt: number;
      /**
       * How long the body took to arrive once its stage asked for it (the client's time, which
       * the request's deadline does not count), set by the body stage.
       */
      bodyMs?: number;
      /** Set by the authentication stage. */
      caller?: Caller;
      /** Set by the request log, filled by later stages. */
      report?: RequestReport;
      /**
       * The SHA-256 a body named beside its text (contract §10), set by the persisted-documents
       * stage: the text is remembered under it once validation has passed.
       */
      rememberAs?: string;
    }
  }
}
