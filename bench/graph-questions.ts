// Issue 35's questions for `npm run bench:analytics`: a busy topic's neighborhood two links out, a
// busy person's three links out, the shortest path from a customer to a decision four links away,
// and a path search that finds nothing within six links; each beside the Cypher we write by hand
// for the same answer (the same layered walk and shortest-path search, without the service).
import neo4j, { type Driver } from "neo4j-driver";
import { LINK_TYPES, NODE_TYPES } from "../src/domain/graph.js";

/** A question as bench:analytics asks it: of kg-graphql, and as hand-written Cypher. */
export interface GraphQuestion {
  name: string;
  kg: string;
  cypher: string;
}

const ALL = LINK_TYPES.join("|");
const rank = (x: string) =>
  `CASE ${NODE_TYPES.map(([, label], i) => `WHEN ${x}:${label} THEN ${String(i)}`).join(" ")} END`;
const quoted = (text: string) => JSON.stringify(text);

/**
 * The hand-written neighborhood of `(label {id})`: each layer's nearest `limit + 1` nodes, the next
 * layer read only while the nearer ones fit, then the links among the start and the nodes kept.
 */
function handNeighborhood(label: string, id: string, depth: number, limit: number): string {
  const layers = ["l1"];
  const reads = [
    `CALL (s) { MATCH (s)-[:${ALL}]-(m) WHERE m <> s WITH DISTINCT m ORDER BY ${rank("m")}, m.id LIMIT ${String(limit + 1)} RETURN collect(m) AS l1 }`,
  ];
  for (let k = 2; k <= depth; k++) {
    const previous = `l${String(k - 1)}`;
    reads.push(
      `CALL (${layers.join(", ")}) { WITH ${layers.join(", ")} WHERE ${layers.map((l) => `size(${l})`).join(" + ")} <= ${String(limit)} UNWIND ${previous} AS a MATCH (a)-[:${ALL}]-(m) WITH DISTINCT m ORDER BY ${rank("m")}, m.id LIMIT ${String(2 * limit + 2)} RETURN collect(m) AS c${String(k)} }`,
      `WITH s, ${layers.join(", ")}, [x IN c${String(k)} WHERE x <> s AND NOT x IN ${layers.join(" + ")}][..${String(limit + 1)}] AS l${String(k)}`,
    );
    layers.push(`l${String(k)}`);
  }
  return [
    `MATCH (s:${label} {id: ${quoted(id)}})`,
    ...reads,
    `WITH s, (${layers.join(" + ")})[..${String(limit)}] AS nodes`,
    `CALL (s, nodes) { WITH [s] + nodes AS all UNWIND all AS a UNWIND all AS b MATCH (a)-[r:${ALL}]->(b) WITH DISTINCT type(r) AS t, a, b ORDER BY t, a.id, b.id LIMIT ${String(4 * limit + 1)} RETURN collect([t, a.id, b.id]) AS links }`,
    "RETURN [n IN nodes | n.id] AS nodes, links",
  ].join("\n");
}

/** The hand-written shortest paths from `(from {id})` to `(to {id})`: all of the shortest length, the first in order. */
function handPaths(from: [string, string], to: [string, string], maxLength: number): string {
  return [
    `MATCH (s:${from[0]} {id: ${quoted(from[1])}}), (t:${to[0]} {id: ${quoted(to[1])}})`,
    `MATCH p = ALL SHORTEST (s)-[:${ALL}]-{0,${String(maxLength)}}(t)`,
    `WITH p ORDER BY [x IN nodes(p) | [${rank("x")}, x.id]] LIMIT 1`,
    "RETURN [x IN nodes(p) | x.id] AS nodes",
  ].join("\n");
}

const one = async (driver: Driver, cypher: string): Promise<Record<string, unknown> | undefined> =>
  (await driver.executeQuery(cypher)).records[0]?.toObject();

/** The decisions of the bench's busy topic: the demo data spreads decisions evenly (about 33 a topic). */
const SUPERNODE_DECISIONS = 30_000;

/**
 * The busy topic the issue asks about, written into the bench graph as the ingest would for the
 * graph questions, and removed after them ({@link removeBusyTopic}): a topic with
 * {@link SUPERNODE_DECISIONS} decisions of its own, each decided by one of the first 100 people.
 */
export async function addBusyTopic(driver: Driver): Promise<void> {
  await removeBusyTopic(driver);
  // `IN TRANSACTIONS` needs an auto-commit transaction: a session's `run`.
  const session = driver.session();
  try {
    await session.run(`CREATE (:Topic {id: 'topic-busy', name: 'Everything at once'})`);
    await session.run(
      `MATCH (p:Person) WITH p ORDER BY p.id LIMIT 100 WITH collect(p) AS people
       MATCH (t:Topic {id: 'topic-busy'})
       UNWIND range(1, $count) AS i
       CALL (t, i, people) {
         WITH t, i, people[i % size(people)] AS p
         CREATE (d:Decision {id: 'decision-busy-' + right('0000' + toString(i), 5), title: 'Busy ' + toString(i),
                             status: 'DECIDED', decidedAt: datetime('2025-06-01T00:00:00Z') + duration({minutes: i})})
         CREATE (d)-[:ABOUT]->(t), (d)-[:DECIDED_BY]->(p)
       } IN TRANSACTIONS OF 5000 ROWS`,
      { count: neo4j.int(SUPERNODE_DECISIONS) },
    );
  } finally {
    await session.close();
  }
}

