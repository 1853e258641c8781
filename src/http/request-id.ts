import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is 1–128 safe characters, else a fresh UUID (contract §2). */
export function chooseRequestId(callerValue: string | undefined): string {
  return callerValue !== undefined && CALLER_REQUEST_ID.test(callerValue) ? callerValue : randomUUID();
}

/** Gives every response an `X-Request-Id`; later stages read it from `res.locals.requestId`. */
export const assignRequestId: RequestHandler = (req, res, next) => {
  res.locals.receivedAt = performance.now();
  const requestId = chooseRequestId(req.get("x-request-id"));
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  next();
};
