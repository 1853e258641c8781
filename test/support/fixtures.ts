import { deleteDomainData } from "../../src/demo-data/load.js";
import { testDatabase, testDriver } from "./test-neo4j.js";

/**
 * A small graph whose every answer is known, written the way the other team's ingest job writes
 * the organisation's graph: plain Cypher with exactly the labels, properties and relationships of
 * contract §8 — nothing derived, no helper property, never through `src/demo-data`. It holds the
 * edge cases of contract §7:
 *
 * - `decidedAt` exactly at 00:00 UTC and a millisecond before; `d8` at that same instant written
 *   as `19:00-05:00` the day before (Neo4j orders a negative offset below `Z` at one instant);
 *   `d10` at 23:59:59.999 UTC written as 01:59:59.999+02:00 the next day;
 * - equal instants in different zones (`d6` in `Z`, `d9` in `[Europe/Paris]`; `d2` and `d8`;
 *   `g1` and `g4`): ties break by id, whatever the zone; `d10` sorts before `d2` as a string;
 * - two instants within one second, the newer with the higher id (`d66` after `d1`'s second);
 * - nulls in every nullable sort key and filter (`decidedAt`, `raisedAt`, `dueOn`, `regretScore`,
 *   `executionGapDays`, `team`, `email`), finer than millisecond precision;
 * - duplicate relationships (`d7`→`p1`, `p1`→`g1`, `c2`→`f1`) and single-valued links with several
 *   targets (`d2` decided by `p3` and `p2`, `d8` about `t3` and `t1`, `m4` following `d3` and `d2`);
 * - names whose code-point and UTF-16 orders differ.
 */
