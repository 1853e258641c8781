import { once } from "node:events";
import type { ApolloServerPlugin } from "@apollo/server";
import { ApiError } from "../errors/catalogue.js";
import { RETRY_AFTER_SECONDS } from "../contract.js";
import { AdmissionRefused, type Admission } from "./admission.js";
import type { PlanningRefused } from "./first-askings.js";

/** What the admission stage reads from a request. */
export interface AdmissionContext {
  keyId: string;
  /** The cost stage's estimate (contract §5). */
  cost?: number;
  /** Aborted when the response is over (sent, or its connection gone). */
  responseDone: AbortSignal;
  /** The request's runner (src/neo4j/runner.ts): says when its queries have all ended. */
  executionContext?: unknown;
  /** Set once admitted: gives the slots back (see {@link admissionReleasePlugin}). */
  admitted?: () => void;
}

/**
 * The last stage before execution (contract §12): waits for execution slots (as many as the
 * estimated cost takes), or refuses with `429 concurrency_limited` (the key's cap) or
 * `503 service_unavailable` (the instance's slots and queue), both with `Retry-After`. A caller
 * that hangs up while queued leaves the queue; once admitted, {@link admissionReleasePlugin}
 * gives the slots back.
 */
export function admissionStage(admission: Admission) {
  return async ({ contextValue }: { contextValue: AdmissionContext }): Promise<void> => {
    const { keyId, cost, responseDone } = contextValue;
    try {
      contextValue.admitted = await admission.admit(keyId, cost, responseDone);
    } catch (error) {
      if (!(error instanceof AdmissionRefused)) throw error;
      throw refusal(error, admission);
    }
  };
}

/**
 * Gives an admitted request's slots back once its execution is over, every query it sent to Neo4j
 * has ended, and its response is over (sent, so the time spent writing a large answer counts, or
 * its connection gone). A caller that hangs up does not free its slots while its query still runs
 * in Neo4j: hanging up at once and asking again would otherwise run past its key's cap.
 */
export const admissionReleasePlugin: ApolloServerPlugin<AdmissionContext> = {
  requestDidStart() {
    return Promise.resolve({
      willSendResponse({ contextValue }) {
        const { admitted, responseDone, executionContext } = contextValue;
        if (admitted === undefined) return Promise.resolve();
        const runner = executionContext as { idle?: () => Promise<void> } | undefined;
        const over = responseDone.aborted ? undefined : once(responseDone, "abort");
        void Promise.all([over, runner?.idle?.()]).then(admitted, admitted);
        return Promise.resolve();
      },
    });
  },
};

/**
 * A new statement refused planning room (first-askings.ts): `503 service_unavailable` with
 * `Retry-After`, like a full execution queue (contract §12).
 */
export function planningRefusal({ queueTimeoutMs, late }: PlanningRefused): ApiError {
  return new ApiError(
    "service_unavailable",
    late
      ? `This instance is planning new queries slowly right now: this one would not be answered within its deadline. Try again in ${String(RETRY_AFTER_SECONDS.busy)} s.`
      : `This instance is planning as many new queries as it can at once and could not start planning this one within ${String(queueTimeoutMs)} ms. Try again in ${String(RETRY_AFTER_SECONDS.busy)} s.`,
    { "Retry-After": String(RETRY_AFTER_SECONDS.busy) },
  );
}

function refusal({ busy }: AdmissionRefused, admission: Admission): ApiError {
  const retryAfter = { "Retry-After": String(RETRY_AFTER_SECONDS.busy) };
  const { perKey, queueTimeoutMs } = admission.settings;
  return busy === "key_busy"
    ? new ApiError(
        "concurrency_limited",
        `This API key already has ${perKey} requests executing, the most allowed at once. Try again in ${RETRY_AFTER_SECONDS.busy} s.`,
        retryAfter,
      )
    : new ApiError(
        "service_unavailable",
        `This instance is at its limit of queries in flight and could not start this one within ${queueTimeoutMs} ms. Try again in ${RETRY_AFTER_SECONDS.busy} s.`,
        retryAfter,
      );
}
