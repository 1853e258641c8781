// http-driver: the least any HTTP service on this stack can do. A minimal Express endpoint runs
// the hand-written Cypher of a question and returns its JSON. Started by bench/run.ts.
import express from "express";
import neo4j from "neo4j-driver";
import { questions, toJson, type BenchSubjects } from "../questions.js";

const { NEO4J_URI = "", NEO4J_PASSWORD = "", PORT = "0", SUBJECTS = "{}" } = process.env;
const driver = neo4j.driver(NEO4J_URI, neo4j.auth.basic("neo4j", NEO4J_PASSWORD));
const byName = new Map(questions(JSON.parse(SUBJECTS) as BenchSubjects).map((q) => [q.name, q]));

const app = express();
app.use(express.json());
app.post("/q/:name", (req, res) => {
  const question = byName.get(req.params.name);
  if (question === undefined) {
    res.status(404).end();
    return;
  }
  driver
    .executeQuery(question.cypher, question.graphql.variables, { routing: "READ" })
    .then(({ records }) => {
      res.json({ data: toJson(records[0]?.get("data")) });
    })
    .catch(() => {
      res.status(500).end();
    });
});
const server = app.listen(Number(PORT), "127.0.0.1", () => {
  process.stdout.write(`listening ${String((server.address() as { port: number }).port)}\n`);
});
