import type { RequestHandler } from "express";
import { count } from "../contract.js";
import { ApiError } from "../errors/catalogue.js";
import { rateLimitHeaders, type WindowState } from "./policy.js";
import type { Quota } from "./quota.js";

const REFUSALS: Record<WindowState["window"]["name"], (limit: string) => string> = {
  minute: (limit) => `This API key has made ${limit} requests this minute, the most allowed.`,
  day: (limit) => `This API key has made ${limit} requests today, the most allowed.`,
  "graphql-day": (limit) => `This API key has made ${limit} GraphQL queries today, the most allowed.`,
};

/**
 * The quota stage, right after authentication: the `RateLimit` headers on every response from
 * here on, and 429 with `Retry-After` when a window is exhausted (contract §6).
 */
export function enforceQuota(quota: Quota): RequestHandler {
  return (_req, res, next) => {
    const { caller } = res.locals;
    if (caller === undefined) {
      next(new Error("The quota stage runs after authentication."));
      return;
    }
    quota.admit(caller.keyId).then((decision) => {
      res.set(rateLimitHeaders(decision));
      const { refusedBy } = decision;
      if (refusedBy === undefined) {
        next();
        return;
      }
      const { window, resetSeconds } = refusedBy;
      const message = `${REFUSALS[window.name](count(window.limit))} Try again in ${resetSeconds} s.`;
      next(new ApiError(window.code, message, { "Retry-After": String(resetSeconds) }));
    }, next);
  };
}
