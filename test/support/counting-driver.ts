import type { Driver, ManagedTransaction, Session } from "neo4j-driver";

/**
 * Wraps a driver so that every `run` on a transaction the library opens is counted: how many
 * Cypher queries a GraphQL request really sent to Neo4j.
 */
export function countingDriver(driver: Driver): { driver: Driver; queries: () => number; reset: () => void } {
  let count = 0;
  const countingTx = (tx: ManagedTransaction): ManagedTransaction =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property === "run") {
          return (...args: Parameters<ManagedTransaction["run"]>) => {
            count++;
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
    reset: () => {
      count = 0;
    },
  };
}