/**
 * Takes the busy topic and its decisions out of the bench graph, leaving the demo data as it was
 * (the harness calls it too, for a run that stopped before it could).
 */
export async function removeBusyTopic(driver: Driver): Promise<void> {
  const session = driver.session();
  try {
    await session.run(
      `MATCH (d:Decision) WHERE d.id STARTS WITH 'decision-busy-'
       CALL (d) { DETACH DELETE d } IN TRANSACTIONS OF 5000 ROWS`,
    );
    await session.run("MATCH (t:Topic {id: 'topic-busy'}) DETACH DELETE t");
  } finally {
    await session.close();
  }
}

/** The subjects of the bench graph (the busy topic added: {@link addBusyTopic}) and the four questions about them. */
export async function graphContenders(driver: Driver): Promise<GraphQuestion[]> {
  const topic = await one(
    driver,
    "MATCH (t:Topic) RETURN t.id AS id, COUNT { (t)<-[:ABOUT]-(:Decision) } AS decisions ORDER BY decisions DESC, id LIMIT 1",
  );
  const person = await one(
    driver,
    "MATCH (p:Person) RETURN p.id AS id, COUNT { (p)<-[:DECIDED_BY]-() } AS decisions ORDER BY decisions DESC, id LIMIT 1",
  );
  // A customer and a decision whose shortest path has four links: customer → feature ← owner →
  // commitment → decision, with no shorter way round.
  const candidates = await driver.executeQuery(
    `MATCH (c:Customer)-[:REQUESTED]->(:Feature)<-[:OWNS]-(:Person)-[:COMMITTED_TO]->(:Commitment)-[:FOLLOWS_FROM]->(d:Decision)
     RETURN DISTINCT c.id AS customer, d.id AS decision LIMIT 200`,
  );
  let apart: { customer: string; decision: string } | undefined;
  for (const record of candidates.records) {
    const [customer, decision] = [String(record.get("customer")), String(record.get("decision"))];
    const shortest = await one(
      driver,
      `MATCH (c:Customer {id: ${quoted(customer)}}), (d:Decision {id: ${quoted(decision)}})
       MATCH p = SHORTEST 1 (c)-[:${ALL}]-{1,4}(d) RETURN length(p) AS length`,
    );
    if (Number(shortest?.length) === 4) {
      apart = { customer, decision };
      break;
    }
  }
  // A node no link reaches: a path search from the busy topic that finds nothing.
  const alone = await one(
    driver,
    `MATCH (c:Customer) WHERE NOT EXISTS { (c)--() } RETURN c.id AS id ORDER BY c.id LIMIT 1`,
  );
  const questions: GraphQuestion[] = [];
  if (topic !== undefined) {
    const id = String(topic.id);
    questions.push({
      name: `topic neighborhood depth 2 (${String(topic.decisions)} decisions)`,
      kg: `{ topic(id: ${quoted(id)}) { neighborhood(depth: 2, limit: 50) { nodes { distance node { __typename id } } links { type fromId toId } truncated } } }`,
      cypher: handNeighborhood("Topic", id, 2, 50),
    });
  }
  if (person !== undefined) {
    const id = String(person.id);
    questions.push({
      name: `person neighborhood depth 3 (${String(person.decisions)} decisions)`,
      kg: `{ node(type: PERSON, id: ${quoted(id)}) { neighborhood(depth: 3) { nodes { distance node { __typename id } } links { type fromId toId } truncated } } }`,
      cypher: handNeighborhood("Person", id, 3, 50),
    });
  }
  if (apart !== undefined)
    questions.push({
      name: "pathsTo customer → decision, 4 links",
      kg: `{ node(type: CUSTOMER, id: ${quoted(apart.customer)}) { pathsTo(type: DECISION, id: ${quoted(apart.decision)}) { length nodes { __typename id } links { type } } } }`,
      cypher: handPaths(["Customer", apart.customer], ["Decision", apart.decision], 4),
    });
  // Two of the busy topic's deciders: 300 × 300 shortest paths of four links through it.
  const deciders = await driver.executeQuery(
    `MATCH (:Topic {id: 'topic-busy'})<-[:ABOUT]-(:Decision)-[:DECIDED_BY]->(p:Person)
     WITH DISTINCT p ORDER BY p.id LIMIT 2 RETURN collect(p.id) AS ids`,
  );
  const [first, second] = (deciders.records[0]?.get("ids") as string[] | undefined) ?? [];
  if (first !== undefined && second !== undefined)
    questions.push({
      name: "pathsTo person → person, 90,000 shortest paths",
      kg: `{ node(type: PERSON, id: ${quoted(first)}) { pathsTo(type: PERSON, id: ${quoted(second)}) { length nodes { id } } } }`,
      cypher: handPaths(["Person", first], ["Person", second], 4),
    });
  if (topic !== undefined && alone !== undefined)
    questions.push({
      name: "pathsTo none within 6 links",
      kg: `{ topic(id: ${quoted(String(topic.id))}) { pathsTo(type: CUSTOMER, id: ${quoted(String(alone.id))}, maxLength: 6) { length } } }`,
      cypher: handPaths(["Topic", String(topic.id)], ["Customer", String(alone.id)], 6),
    });
  return questions;
}
