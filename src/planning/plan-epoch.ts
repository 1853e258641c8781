import { routing, type Driver } from "neo4j-driver";
import { answerWithin } from "../neo4j/deadline.js";

/**
 * What Neo4j's plan caches depend on, as one text: when the database last started (its caches
 * start empty) and its indexes with their states (a new, dropped or rebuilt index empties the
 * plans that could use it). Undefined when Neo4j does not answer within `timeoutMs`.
 */
export async function readPlanEpoch(
  driver: Driver,
  database: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const metadata = { app: "kg-graphql", purpose: "plan epoch" };
  const read = Promise.all([
    driver.executeQuery(
      "SHOW DATABASES YIELD name, lastStartTime WHERE name = $database RETURN toString(lastStartTime) AS started",
      { database },
      { database: "system", routing: routing.READ, transactionConfig: { metadata } },
    ),
    driver.executeQuery(
      "SHOW INDEXES YIELD name, state RETURN name + ':' + state AS index ORDER BY index",
      {},
      { database, routing: routing.READ, transactionConfig: { metadata } },
    ),
  ]);
  return answerWithin(read, timeoutMs).then(
    ([started, indexes]) =>
      [
        String(started.records[0]?.get("started")),
        ...indexes.records.map((record) => String(record.get("index"))),
      ].join("|"),
    () => undefined,
  );
}
