// http-driver: the least any HTTP service on this stack can do. A minimal Express endpoint runs
// the hand-written Cypher of a question and returns its JSON. Started by bench/run.ts, twice:
// `TRANSACTION=managed` runs it the way the driver's documentation does (`executeQuery`: a
// managed transaction, BEGIN, RUN and PULL, COMMIT), `TRANSACTION=auto` as one auto-commit query
// (RUN and PULL), the way kg-graphql runs its Cypher. `POST /cypher` runs the Cypher text a bench
// sends (`{"query": …}`) the same way and answers its rows: `bench:analytics` asks its hand-written
// contenders here, so that both sides of its ratios pay for HTTP (the bench binds 127.0.0.1 only).
import express from "express";
import neo4j from "neo4j-driver";
import { questions, toJson, type BenchSubjects } from "../questions.js";
import { announceListening } from "./listening.js";

const {
  NEO4J_URI = "",
  NEO4J_PASSWORD = "",
  PORT = "0",
  SUBJECTS = "{}",
  TRANSACTION = "managed",
} = process.env;
const driver = neo4j.driver(NEO4J_URI, neo4j.auth.basic("neo4j", NEO4J_PASSWORD));
const byName = new Map(questions(JSON.parse(SUBJECTS) as BenchSubjects).map((q) => [q.name, q]));

async function autoCommit(cypher: string, parameters: Record<string, unknown>) {
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, database: "neo4j" });
  try {
    return await session.run(cypher, parameters);
  } finally {
    await session.close();
  }
}

const run =
  TRANSACTION === "auto"
    ? autoCommit
    : (cypher: string, parameters: Record<string, unknown>) =>
        driver.executeQuery(cypher, parameters, { routing: "READ", database: "neo4j" });

const app = express();
app.use(express.json());
app.post("/q/:name", (req, res) => {
  const question = byName.get(req.params.name);
  if (question === undefined) {
    res.status(404).end();
    return;
  }
  run(question.cypher, question.graphql.variables)
    .then(({ records }) => {
      res.json({ data: toJson(records[0]?.get("data")) });
    })
    .catch(() => {
      res.status(500).end();
    });
});
app.post("/cypher", (req, res) => {
  const { query } = req.body as { query?: unknown };
  if (typeof query !== "string") {
    res.status(400).end();
    return;
  }
  run(query, {})
    .then(({ records }) => {
      res.json({ data: records.map((record) => toJson(record.toObject())) });
    })
    .catch(() => {
      res.status(500).end();
    });
});
const server = app.listen(Number(PORT), "127.0.0.1", () => {
  announceListening(server);
});
