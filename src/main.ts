// `npm start`: configuration → Neo4j (a local one with demo data when NEO4J_URI is unset) →
// schema → HTTP. Everything the service reads from its environment is read here, once.
import type { Server } from "node:http";
import { createApp, GRAPHQL_PATHS } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { buildSchema } from "./graphql/schema.js";
import { ApiKeyStore } from "./auth/api-key-store.js";
import { Authenticator } from "./auth/authenticate.js";
import { createQuotaCounters } from "./quota/quota.js";
import { applySchemaFiles } from "./neo4j/apply-cypher.js";
import { connectNeo4j, LOCAL_INSTANCE } from "./neo4j/connect.js";

const log = (line: string) => {
  console.log(line);
};
const logError = (line: string) => {
  console.error(line);
};

async function main(): Promise<void> {
  const config = loadConfig();
  const { driver, local } = await connectNeo4j(config, log);
  const database = config.neo4j.database;

  if (local) {
    await applySchemaFiles(driver, database);
    const { isDomainEmpty } = await import("./demo-data/load.js");
    if (await isDomainEmpty(driver, database)) {
      const { seedDemoData } = await import("./demo-data/seed.js");
      await seedDemoData(driver, database, config.localNeo4j.demoDataSize, 42, log);
    }
  }

  const keys = new ApiKeyStore(driver, database);
  let demoKey: string | undefined;
  if (local) {
    const { ensureDemoKey } = await import("./local-neo4j/demo-key.js");
    demoKey = await ensureDemoKey(keys, LOCAL_INSTANCE);
  }

  const schema = await buildSchema(driver, database);
  const counters = createQuotaCounters(config.quota, log);
  log(`Quota counters: ${counters.description}.`);
  const { requestsPerMinute, requestsPerDay, graphqlQueriesPerDay } = config.quota.limits;
  log(
    `Quotas per key: ${requestsPerMinute}/minute, ${requestsPerDay}/day, ${graphqlQueriesPerDay} GraphQL/day.`,
  );
  const { app, stop } = await createApp({
    schema,
    authenticator: new Authenticator(keys, config.auth.cacheTtlMs),
    quota: counters.quota,
    execution: { database, queryTimeoutMs: config.neo4j.queryTimeoutMs },
    bodyTimeoutMs: config.http.bodyTimeoutMs,
    logError,
  });
  const server: Server = app.listen(config.http.port, config.http.host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => {
      resolve();
    });
    server.once("error", reject);
  });
  const base = `http://${config.http.host}:${config.http.port}`;
  log(`kg-graphql is serving ${GRAPHQL_PATHS.map((path) => base + path).join(" and ")}`);
  if (demoKey !== undefined) log(`Demo API key (local database only): ${demoKey}`);

  const shutdown = () => {
    server.close();
    void stop()
      .then(() => Promise.all([driver.close(), counters.close()]))
      .then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown).once("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
