import { Router } from "express";
import type { RedisStatus } from "../redis/connection.js";
import { EXACT_PATHS } from "../contract.js";

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
 * counts against a quota: they are mounted before those stages.
 */
export function healthRoutes(readiness: Readiness): Router {
  const router = Router(EXACT_PATHS);
  router.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const neo4j = (await readiness.neo4j()) ? "up" : "down";
    const ready = neo4j === "up";
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ready ? "ready" : "unready",
        checks: { neo4j, schema: "built", redis: readiness.redis() },
      });
  });
  return router;
}
