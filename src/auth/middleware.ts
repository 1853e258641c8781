import type { RequestHandler } from "express";
import type { Authenticator } from "./authenticate.js";

/**
 * The authentication stage: runs on headers alone, before any byte of the body is read, and
 * leaves the caller in `res.locals.caller` for the stages after it.
 */
export function requireApiKey(authenticator: Authenticator): RequestHandler {
  return (req, res, next) => {
    // Every Authorization header sent: Node keeps only the first in `req.headers`.
    authenticator.authenticate(req.headersDistinct.authorization).then(
      (caller) => {
        res.locals.caller = caller;
        next();
      },
      // 401/403 as raised; a key store that cannot be reached is 503 (the error handler maps it).
      next,
    );
  };
}
