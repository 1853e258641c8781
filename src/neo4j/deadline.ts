import type { Driver, ManagedTransaction, Session } from "neo4j-driver";
import { DEFAULTS } from "../contract.js";

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
 * Neo4j did not answer a transaction within its timeout plus the margin: it is restarting,
 * hung, or unreachable behind a connection that stays open. A 503, like a stopped database.
 */
export class Neo4jDidNotAnswer extends Error {
  override name = "Neo4jDidNotAnswer";
}

/** How long past its transaction timeout a transaction may go before the request stops waiting. */
export const DEADLINE_MARGIN_MS = DEFAULTS.deadlineMarginMs;

/**
 * `work`'s outcome, or {@link Neo4jDidNotAnswer} once `ms` have passed (`onGiveUp` runs then).
 * The work goes on in the background; its late outcome is ignored. `deadlineMs`, the whole
 * deadline `ms` is what is left of, is what the error names.
 */
export function answerWithin<T>(
  work: Promise<T>,
  ms: number,
  onGiveUp: () => void = () => undefined,
  deadlineMs = ms,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onGiveUp();
      reject(new Neo4jDidNotAnswer(`Neo4j did not answer within ${String(deadlineMs)} ms.`));
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * The driver the schema is built over (requests run through `queryRunner` in runner.ts instead; the
 * start-up's version check and warm-up query, and anything without a runner, use this), with a
 * deadline on every transaction function and `executeQuery`: its
 * transaction timeout (the server's to enforce, 504) plus {@link DEADLINE_MARGIN_MS}. The server
 * cannot enforce anything while it is starting up or hung, and the driver waits on an open
 * connection for as long as it takes, so past the deadline the transaction is abandoned
 * ({@link Neo4jDidNotAnswer}) and its session closed in the background. Contract §2: every
 * request is answered within the query timeout plus a few seconds, whatever the database does.
 */
export function boundedDriver(driver: Driver, defaultTimeoutMs: number): Driver {
  return overriding(driver, {
    executeQuery: (...[query, parameters, config]: Parameters<Driver["executeQuery"]>) => {
      const timeout = Number(config?.transactionConfig?.timeout ?? defaultTimeoutMs);
      const abandoned = new AbortController();
      return answerWithin(
        // `QueryConfig` is declared a class, but callers pass plain objects: its fields copied.
        driver.executeQuery(
          query,
          parameters,
          Object.assign({}, config, {
            transactionConfig: { ...config?.transactionConfig, timeout },
            // The caller's own signal, if it passes one, still aborts it.
            signal: config?.signal ? AbortSignal.any([config.signal, abandoned.signal]) : abandoned.signal,
          }),
        ),
        timeout + DEADLINE_MARGIN_MS,
        () => {
          abandoned.abort("the deadline passed");
        },
      );
    },
    session: (...args: Parameters<Driver["session"]>) => {
      const session = driver.session(...args);
      let abandoned = false;
      const bounded =
        (method: "executeRead" | "executeWrite") =>
        <T>(work: (tx: ManagedTransaction) => Promise<T> | T, config?: TransactionConfig): Promise<T> => {
          const ms = Number(config?.timeout ?? defaultTimeoutMs) + DEADLINE_MARGIN_MS;
          return answerWithin(session[method](work, config), ms, () => {
            abandoned = true;
          });
        };
      return overriding<Session>(session, {
        executeRead: bounded("executeRead"),
        executeWrite: bounded("executeWrite"),
        // An abandoned session may wait on its connection for as long as Neo4j stays silent.
        close: () => {
          if (!abandoned) return session.close();
          session.close().catch(() => undefined);
          return Promise.resolve();
        },
      });
    },
  });
}
