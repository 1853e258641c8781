import type { ApolloServerPlugin } from "@apollo/server";
import type { RequestHandler } from "express";
import { isErrorCode, type ErrorCode } from "../errors/catalogue.js";

/** What the stages learn about a request for its log line; filled in as it goes. */
export interface RequestReport {
  /** The contract error code answered, if any (the first one, for several validation errors). */
  code?: ErrorCode;
  /** The estimated cost of the operation that ran. */
  cost?: number;
  /** Time spent executing the operation: translating it to Cypher and running it in Neo4j. */
  executionMs?: number;
  /** The stored values the response could not serve (field errors `invalid_stored_value`). */
  invalidStoredValues?: InvalidStoredValueReport[];
}

/** A stored value the schema could not serve: which node, which property, what was wrong, where. */
export interface InvalidStoredValueReport {
  label: string;
  property: string;
  /** The node's `id`, when it has a string one. */
  id?: string;
  problem: string;
  /** The field's path in the response (`decisions.3.title`). */
  path: string;
}

/** One request's log line: ids, never the key or its hash. */
export interface RequestLogEntry {
  requestId: string;
  keyId?: string;
  method: string;
  path: string;
  status: number;
  code?: ErrorCode;
  cost?: number;
  durationMs: number;
  executionMs?: number;
  invalidStoredValues?: InvalidStoredValueReport[];
}

/**
 * The log line of an answer the HTTP server wrote itself (src/http/server.ts), to a request the
 * app never saw: what could be read of it.
 */
export interface RawAnswerLogEntry {
  requestId: string;
  status: number;
  code?: ErrorCode;
  /** The method and path, where the request's line could be read. */
  method?: string;
  path?: string;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Writes one entry per request once its response is done (or its connection gone). Mounted after
 * the request id, so every entry has one, and after the health probes, which would flood the log.
 */
export function requestLog(logRequest: (entry: RequestLogEntry) => void): RequestHandler {
  return (req, res, next) => {
    const report: RequestReport = {};
    res.locals.report = report;
    res.once("close", () => {
      logRequest({
        requestId: res.locals.requestId,
        ...(res.locals.caller && { keyId: res.locals.caller.keyId }),
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ...(report.code !== undefined && { code: report.code }),
        ...(report.cost !== undefined && { cost: report.cost }),
        durationMs: round(performance.now() - res.locals.receivedAt),
        ...(report.executionMs !== undefined && { executionMs: round(report.executionMs) }),
        ...(report.invalidStoredValues !== undefined && { invalidStoredValues: report.invalidStoredValues }),
      });
    });
    next();
  };
}

/**
 * Fills the report from GraphQL: execution time, the cost, and the first error code of the
 * response as the caller sees it. Listed after the plugin that gives errors their contract codes.
 */
export const requestReportPlugin: ApolloServerPlugin<{ report: RequestReport; cost?: number }> = {
  requestDidStart() {
    return Promise.resolve({
      executionDidStart({ contextValue }) {
        const started = performance.now();
        return Promise.resolve({
          executionDidEnd() {
            contextValue.report.executionMs = performance.now() - started;
            return Promise.resolve();
          },
        });
      },
      willSendResponse({ response, contextValue }) {
        const { report, cost } = contextValue;
        if (cost !== undefined) report.cost = cost;
        if (response.body.kind === "single") {
          const code = response.body.singleResult.errors?.[0]?.extensions?.code;
          if (isErrorCode(code)) report.code = code;
        }
        return Promise.resolve();
      },
    });
  },
};
