import { pino, type Logger } from "pino";
import type { LogFormat, LogLevel } from "../config.js";
import type { RawAnswerLogEntry, RequestLogEntry } from "./request-log.js";

/** The longest a logged line waits for the lines after it before it is written. */
export const LOG_FLUSH_MS = 250;

/**
 * The service's logger: one JSON object per line on stdout (`LOG_FORMAT=json`, for log
 * collectors), or coloured lines through pino-pretty (`pretty`, for a developer's terminal).
 */
export function createLogger(settings: { level: LogLevel; format: LogFormat }): Logger {
  const options = {
    level: settings.level,
    base: { app: "kg-graphql" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (settings.format === "pretty")
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { colorize: true, singleLine: true, ignore: "app" } },
    });
  // Written in batches: lines gather until 4 KiB are waiting, or for at most LOG_FLUSH_MS, and go
  // out in one write(2). A write per request line cost 0.17 ms a request in the wide query's
  // profile (blocking), and still 5 % of the service's CPU when asynchronous. The batch is written
  // synchronously: an asynchronous write still under way when the process exits would land after
  // the lines written at exit, or not at all.
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: 4096,
    periodicFlush: LOG_FLUSH_MS,
  });
  // The lines still gathering when the process exits (a crash's last lines among them).
  process.once("exit", () => {
    try {
      destination.flushSync();
    } catch {
      // stdout is gone: there is nowhere left to write them.
    }
  });
  return pino(options, destination);
}

/** A request's line: failures the service owns (5xx) at error level, everything else at info. */
export function logRequestWith(logger: Logger): (entry: RequestLogEntry) => void {
  return (entry) => {
    if (entry.status >= 500) logger.error(entry, "request");
    // The ingest stored values the schema cannot serve: operators find the nodes from this line.
    else if (entry.invalidStoredValues !== undefined)
      logger.warn(entry, "request served invalid stored values");
    else logger.info(entry, "request");
  };
}

/**
 * The line of an answer the HTTP server wrote itself (a head too large or too slow, a method
 * Node's parser does not know, what is not HTTP): its request id, status and code, and the
 * method and path where they could be read.
 */
export function logAnswerWith(logger: Logger): (entry: RawAnswerLogEntry) => void {
  return (entry) => {
    logger.info(entry, "request answered by the HTTP server");
  };
}
