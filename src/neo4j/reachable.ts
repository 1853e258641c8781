import { routing, type Driver } from "neo4j-driver";

/**
 * Whether Neo4j answers `RETURN 1` within `timeoutMs`: a real round trip through the pool,
 * so a server that went away is noticed even while idle pooled connections remain.
 */
export async function isNeo4jReachable(
  driver: Driver,
  database: string,
  timeoutMs: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, timeoutMs);
  });
  const probe = driver
    .executeQuery(
      "RETURN 1",
      {},
      {
        database,
        routing: routing.READ,
        transactionConfig: { metadata: { app: "kg-graphql", purpose: "readiness probe" } },
      },
    )
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
