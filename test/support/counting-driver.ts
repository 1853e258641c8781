import type { Driver, ManagedTransaction, Session } from "neo4j-driver";

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
  const countingTx = (tx: ManagedTransaction): ManagedTransaction =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property === "run") {
          return (...args: Parameters<ManagedTransaction["run"]>) => {
            count++;
            record(args[0], args[1]);
            return target.run(...args);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  const countingSession = (session: Session): Session =>
    new Proxy(session, {
      get(target, property, receiver) {
        if (property === "executeRead" || property === "executeWrite") {
          return <T>(work: (tx: ManagedTransaction) => Promise<T>, config?: object) =>
            target[property]((tx) => work(countingTx(tx)), config);
        }
        if (property === "run") {
          return (...args: Parameters<Session["run"]>) => {
            count++;
            record(args[0], args[1]);
            return target.run(...args);
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const proxy = new Proxy(driver, {
    get(target, property, receiver) {
      if (property === "session") {
        return (...args: Parameters<Driver["session"]>) => countingSession(target.session(...args));
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
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
