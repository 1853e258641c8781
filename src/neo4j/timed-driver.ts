import type { Driver, ManagedTransaction, Session } from "neo4j-driver";

type Observe = (seconds: number, outcome: "success" | "failure") => void;

/**
 * The driver the GraphQL library uses, timing each transaction it runs through `executeRead` or
 * `executeWrite` (retries included): the Neo4j part of a request, apart from the translation.
 */
export function timedDriver(driver: Driver, observe: Observe): Driver {
  const timedSession = (session: Session): Session =>
    new Proxy(session, {
      get(target, property, receiver) {
        if (property === "executeRead" || property === "executeWrite") {
          return async <T>(work: (tx: ManagedTransaction) => Promise<T>, config?: object) => {
            const started = performance.now();
            let outcome: "success" | "failure" = "failure";
            try {
              const result = await target[property](work, config);
              outcome = "success";
              return result;
            } finally {
              observe((performance.now() - started) / 1000, outcome);
            }
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(driver, {
    get(target, property, receiver) {
      if (property === "session") {
        return (...args: Parameters<Driver["session"]>) => timedSession(target.session(...args));
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
