import neo4j, { type Driver, type QueryResult } from "neo4j-driver";
import { answerWithin, DEADLINE_MARGIN_MS } from "./deadline.js";

type Observe = (seconds: number, outcome: "success" | "failure") => void;

/** What the Neo4j GraphQL Library calls when `context.executionContext` is neither a driver nor a session. */
export interface QueryRunner {
  run(query: string, parameters?: Record<string, unknown>): Promise<QueryResult>;
}

export interface RunnerSettings {
  database: string;
  /** The transaction timeout: Neo4j aborts a query running longer (504). */
  timeoutMs: number;
  /** Times each query (the Neo4j part of a request). */
  observe: Observe;
}

/**
 * A runner per request, for `context.executionContext`: each query the library sends runs as one
 * auto-commit transaction (RUN and PULL in one round trip), where a managed transaction costs
 * BEGIN, RUN and PULL, and COMMIT. It carries the request's transaction metadata and timeout, and
 * the deadline of {@link answerWithin}: past the timeout plus the margin the query is abandoned and
 * the request answered 503. Read-only: the session is a read session, without bookmarks.
 */
export function queryRunner(
  driver: Driver,
  settings: RunnerSettings,
  metadata: Record<string, string>,
): QueryRunner {
  return {
    async run(query, parameters) {
      const session = driver.session({
        database: settings.database,
        defaultAccessMode: neo4j.session.READ,
        bookmarkManager: undefined,
      });
      const started = performance.now();
      let outcome: "success" | "failure" = "failure";
      const deadline = { passed: false };
      try {
        const result = await answerWithin(
          session.run(query, parameters, {
            timeout: settings.timeoutMs,
            metadata: { ...metadata, type: "user-transpiled" },
          }),
          settings.timeoutMs + DEADLINE_MARGIN_MS,
          () => {
            deadline.passed = true;
          },
        );
        outcome = "success";
        return result;
      } finally {
        settings.observe((performance.now() - started) / 1000, outcome);
        // An abandoned session may wait on its connection for as long as Neo4j stays silent.
        if (deadline.passed) session.close().catch(() => undefined);
        else await session.close();
      }
    },
  };
}
