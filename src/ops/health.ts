import { Router } from "express";
import type { RedisStatus } from "../redis/connection.js";
import { EXACT_PATHS, RETRY_AFTER_SECONDS } from "../contract.js";
import { ApiError, errorBody } from "../errors/catalogue.js";

/** What `/readyz` asks about; each answer is quick and never throws. */
export interface Readiness {
  /** Whether Neo4j answers a query now. */
  neo4j: () => Promise<boolean>;
  /** The quota store: Redis up or down (quotas fail open, so not required), or no Redis at all. */
  redis: () => RedisStatus;
}

/**
 * `/healthz`: the process is alive (no dependency is asked, so a slow database never gets a
 * healthy process restarted). `/readyz`: the service can answer queries; the app exists only
 * once the schema is built, so that check is true by construction. Neither needs a key nor
 * counts against a quota: they are mounted before those stages. Unready is a `503
 * service_unavailable` in the one error shape (contract §3), with `Retry-After`, and says which
 * check failed beside it (`status`, `checks`), for the operator reading it.
 */
export function healthRoutes(readiness: Readiness): Router {
  const router = Router(EXACT_PATHS);
  router.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const neo4j = (await readiness.neo4j()) ? "up" : "down";
    const checks = { neo4j, schema: "built", redis: readiness.redis() };
    res.set("Cache-Control", "no-store");
    if (neo4j === "up") {
      res.json({ status: "ready", checks });
      return;
    }
    const unready = new ApiError("service_unavailable", "Not ready: Neo4j does not answer.", {
      "Retry-After": String(RETRY_AFTER_SECONDS.unavailable),
    });
    res
      .status(unready.status)
      .set(unready.headers)
      .json({ ...errorBody(unready, res.locals.requestId), status: "unready", checks });
  });
  return router;
}
