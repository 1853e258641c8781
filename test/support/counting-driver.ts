import type { Driver, ManagedTransaction, Session } from "neo4j-driver";
import { overriding, type TransactionConfig } from "../../src/neo4j/deadline.js";

export interface RecordedQuery {
  text: string;
  parameters: Record<string, unknown>;
}

const asText = (query: unknown) =>
  typeof query === "string" ? query : String((query as { text?: unknown }).text ?? query);

/**
 * Wraps a driver so that every `run` on a transaction the library opens is counted: how many
 * Cypher queries a GraphQL request really sent to Neo4j.
 */
export function countingDriver(driver: Driver): {
  driver: Driver;
  queries: () => number;
  /** The Cypher and parameters of every query since the last reset, in order. */
  recorded: () => RecordedQuery[];
  reset: () => void;
} {
  let count = 0;
  let recorded: RecordedQuery[] = [];
  const record = (query: unknown, parameters: unknown) => {
    recorded.push({ text: asText(query), parameters: (parameters ?? {}) as Record<string, unknown> });
  };
  const run =
    (target: { run: Session["run"] }) =>
    (...args: Parameters<Session["run"]>) => {
      count++;
      record(args[0], args[1]);
      return target.run(...args);
    };
  const countingTx = (tx: ManagedTransaction): ManagedTransaction => overriding(tx, { run: run(tx) });
  const countingSession = (session: Session): Session =>
    overriding(session, {
      executeRead: <T>(work: (tx: ManagedTransaction) => Promise<T>, config?: TransactionConfig) =>
        session.executeRead((tx) => work(countingTx(tx)), config),
      executeWrite: <T>(work: (tx: ManagedTransaction) => Promise<T>, config?: TransactionConfig) =>
        session.executeWrite((tx) => work(countingTx(tx)), config),
      run: run(session),
    });
  const proxy = overriding(driver, {
    session: (...args: Parameters<Driver["session"]>) => countingSession(driver.session(...args)),
  });
  return {
    driver: proxy,
    queries: () => count,
    recorded: () => recorded,
    reset: () => {
      count = 0;
      recorded = [];
    },
  };
}
