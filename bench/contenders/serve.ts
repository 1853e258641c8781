// What the GraphQL contenders share: the Neo4j driver from the bench's environment, and Apollo
// Server on Express 5 the way its documentation sets it up. Announces its port for bench/run.ts.
import { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import neo4j, { type Driver } from "neo4j-driver";
import { announceListening } from "./listening.js";

const { NEO4J_URI = "", NEO4J_PASSWORD = "", PORT = "0" } = process.env;

export function benchDriver(): Driver {
  return neo4j.driver(NEO4J_URI, neo4j.auth.basic("neo4j", NEO4J_PASSWORD));
}

export async function serveApollo<Context extends object>(
  server: ApolloServer<Context>,
  context: () => Promise<Context>,
): Promise<void> {
  await server.start();
  const app = express();
  app.post("/graphql", express.json(), expressMiddleware(server, { context }));
  const listener = app.listen(Number(PORT), "127.0.0.1", () => {
    announceListening(listener);
  });
}
