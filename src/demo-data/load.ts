import type { Driver } from "neo4j-driver";
import type { DemoGraph } from "./generate.js";
import { progressLine } from "./progress.js";

const BATCH_SIZE = 5_000;

/**
 * One `UNWIND` statement per label: it creates the batch's nodes and their links to nodes loaded
 * before (people, topics and customers first). `CALL (…) { … }` keeps a row whose optional link
 * is null from being dropped. Exactly the properties of contract §8, as an ingest job writes
 * them: nothing derived, so the demo graph proves nothing the organisation's graph would not.
 */

const STATEMENTS = {
  people: `UNWIND $rows AS row CREATE (:Person {id: row.id, name: row.name, email: row.email, team: row.team})`,
  topics: `UNWIND $rows AS row CREATE (:Topic {id: row.id, name: row.name, canonicalAnswer: row.canonicalAnswer})`,
  customers: `UNWIND $rows AS row CREATE (:Customer {id: row.id, name: row.name, health: row.health})`,
  decisions: `
    UNWIND $rows AS row
    CREATE (d:Decision {id: row.id, title: row.title, status: row.status, decidedAt: datetime(row.decidedAt),
                        regretScore: row.regretScore, executionGapDays: row.executionGapDays})
    WITH d, row
    CALL (d, row) { MATCH (p:Person {id: row.decidedBy}) CREATE (d)-[:DECIDED_BY]->(p) }
    CALL (d, row) { MATCH (t:Topic {id: row.topic}) CREATE (d)-[:ABOUT]->(t) }`,
  features: `
    UNWIND $rows AS row
    CREATE (f:Feature {id: row.id, name: row.name, stage: row.stage, team: row.team, shipped: row.shipped,
                       shippedOn: date(row.shippedOn)})
    WITH f, row
    CALL (f, row) { MATCH (p:Person {id: row.owner}) CREATE (p)-[:OWNS]->(f) }
    CALL (f, row) { UNWIND row.requestedBy AS customerId MATCH (c:Customer {id: customerId}) CREATE (c)-[:REQUESTED]->(f) }`,
  disagreements: `
    UNWIND $rows AS row
    CREATE (g:Disagreement {id: row.id, summary: row.summary, resolved: row.resolved,
                            raisedAt: datetime(row.raisedAt), resolvedAt: datetime(row.resolvedAt)})
    WITH g, row
    CALL (g, row) { MATCH (t:Topic {id: row.topic}) CREATE (g)-[:ABOUT]->(t) }
    CALL (g, row) { UNWIND row.participants AS personId MATCH (p:Person {id: personId}) CREATE (p)-[:PARTICIPATED_IN]->(g) }`,
  commitments: `
    UNWIND $rows AS row
    CREATE (c:Commitment {id: row.id, description: row.description, status: row.status, dueOn: date(row.dueOn)})
    WITH c, row
    CALL (c, row) { MATCH (p:Person {id: row.owner}) CREATE (p)-[:COMMITTED_TO]->(c) }
    CALL (c, row) { MATCH (d:Decision {id: row.decision}) CREATE (c)-[:FOLLOWS_FROM]->(d) }`,
} as const satisfies Record<keyof DemoGraph, string>;

/** Every label of the demo graph in load order: a label's links point only at labels loaded before it. */
export const DEMO_LABELS: readonly (keyof DemoGraph)[] = [
  "people",
  "topics",
  "customers",
  "decisions",
  "features",
  "disagreements",
  "commitments",
];

/**
 * Writes the demo graph in batches of {@link BATCH_SIZE} rows. Expects the constraints of
 * `cypher/` to exist (the link lookups by `id` use their indexes) and the domain labels to be
 * empty ({@link deleteDomainData}).
 */
export async function loadDemoGraph(
  driver: Driver,
  database: string,
  graph: DemoGraph,
  counts: Record<keyof DemoGraph, number>,
): Promise<void> {
  for (const label of DEMO_LABELS) {
    const progress = progressLine(label, counts[label]);
    let batch: unknown[] = [];
    let done = 0;
    const flush = async () => {
      await driver.executeQuery(STATEMENTS[label], { rows: batch }, { database });
      done += batch.length;
      batch = [];
      progress.update(done);
    };
    for (const row of graph[label]()) {
      batch.push(row);
      if (batch.length === BATCH_SIZE) await flush();
    }
    if (batch.length > 0) await flush();
    progress.finish();
  }
}

/** Deletes every node but the API keys, in batches so a large graph does not need one huge transaction. */
export async function deleteDomainData(driver: Driver, database: string): Promise<void> {
  const session = driver.session({ database });
  try {
    // CALL { … } IN TRANSACTIONS needs an implicit (auto-commit) transaction: session.run.
    await session.run(
      `MATCH (n) WHERE NOT n:ApiKey CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS`,
    );
  } finally {
    await session.close();
  }
}

/** True when the database holds no domain node yet. */
export async function isDomainEmpty(driver: Driver, database: string): Promise<boolean> {
  const { records } = await driver.executeQuery(
    `MATCH (n) WHERE NOT n:ApiKey RETURN count(n) = 0 AS empty`,
    {},
    { database },
  );
  return records[0]?.get("empty") === true;
}