const FIXTURE = `
CREATE (p1:Person {id: 'p1', name: 'Ada Lovelace', email: 'ada@example.com', team: 'Platform'})
CREATE (p2:Person {id: 'p2', name: 'Brian Kernighan', team: 'Data'})
CREATE (p3:Person {id: 'p3', name: 'Alan Turing', email: 'alan@example.com', team: 'Data'})

CREATE (t1:Topic {id: 't1', name: 'Pricing', canonicalAnswer: 'Usage-based, billed monthly'})
CREATE (t2:Topic {id: 't2', name: 'Hiring'})
CREATE (t3:Topic {id: 't3', name: 'Observability'})

CREATE (d1:Decision {id: 'd1', title: 'Adopt usage-based pricing', status: 'DECIDED',
                     decidedAt: datetime('2025-03-31T14:05:00.123456789Z'), regretScore: 0.5})
CREATE (d2:Decision {id: 'd2', title: 'Hire a second SRE', status: 'EXECUTED',
                     decidedAt: datetime('2025-03-31T00:00:00Z'), regretScore: 0.2, executionGapDays: 10})
CREATE (d3:Decision {id: 'd3', title: 'Freeze hiring', status: 'REVERSED',
                     decidedAt: datetime('2025-03-30T23:59:59.999Z'), regretScore: 0.9, executionGapDays: 30})
CREATE (d4:Decision {id: 'd4', title: 'Consider annual plans', status: 'PROPOSED'})
CREATE (d5:Decision {id: 'd5', title: 'Adopt OpenTelemetry', status: 'DECIDED',
                     decidedAt: datetime('2025-04-01T02:00:00+02:00'), regretScore: 1.0, executionGapDays: 0})
CREATE (d6:Decision {id: 'd6', title: 'Replace the hiring pipeline', status: 'SUPERSEDED',
                     decidedAt: datetime('2025-03-31T14:05:00.123Z')})
CREATE (d7:Decision {id: 'd7', title: 'Undated decision', status: 'DECIDED'})
CREATE (d8:Decision {id: 'd8', title: 'Trace every request', status: 'DECIDED',
                     decidedAt: datetime('2025-03-30T19:00:00-05:00'), regretScore: 0.2})
CREATE (d9:Decision {id: 'd9', title: 'Open a Paris office', status: 'EXECUTED',
                     decidedAt: datetime('2025-03-31T16:05:00.123[Europe/Paris]'), executionGapDays: 10})
CREATE (d10:Decision {id: 'd10', title: 'Price in euros', status: 'DECIDED',
                      decidedAt: datetime('2025-04-01T01:59:59.999+02:00')})
CREATE (:Decision {id: 'd66', title: 'Retire the old pricing page', status: 'SUPERSEDED',
                   decidedAt: datetime('2025-03-31T14:05:00.9Z')})

CREATE (d1)-[:DECIDED_BY]->(p1), (d1)-[:ABOUT]->(t1)
CREATE (d2)-[:DECIDED_BY]->(p3), (d2)-[:DECIDED_BY]->(p2), (d2)-[:ABOUT]->(t1)
CREATE (d3)-[:DECIDED_BY]->(p1), (d3)-[:ABOUT]->(t2)
CREATE (d4)-[:DECIDED_BY]->(p3), (d4)-[:ABOUT]->(t1)
CREATE (d5)-[:ABOUT]->(t3)
CREATE (d6)-[:DECIDED_BY]->(p1), (d6)-[:ABOUT]->(t2)
CREATE (d7)-[:DECIDED_BY]->(p1), (d7)-[:DECIDED_BY]->(p1)
CREATE (d8)-[:ABOUT]->(t3), (d8)-[:ABOUT]->(t1)
CREATE (d9)-[:DECIDED_BY]->(p2), (d9)-[:ABOUT]->(t2)

CREATE (g1:Disagreement {id: 'g1', summary: 'Per-seat or usage-based?', resolved: false,
                         raisedAt: datetime('2025-01-01T00:00:00Z')})
CREATE (g2:Disagreement {id: 'g2', summary: 'Monthly or annual billing?', resolved: true,
                         raisedAt: datetime('2025-02-01T09:30:00Z'), resolvedAt: datetime('2025-02-10T17:00:00Z')})
CREATE (g3:Disagreement {id: 'g3', summary: 'Remote-first hiring?', resolved: false})
CREATE (g4:Disagreement {id: 'g4', summary: 'Hire in Paris?', resolved: false,
                         raisedAt: datetime('2025-01-01T01:00:00+01:00')})
CREATE (g1)-[:ABOUT]->(t1), (g2)-[:ABOUT]->(t1), (g3)-[:ABOUT]->(t2), (g4)-[:ABOUT]->(t2)
CREATE (p2)-[:PARTICIPATED_IN]->(g1), (p1)-[:PARTICIPATED_IN]->(g1), (p1)-[:PARTICIPATED_IN]->(g1)
CREATE (p3)-[:PARTICIPATED_IN]->(g2)

CREATE (c1:Customer {id: 'c1', name: 'Initech', health: 'CHURNED'})
CREATE (c2:Customer {id: 'c2', name: 'Acme', health: 'HEALTHY'})
CREATE (c3:Customer {id: 'c3', name: 'Globex', health: 'AT_RISK'})

CREATE (f1:Feature {id: 'f1', name: 'Audit log', stage: 'GENERALLY_AVAILABLE', team: 'Platform', shipped: true,
                    shippedOn: date('2025-01-15')})
CREATE (f2:Feature {id: 'f2', name: 'Bulk export', stage: 'BETA', team: 'Data', shipped: true})
CREATE (f3:Feature {id: 'f3', name: 'Dark mode', stage: 'IDEA', shipped: false})
CREATE (f4:Feature {id: 'f4', name: 'Zebra \\uE000', stage: 'IDEA', team: 'platform', shipped: false})
CREATE (f5:Feature {id: 'f5', name: 'Zebra \\uD83D\\uDE00', stage: 'PLANNED', team: 'Data', shipped: false})
CREATE (p1)-[:OWNS]->(f1), (p3)-[:OWNS]->(f2), (p2)-[:OWNS]->(f5)
CREATE (c1)-[:REQUESTED]->(f1), (c2)-[:REQUESTED]->(f1), (c2)-[:REQUESTED]->(f1), (c2)-[:REQUESTED]->(f2)

CREATE (m1:Commitment {id: 'm1', description: 'Ship the pricing page', status: 'OPEN', dueOn: date('2025-05-01')})
CREATE (m2:Commitment {id: 'm2', description: 'Write the migration guide', status: 'OPEN'})
CREATE (m3:Commitment {id: 'm3', description: 'Brief sales', status: 'DONE', dueOn: date('2025-03-01')})
CREATE (m4:Commitment {id: 'm4', description: 'Open the SRE role', status: 'OPEN', dueOn: date('2025-04-01')})
CREATE (p1)-[:COMMITTED_TO]->(m1), (p1)-[:COMMITTED_TO]->(m2), (p1)-[:COMMITTED_TO]->(m3), (p1)-[:COMMITTED_TO]->(m4)
CREATE (m1)-[:FOLLOWS_FROM]->(d1), (m4)-[:FOLLOWS_FROM]->(d3), (m4)-[:FOLLOWS_FROM]->(d2)
`;

/**
 * The fixture's decisions in contract §7's order: newest instant first (whatever the zone it was
 * written in), ties by id, undated last by id.
 */
export const DECISIONS_IN_ORDER = ["d5", "d10", "d66", "d1", "d6", "d9", "d2", "d8", "d3", "d4", "d7"];

/**
 * Replaces the suite database's domain data with the fixture graph. The constraints and indexes
 * of `cypher/` are already there (root hooks), as the ingest side's are; nothing else is applied.
 */
export async function loadFixtures(): Promise<void> {
  await deleteDomainData(testDriver(), testDatabase);
  await ingest(FIXTURE);
}

