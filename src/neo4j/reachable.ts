import { routing, type Driver } from "neo4j-driver";
import { answerWithin } from "./deadline.js";

/**
 * Whether Neo4j answers `RETURN 1` within `timeoutMs`: a real round trip through the pool,
 * so a server that went away is noticed even while idle pooled connections remain.
 */
export function isNeo4jReachable(driver: Driver, database: string, timeoutMs: number): Promise<boolean> {
  const probe = driver.executeQuery(
    "RETURN 1",
    {},
    {
      database,
      routing: routing.READ,
      transactionConfig: { metadata: { app: "kg-graphql", purpose: "readiness probe" } },
    },
  );
  return answerWithin(probe, timeoutMs).then(
    () => true,
    () => false,
  );
}
