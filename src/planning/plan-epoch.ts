import { routing, type Driver } from "neo4j-driver";
import { answerWithin } from "../neo4j/deadline.js";

/**
 * When the Neo4j server's JVM started, from its JMX runtime bean: a restart empties every plan
 * cache. (`SHOW DATABASES`' `lastStartTime` does not move when the server restarts: measured on
 * 2026.09, it stays the database's creation time.)
 */
const SERVER_STARTED =
  "CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes RETURN toString(attributes.StartTime.value) AS started";
/** Where JMX is not allowed to the service's user: the database's own start time, all it can see. */
const DATABASE_STARTED =
  "SHOW DATABASES YIELD name, lastStartTime WHERE name = $database RETURN toString(lastStartTime) AS started";

/**
 * What Neo4j's plan caches depend on, as one text: when the server last started (its caches
 * start empty) and the database's indexes with their states (a new, dropped or rebuilt index
 * empties the plans that could use it). Undefined when Neo4j does not answer within `timeoutMs`.
 */
export async function readPlanEpoch(
  driver: Driver,
  database: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const options = {
    routing: routing.READ,
    transactionConfig: { metadata: { app: "kg-graphql", purpose: "plan epoch" } },
  };
  const started = (query: string) =>
    driver
      .executeQuery(query, { database }, { ...options, database: "system" })
      .then(({ records }) => String(records[0]?.get("started")));
  const read = Promise.all([
    started(SERVER_STARTED).catch(() => started(DATABASE_STARTED)),
    driver.executeQuery(
      "SHOW INDEXES YIELD name, state RETURN name + ':' + state AS index ORDER BY index",
      {},
      { ...options, database },
    ),
  ]);
  return answerWithin(read, timeoutMs).then(
    ([since, indexes]) => [since, ...indexes.records.map((record) => String(record.get("index")))].join("|"),
    () => undefined,
  );
}
