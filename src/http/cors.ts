import cors, { type CorsOptions } from "cors";
import type { Request, RequestHandler } from "express";

/** Contract §11's preflight answer: POST only, the three request headers, cached 10 minutes. */
const PREFLIGHT: CorsOptions = {
  origin: true,
  methods: "POST",
  allowedHeaders: "authorization, content-type, x-request-id",
  maxAge: 600,
  optionsSuccessStatus: 204,
};

/** What an allowed page may read of an answer besides the safelisted headers. */
const ANSWER: CorsOptions = {
  origin: true,
  exposedHeaders: "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After",
};

/**
 * CORS for the GraphQL paths (contract §11), with the `cors` package: a preflight (`OPTIONS`
 * with `Access-Control-Request-Method: POST`) from an allowed origin is answered 204 here; an
 * allowed origin's other requests get `Access-Control-Allow-Origin` and the exposed headers
 * before any stage can refuse them, so its page reads a 401 or 429 too. Everything else passes
 * through untouched: other origins get no CORS headers (the browser blocks their pages), and any
 * other `OPTIONS` meets the 405 of the method stage. No credentials: keys travel in headers.
 */
export function allowOrigins(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors((req: Request, callback: (error: Error | null, options?: CorsOptions) => void) => {
    const origin = req.get("origin");
    if (origin === undefined || !allowed.has(origin)) callback(null, { origin: false });
    else if (req.method !== "OPTIONS") callback(null, ANSWER);
    else if (req.get("access-control-request-method") === "POST") callback(null, PREFLIGHT);
    else callback(null, { origin: false });
  });
}
