import type { RequestHandler } from "express";
import { ApiError } from "../errors/catalogue.js";
import { isDatabaseUnavailable } from "../neo4j/errors.js";
import type { Authenticator } from "./authenticate.js";

/** Seconds a caller should wait before retrying when the database is down. */
const RETRY_AFTER_SECONDS = "5";

/**
 * The authentication stage: runs on headers alone, before any byte of the body is read, and
 * leaves the caller in `res.locals.caller` for the stages after it.
 */
export function requireApiKey(authenticator: Authenticator): RequestHandler {
  return (req, res, next) => {
    authenticator.authenticate(req.get("authorization")).then(
      (caller) => {
        res.locals.caller = caller;
        next();
      },
      (error: unknown) => {
        next(
          isDatabaseUnavailable(error)
            ? new ApiError("service_unavailable", undefined, { "Retry-After": RETRY_AFTER_SECONDS })
            : error,
        );
      },
    );
  };
}
