import { pino, type Logger } from "pino";
import type { LogFormat, LogLevel } from "../config.js";
import type { RequestLogEntry } from "./request-log.js";

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
  // Written asynchronously and in batches: lines gather until 4 KiB are waiting, or for at most
  // LOG_FLUSH_MS, and go out in one write. A blocking write(2) per request line cost 0.17 ms a
  // request in the wide query's profile, and an asynchronous write per line still 5 % of the
  // service's CPU. pino flushes what is left synchronously when the process exits.
  return pino(
    options,
    pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS }),
  );
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
