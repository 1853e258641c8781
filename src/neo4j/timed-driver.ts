import type { Driver, ManagedTransaction, Session } from "neo4j-driver";

type Observe = (seconds: number, outcome: "success" | "failure") => void;
export type TransactionConfig = Parameters<Session["executeRead"]>[1];

/**
 * `target` with some members replaced; every other method stays bound to `target`. How a driver,
 * its sessions and their transactions are instrumented without subclassing the driver's classes.
 */
export function overriding<T extends object>(target: T, replacements: Partial<Record<keyof T, unknown>>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (Object.hasOwn(replacements, property)) return replacements[property as keyof T];
      const value = Reflect.get(object, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * The driver the GraphQL library uses, timing each transaction it runs through `executeRead` or
 * `executeWrite` (retries included): the Neo4j part of a request, apart from the translation.
 */
export function timedDriver(driver: Driver, observe: Observe): Driver {
  const timed =
    (session: Session, method: "executeRead" | "executeWrite") =>
    async <T>(work: (tx: ManagedTransaction) => Promise<T> | T, config?: TransactionConfig): Promise<T> => {
      const started = performance.now();
      let outcome: "success" | "failure" = "failure";
      try {
        const result = await session[method](work, config);
        outcome = "success";
        return result;
      } finally {
        observe((performance.now() - started) / 1000, outcome);
      }
    };
  return overriding(driver, {
    session: (...args: Parameters<Driver["session"]>) => {
      const session = driver.session(...args);
      return overriding(session, {
        executeRead: timed(session, "executeRead"),
        executeWrite: timed(session, "executeWrite"),
      });
    },
  });
}
