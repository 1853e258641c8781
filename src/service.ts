// The service's life: configuration → Neo4j (a local one with demo data when NEO4J_URI is unset)
// → Redis → the app (src/assembly.ts) → HTTP, and on SIGTERM/SIGINT a bounded drain. Everything
// the service reads from its environment is read here, once.
import type { RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMetricsApp, GRAPHQL_PATHS } from "./app.js";
import { assembleService } from "./assembly.js";
import { createHttpServer, type HttpServerSettings } from "./http/server.js";
import { loadConfig } from "./config.js";
import { createLogger, logAnswerWith, logRequestWith } from "./ops/logger.js";
import { createQuotaCounters } from "./quota/quota.js";
import { applySchemaFiles } from "./neo4j/apply-cypher.js";
import { connectNeo4j, LOCAL_INSTANCE } from "./neo4j/connect.js";
import { answerWithin } from "./neo4j/deadline.js";
import { explainStartupFailure } from "./neo4j/errors.js";
import { persistedQueryStore } from "./documents/persisted-query-store.js";
import { connectRedis } from "./redis/connection.js";

export interface ServiceOptions {
  /** More SDL next to `typeDefs/`: tests add a field that sleeps, to have a request in flight. */
  extraTypeDefs?: string[];
}

export async function runService({ extraTypeDefs = [] }: ServiceOptions = {}): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.log);
  const log = (line: string) => {
    logger.info(line);
  };
  const logError = (line: string) => {
    logger.error(line);
  };
  const { driver, local, uri: neo4jUri } = await connectNeo4j(config, log);
  const database = config.neo4j.database;

  if (local) {
    await applySchemaFiles(driver, database);
    const { isDomainEmpty } = await import("./demo-data/load.js");
    if (await isDomainEmpty(driver, database)) {
      const { seedDemoData } = await import("./demo-data/seed.js");
      await seedDemoData(driver, database, config.localNeo4j.demoDataSize, 42, log);
    }
  }

  const redis = config.redis === undefined ? undefined : connectRedis(config.redis);
  const closeRedis = () => redis?.close() ?? Promise.resolve();
  const counters = createQuotaCounters({ limits: config.quota.limits, redis }, log);
  const { app, http, stop, keys, metrics, admission, startPreplanning, startRowEstimates } =
    await assembleService(config, {
      driver,
      extraTypeDefs,
      quota: counters.quota,
      redisStatus: counters.redisStatus,
      remembered: persistedQueryStore(redis, log),
      log,
      logError,
      logRequest: logRequestWith(logger),
      logAnswer: logAnswerWith(logger),
    }).catch(async (error: unknown) => {
      await Promise.all([driver.close(), closeRedis()]);
      throw explainStartupFailure(error, { uri: neo4jUri, user: config.neo4j.user, database });
    });
  let demoKey: string | undefined;
  if (local) {
    const { ensureDemoKey } = await import("./local-neo4j/demo-key.js");
    demoKey = await ensureDemoKey(keys, LOCAL_INSTANCE);
  }
  log(`Neo4j: ${neo4jUri}, database ${database}, user ${config.neo4j.user}; schema built.`);
  log(`Quota counters: ${counters.description}.`);
  const { requestsPerMinute, requestsPerDay, graphqlQueriesPerDay } = config.quota.limits;
  log(
    `Quotas per key: ${requestsPerMinute}/minute, ${requestsPerDay}/day, ${graphqlQueriesPerDay} GraphQL/day.`,
  );
  const { perKey, executions, queueLength, queueTimeoutMs } = config.admission;
  log(
    `Concurrency: ${perKey} requests per key at once; ${executions} executions per instance, then a queue of ${queueLength} waiting up to ${queueTimeoutMs} ms.`,
  );
  const server = await listen(app, config.http.port, config.http.host, http);
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await listen(
          createMetricsApp(metrics, logError),
          config.metrics.port,
          config.http.host,
          // No POST-only path there: every method on an unknown path is 404.
          { ...http, postOnlyPaths: [] },
        );
  const base = `http://${config.http.host}:${config.http.port}`;
  log(
    `Prometheus metrics: http://${config.http.host}:${config.metrics.port ?? config.http.port}/metrics` +
      (metricsServer === undefined ? " (public port; set METRICS_PORT to move them)." : "."),
  );
  // `event` and `port` make the line machine-readable (the bench waits for it).
  logger.info(
    { event: "listening", port: (server.address() as AddressInfo).port },
    `kg-graphql is serving ${GRAPHQL_PATHS.map((path) => base + path).join(" and ")}`,
  );
  log(`Explorer: open ${base}${GRAPHQL_PATHS[0] ?? ""} in a browser and paste an API key.`);
  if (demoKey !== undefined) log(`Demo API key (local database only): ${demoKey}`);
  const preplanning = startPreplanning();
  const estimating = startRowEstimates();

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(
      `${signal}: no new connections; letting requests in flight finish (up to ${config.http.shutdownTimeoutMs} ms)…`,
    );
    preplanning.stop();
    estimating.stop();
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    const deadline = Date.now() + config.http.shutdownTimeoutMs;
    void drain(server, config.http.shutdownTimeoutMs)
      .then(async (cut) => {
        if (cut > 0) log(`Cut ${cut} connection(s) still busy after ${config.http.shutdownTimeoutMs} ms.`);
        // A request whose caller hung up may still be running in Neo4j: the driver stays open
        // for it until its query ends or the shutdown's time is up.
        const { executing } = admission.load;
        const idle = await answerWithin(admission.idle(), Math.max(0, deadline - Date.now())).then(
          () => true,
          () => false,
        );
        if (!idle)
          log(`Stopped waiting for ${executing} execution(s) after ${config.http.shutdownTimeoutMs} ms.`);
        return stop();
      })
      .then(() => Promise.all([driver.close(), closeRedis()]))
      .then(
        () => {
          log("Stopped.");
          process.exit(0);
        },
        // A step that failed (Redis gone as it quits, a driver that will not close): said in one
        // line, and the process still ends, with a code that says it did not stop cleanly.
        (error: unknown) => {
          logError(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.once("SIGTERM", shutdown).once("SIGINT", shutdown);
}

async function listen(
  app: RequestListener,
  port: number,
  host: string,
  settings: HttpServerSettings,
): Promise<Server> {
  const server = createHttpServer(app, settings);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      resolve();
    });
  });
  return server;
}

/**
 * Stops accepting connections and waits for the open ones to finish their requests: idle
 * keep-alive connections are closed at once and as soon as each response is out. Resolves with
 * how many connections were still busy at the deadline and had to be cut.
 */
async function drain(server: Server, timeoutMs: number): Promise<number> {
  const closed = new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  const idleSweep = setInterval(() => {
    server.closeIdleConnections();
  }, 50);
  let cut = 0;
  const deadline = setTimeout(() => {
    server.getConnections((_error, count) => {
      cut = count;
      server.closeAllConnections();
    });
  }, timeoutMs);
  await closed;
  clearInterval(idleSweep);
  clearTimeout(deadline);
  return cut;
}
