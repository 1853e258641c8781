// naive: what most people write first. Apollo Server with a hand-written resolver per field, each
// running its own driver query for its own parent: a topic with 20 decisions costs 1 + 1 + 20 +
// 20 queries (N+1). The Cypher of each resolver is reasonable on its own. Started by bench/run.ts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ApolloServer } from "@apollo/server";
import neo4j from "neo4j-driver";
import { projectRoot } from "../../src/project-root.js";
import { toJson } from "../questions.js";
import { benchDriver, serveApollo } from "./serve.js";

type Row = Record<string, unknown>;
type Args = Record<string, unknown>;

const driver = benchDriver();

/** Runs a query whose rows have one column `n`, a node's properties. */
async function rows(cypher: string, parameters: Args): Promise<Row[]> {
  const { records } = await driver.executeQuery(cypher, parameters, { routing: neo4j.routing.READ });
  return records.map((record) => toJson(record.get("n")) as Row);
}

async function one(cypher: string, parameters: Args): Promise<Row | null> {
  return (await rows(cypher, parameters))[0] ?? null;
}

const limitOf = (args: Args) => neo4j.int(Math.min(100, Math.max(1, Number(args.limit ?? 20))));

/** `WHERE` from the filters the caller gave, each a Cypher condition on one argument. */
function where(args: Args, conditions: Record<string, string>): string {
  const given = Object.keys(conditions).filter((name) => args[name] !== undefined && args[name] !== null);
  return given.length === 0 ? "" : `WHERE ${given.map((name) => conditions[name]).join(" AND ")}`;
}

const NEWEST_FIRST = "ORDER BY n.decidedAt IS NULL, n.decidedAt DESC, n.id";

/** A list field's resolver: one query per parent, `match` finding `n` from the parent's `$id`, in order. */
const childList = (match: string) => (parent: Row, args: Args) =>
  rows(`${match} LIMIT $limit RETURN n {.*} AS n`, { id: parent.id, limit: limitOf(args) });

/** A single-valued link's resolver: one query per parent, the target with the lowest id (contract §7). */
const childOne = (match: string) => (parent: Row) =>
  one(`${match} RETURN n {.*} AS n ORDER BY n.id LIMIT 1`, { id: parent.id });

const typeDefs = `
  scalar DateTime
  scalar Date
  ${await readFile(join(projectRoot, "typeDefs", "enums.graphql"), "utf8")}
  type Decision { id: ID! title: String! status: DecisionStatus! decidedAt: DateTime regretScore: Float
    executionGapDays: Int decidedBy: Person topic: Topic }
  type Topic { id: ID! name: String! decisions(limit: Int = 20): [Decision!]! }
  type Person { id: ID! name: String! email: String team: String
    decisionsMade(limit: Int = 20): [Decision!]! openCommitments(limit: Int = 20): [Commitment!]! }
  type Feature { id: ID! name: String! stage: FeatureStage! team: String shipped: Boolean! owner: Person }
  type Disagreement { id: ID! summary: String! resolved: Boolean! raisedAt: DateTime }
  type Customer { id: ID! name: String! health: CustomerHealth! }
  type Commitment { id: ID! description: String! status: CommitmentStatus! dueOn: Date }
  type Query {
    topic(id: ID!): Topic
    topics(limit: Int = 20): [Topic!]!
    decisions(since: Date, topicId: ID, status: DecisionStatus, regretScoreMin: Float,
      executionGapDaysMin: Int, limit: Int = 20): [Decision!]!
    features(stage: FeatureStage, team: String, ownerId: ID, shipped: Boolean, limit: Int = 20): [Feature!]!
    disagreements(topicId: ID, resolved: Boolean, limit: Int = 20): [Disagreement!]!
    people(limit: Int = 20): [Person!]!
    customers(health: CustomerHealth, limit: Int = 20): [Customer!]!
  }
`;

const resolvers = {
  Query: {
    topic: (_: unknown, args: Args) => one("MATCH (n:Topic {id: $id}) RETURN n {.*} AS n LIMIT 1", args),
    topics: (_: unknown, args: Args) =>
      rows("MATCH (n:Topic) WITH n ORDER BY n.name, n.id LIMIT $limit RETURN n {.*} AS n", {
        limit: limitOf(args),
      }),
    decisions: (_: unknown, args: Args) => {
      const filters = where(args, {
        since: "n.decidedAt >= datetime({date: date($since), timezone: 'Z'})",
        topicId: "EXISTS { (n)-[:ABOUT]->(:Topic {id: $topicId}) }",
        status: "n.status = $status",
        regretScoreMin: "n.regretScore >= $regretScoreMin",
        executionGapDaysMin: "n.executionGapDays >= $executionGapDaysMin",
      });
      return rows(`MATCH (n:Decision) ${filters} WITH n ${NEWEST_FIRST} LIMIT $limit RETURN n {.*} AS n`, {
        ...args,
        limit: limitOf(args),
      });
    },
    features: (_: unknown, args: Args) => {
      const filters = where(args, {
        stage: "n.stage = $stage",
        team: "n.team = $team",
        ownerId: "EXISTS { (n)<-[:OWNS]-(:Person {id: $ownerId}) }",
        shipped: "n.shipped = $shipped",
      });
      return rows(
        `MATCH (n:Feature) ${filters} WITH n ORDER BY n.name, n.id LIMIT $limit RETURN n {.*} AS n`,
        {
          ...args,
          limit: limitOf(args),
        },
      );
    },
    disagreements: (_: unknown, args: Args) => {
      const filters = where(args, {
        topicId: "EXISTS { (n)-[:ABOUT]->(:Topic {id: $topicId}) }",
        resolved: "n.resolved = $resolved",
      });
      return rows(
        `MATCH (n:Disagreement) ${filters}
         WITH n ORDER BY n.raisedAt IS NULL, n.raisedAt DESC, n.id LIMIT $limit RETURN n {.*} AS n`,
        { ...args, limit: limitOf(args) },
      );
    },
    people: (_: unknown, args: Args) =>
      rows("MATCH (n:Person) WITH n ORDER BY n.name, n.id LIMIT $limit RETURN n {.*} AS n", {
        limit: limitOf(args),
      }),
    customers: (_: unknown, args: Args) =>
      rows(
        `MATCH (n:Customer) ${where(args, { health: "n.health = $health" })}
         WITH n ORDER BY n.name, n.id LIMIT $limit RETURN n {.*} AS n`,
        { ...args, limit: limitOf(args) },
      ),
  },
  Topic: {
    decisions: childList(`MATCH (:Topic {id: $id})<-[:ABOUT]-(n:Decision) WITH DISTINCT n ${NEWEST_FIRST}`),
  },
  Decision: {
    decidedBy: childOne("MATCH (:Decision {id: $id})-[:DECIDED_BY]->(n:Person)"),
    topic: childOne("MATCH (:Decision {id: $id})-[:ABOUT]->(n:Topic)"),
  },
  Person: {
    decisionsMade: childList(
      `MATCH (:Person {id: $id})<-[:DECIDED_BY]-(n:Decision) WITH DISTINCT n ${NEWEST_FIRST}`,
    ),
    openCommitments: childList(
      `MATCH (:Person {id: $id})-[:COMMITTED_TO]->(n:Commitment {status: 'OPEN'})
       WITH DISTINCT n ORDER BY n.dueOn IS NULL, n.dueOn, n.id`,
    ),
  },
  Feature: {
    owner: childOne("MATCH (:Feature {id: $id})<-[:OWNS]-(n:Person)"),
  },
};

await serveApollo(new ApolloServer({ typeDefs, resolvers }), () => Promise.resolve({}));
