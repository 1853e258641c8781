// stock: the Neo4j GraphQL Library out of the box. Its generated schema (where/sort/limit on
// every list, @relationship fields) over the same graph, served by Apollo Server with nothing
// else in front. Started by bench/run.ts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ApolloServer } from "@apollo/server";
import { Neo4jGraphQL, type Neo4jGraphQLContext } from "@neo4j/graphql";
import { projectRoot } from "../../src/project-root.js";
import { benchDriver, serveApollo } from "./serve.js";

const typeDefs = await Promise.all(
  [
    join(projectRoot, "bench", "contenders", "stock.graphql"),
    join(projectRoot, "typeDefs", "enums.graphql"),
  ].map((file) => readFile(file, "utf8")),
);
const schema = await new Neo4jGraphQL({ typeDefs, driver: benchDriver() }).getSchema();
await serveApollo(new ApolloServer<Neo4jGraphQLContext>({ schema }), () => Promise.resolve({}));
