import { pino, type Logger } from "pino";
import type { LogFormat, LogLevel } from "../config.js";
import type { RequestLogEntry } from "./request-log.js";

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
  // Written asynchronously: lines logged while a write is under way go out together in the next
  // one, instead of a blocking write(2) per request line (0.17 ms a request in the wide query's
  // profile). pino flushes what is left synchronously when the process exits.
  return pino(options, pino.destination({ dest: 1, sync: false }));
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