/** Writes to the suite database as the ingest job would: one plain Cypher statement. */
export async function ingest(cypher: string, parameters: Record<string, unknown> = {}): Promise<void> {
  await testDriver().executeQuery(cypher, parameters, { database: testDatabase });
}

/**
 * A graph the ingest got wrong (contract §3's field errors, §8's model broken), written as the
 * ingest would write it: plain Cypher. One node per kind of bad value, beside good ones:
 *
 * - `d2` without `title`, `d3` with a `status` outside the enum, `d4` with `decidedAt` as text,
 *   `d5` and `d6` at Neo4j's last and first instants, `d7` in the year 12000 with a `regretScore`
 *   of text;
 * - `t2` without `name` (the topic of `d1`), `p2` with a numeric `name` (who decided `d1`);
 * - `m1` due in the year 12000, `m2` due on a date written as text;
 * - `c1` with a `health` outside the enum, `f1` with `shipped` as text;
 * - `d3` decided by two people (a single-valued link with several targets), a topic whose `id` is a
 *   number, a customer without `id`.
 *
 * In contract §7's order, decisions with a servable instant come first, newest first; the rest
 * (text, beyond the years 0000–9999) are undated: {@link BAD_DECISIONS_IN_ORDER}.
 */
export const BAD_VALUES = `
CREATE (t1:Topic {id: 't1', name: 'Pricing'})
CREATE (t2:Topic {id: 't2'})
CREATE (p1:Person {id: 'p1', name: 'Ada'})
CREATE (p2:Person {id: 'p2', name: 42})
CREATE (d1:Decision {id: 'd1', title: 'Good', status: 'DECIDED', decidedAt: datetime('2025-03-31T14:05:00Z'), regretScore: 0.5})
CREATE (d2:Decision {id: 'd2', status: 'DECIDED', decidedAt: datetime('2025-03-30T00:00:00Z')})
CREATE (d3:Decision {id: 'd3', title: 'Archived', status: 'ARCHIVED', decidedAt: datetime('2025-03-29T00:00:00Z')})
CREATE (d4:Decision {id: 'd4', title: 'Dated as text', status: 'PROPOSED', decidedAt: '2099-01-01'})
CREATE (d5:Decision {id: 'd5', title: 'Last instant', status: 'DECIDED',
                     decidedAt: datetime('+999999999-12-31T23:59:59.999999999Z')})
CREATE (d6:Decision {id: 'd6', title: 'First instant', status: 'DECIDED',
                     decidedAt: datetime('-999999999-01-01T00:00:00+18:00')})
CREATE (d7:Decision {id: 'd7', title: 'Far future', status: 'DECIDED',
                     decidedAt: datetime('+12000-01-01T00:00:00Z'), regretScore: 'high'})
CREATE (d1)-[:ABOUT]->(t2), (d1)-[:DECIDED_BY]->(p2)
CREATE (d2)-[:ABOUT]->(t1), (d3)-[:ABOUT]->(t1), (d4)-[:ABOUT]->(t1), (d5)-[:ABOUT]->(t1)
CREATE (d2)-[:DECIDED_BY]->(p1)
CREATE (m1:Commitment {id: 'm1', description: 'Due far away', status: 'OPEN', dueOn: date('+12000-01-01')})
CREATE (m2:Commitment {id: 'm2', description: 'Due as text', status: 'OPEN', dueOn: '2025-01-01'})
CREATE (m3:Commitment {id: 'm3', description: 'Due in time', status: 'OPEN', dueOn: date('2025-02-01')})
CREATE (p1)-[:COMMITTED_TO]->(m1), (p1)-[:COMMITTED_TO]->(m2), (p1)-[:COMMITTED_TO]->(m3)
CREATE (c1:Customer {id: 'c1', name: 'Acme', health: 'UNKNOWN'})
CREATE (c2:Customer {id: 'c2', name: 'Globex', health: 'HEALTHY'})
CREATE (f1:Feature {id: 'f1', name: 'Export', stage: 'BETA', shipped: 'yes'})
CREATE (c2)-[:REQUESTED]->(f1)
CREATE (d3)-[:DECIDED_BY]->(p1), (d3)-[:DECIDED_BY]->(p2), (d3)-[:DECIDED_BY]->(p2)
CREATE (:Topic {id: 7, name: 'Zz numbered'})
CREATE (:Customer {name: 'Without an id', health: 'HEALTHY'})
`;

/** {@link BAD_VALUES}' decisions in contract §7's order. */
export const BAD_DECISIONS_IN_ORDER = ["d1", "d2", "d3", "d4", "d5", "d6", "d7"];

/** Replaces the suite database's domain data with {@link BAD_VALUES}. */
export async function loadBadValues(): Promise<void> {
  await deleteDomainData(testDriver(), testDatabase);
  await ingest(BAD_VALUES);
}
