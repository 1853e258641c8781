import neo4j, { type Driver, type QueryResult, type Session } from "neo4j-driver";
import {
  byText,
  combineQueries,
  type CombinedQueries,
  type CombinedQuery,
  type CypherQuery,
} from "./combine.js";
import { answerWithin, DEADLINE_MARGIN_MS, Neo4jDidNotAnswer } from "./deadline.js";
import { planningUnits, PlanningRefused, type FirstAskings } from "../overload/first-askings.js";
import { planningRefusal } from "../overload/stage.js";
import { ApiError } from "../errors/catalogue.js";

type Observe = (seconds: number, outcome: "success" | "failure") => void;

/** What the Neo4j GraphQL Library calls when `context.executionContext` is neither a driver nor a session. */
export interface QueryRunner {
  run(query: string, parameters?: Record<string, unknown>): Promise<QueryResult>;
}

/** A request's runner: also says when every query it was given has ended. */
export interface RequestRunner extends QueryRunner {
  /** Resolves once no query given to {@link run} is waiting or running (at once when none is). */
  idle(): Promise<void>;
}

export interface RunnerSettings {
  database: string;
  /** The transaction timeout: Neo4j aborts a query running longer (504). */
  timeoutMs: number;
  /** Times each query (the Neo4j part of a request). */
  observe: Observe;
  /** Room for Neo4j to plan statements it has not seen (issue 32); absent, new texts are sent at once. */
  firstAskings?: FirstAskings;
  /** Told each statement Neo4j answered, with its values (pre-planning runs known ones again after a restart). */
  answered?: (text: string, parameters: Record<string, unknown>) => void;
  /** Several root fields' queries combined before, remembered (absent: combined afresh each time). */
  combinations?: CombinedQueries;
}

/**
 * How many times a combination of root fields Neo4j has not planned is asked as its parts before it
 * is planned itself. Planning it costs about what its parts' first asking did, and it then saves a
 * few milliseconds of CPU per asking (one statement instead of several): worth it for a document
 * that repeats (a dashboard, an integration), not for a question asked once or twice.
 */
const COMBINED_AFTER_ASKINGS = 3;

/** A root field's query waiting for the end of the event loop's turn. */
interface Waiting extends CypherQuery {
  resolve: (result: QueryResult) => void;
  reject: (error: unknown) => void;
}

/**
 * A runner per request, for `context.executionContext`. The library calls it once per root field,
 * all in the same turn of the event loop; the runner waits for the end of that turn
 * (`setImmediate`) and sends what it collected as **one** query: a single root field's query as it
 * is, several combined by {@link combineQueries} once Neo4j has planned the combination (until then,
 * as their parts at once: {@link askApart}). It runs as one auto-commit transaction (RUN and
 * PULL in one round trip, where a managed transaction costs BEGIN, RUN and PULL, and COMMIT) with
 * the request's transaction metadata and timeout, and the deadline of {@link answerWithin}: the
 * request's, `since` plus the timeout plus the margin, past which the query is abandoned and the
 * request answered 503. Every wait of the request's counts against it: the stages' before
 * execution (a key lookup, the quota, the admission queue) and the planning room's (contract §2:
 * answered within the query timeout plus a few seconds, whatever the database does). Read-only: a
 * read session, without bookmarks.
 */
export function queryRunner(
  driver: Driver,
  settings: RunnerSettings,
  metadata: Record<string, string>,
  since = performance.now(),
  gone?: AbortSignal,
): RequestRunner {
  let waiting: Waiting[] = [];
  let unsettled = 0;
  let onIdle: (() => void)[] = [];
  const settled = () => {
    if (--unsettled > 0) return;
    const resolve = onIdle;
    onIdle = [];
    for (const callback of resolve) callback();
  };
  const deadline: Deadline = {
    at: since + settings.timeoutMs + DEADLINE_MARGIN_MS,
    settings,
    keyId: metadata.keyId ?? "",
    ...(gone !== undefined && { gone }),
  };
  const runOne = autoCommit(driver, deadline, metadata);
  const combinationOf = (queries: readonly CypherQuery[]) =>
    queries.length < 2
      ? undefined
      : settings.combinations === undefined
        ? combineQueries(queries)
        : settings.combinations.of(queries);
  /** Several root fields: combined once Neo4j has planned the combination, else asked apart. */
  const send = (batch: Waiting[], combined: CombinedQuery) => {
    const { firstAskings } = settings;
    if (firstAskings !== undefined && !firstAskings.isPlanned(combined.text)) {
      let pieces: Piece[];
      try {
        pieces = piecesOf(batch, combinationOf);
      } catch (error) {
        for (const query of batch) query.reject(error);
        return;
      }
      askApart(driver, deadline, runOne, pieces, combined, firstAskings);
      return;
    }
    settle([{ members: batch, query: combined }], [runPiece(runOne, { members: batch, query: combined })]);
  };
  const flush = () => {
    // In the order of their texts, as a combination holds them: the same root fields asked in
    // another order are the same pieces and the same combination (one plan each).
    const batch = waiting.sort(byText);
    waiting = [];
    let combined: CombinedQuery | undefined;
    try {
      combined = combinationOf(batch);
    } catch (error) {
      for (const query of batch) query.reject(error);
      return;
    }
    if (combined === undefined) {
      for (const query of batch) runOne(query).then(query.resolve, query.reject);
      return;
    }
    const planning = combinationBeingPlanned(combined, deadline);
    const ready = combined;
    if (planning === undefined) send(batch, ready);
    else
      void planning.then(() => {
        send(batch, ready);
      });
  };
  return {
    run(text, parameters = {}) {
      unsettled++;
      const answer = new Promise<QueryResult>((resolve, reject) => {
        if (waiting.push({ text, parameters, resolve, reject }) === 1) setImmediate(flush);
      });
      answer.then(settled, settled);
      return answer;
    },
    idle() {
      return unsettled === 0 ? Promise.resolve() : new Promise((resolve) => onIdle.push(resolve));
    },
  };
}

/**
 * While Neo4j plans a combination of root fields (in the background, {@link planCombination}), what
 * settles once it has, or once the request has waited long enough; undefined when it is not being
 * planned. A request of that document waits for it rather than ask its parts apart meanwhile:
 * under load, every request's parts (about four statements each, several times the CPU the
 * combination takes) kept Neo4j's cores busy, and the planning they waited on got little of them.
 * Sixteen callers of the bench's five-root-field question from a cold start, three 5 s rounds:
 * 35–37, 54 and 68–83 requests/s, its combination not planned by the end (docs/performance.md).
 * A request alone waits as a new text waits for planning room (the planning queue's timeout): a
 * large combination planned beside other documents' work may take seconds, and its parts, asked
 * apart, answer sooner. Several requests of the document wait for the one planning, as several
 * askings of one new text wait for the first: for half the time each has left to send a query,
 * its parts asked apart then.
 */
function combinationBeingPlanned(
  combined: CombinedQuery,
  { at, settings, gone }: Deadline,
): Promise<void> | undefined {
  const { firstAskings } = settings;
  if (firstAskings === undefined || firstAskings.isPlanned(combined.text)) return undefined;
  const half = (at - DEADLINE_MARGIN_MS - performance.now()) / 2;
  const alone = Math.min(firstAskings.settings.queueTimeoutMs, half);
  return firstAskings.beingAsked(combined.text, { alone, together: half }, gone);
}

/**
 * At most this many statements one request's root fields are asked apart as. Each holds a Neo4j
 * connection while it runs: with `MAX_CONCURRENT_EXECUTIONS` at its 16, 64 of the driver's 100.
 */
const MOST_PIECES_APART = 4;

/** Root fields sent as one statement: one root field's query, or several combined. */
export interface Piece {
  members: readonly Waiting[];
  query: CypherQuery & { split?: CombinedQuery["split"] };
}

/**
 * A request's root fields in at most {@link MOST_PIECES_APART} consecutive pieces of about equal
 * planning units, each one root field's query or several combined.
 */
export function piecesOf(
  batch: readonly Waiting[],
  combinationOf: (queries: readonly CypherQuery[]) => CombinedQuery | undefined,
): Piece[] {
  const units = batch.map((query) => planningUnits(query.text));
  const total = units.reduce((sum, unit) => sum + unit, 0);
  const groups: Waiting[][] = [];
  let before = 0;
  batch.forEach((query, index) => {
    const last = groups.at(-1);
    // A new piece starts once the pieces so far hold their share of the units.
    if (last === undefined || before >= (total * groups.length) / MOST_PIECES_APART) groups.push([query]);
    else last.push(query);
    before += units[index] ?? 0;
  });
  return groups.flatMap((members): Piece[] => {
    const [only] = members;
    if (members.length === 1 && only !== undefined) return [{ members, query: only }];
    const combined = combinationOf(members);
    return combined === undefined
      ? members.map((member) => ({ members: [member], query: member }))
      : [{ members, query: combined }];
  });
}

/** Runs a piece; its members' results, in order. */
function runPiece(
  runOne: ReturnType<typeof autoCommit>,
  { members, query }: Piece,
  roomTaken = false,
): Promise<QueryResult[]> {
  return runOne(query, roomTaken).then((result) => {
    const results = query.split === undefined ? [result] : query.split(result);
    if (results.length !== members.length) throw new Error("the combined query's result lacks a root field");
    return results;
  });
}

/** Settles each piece's root fields with its own result, or all of them with the piece's error. */
function settle(pieces: readonly Piece[], answers: readonly Promise<QueryResult[]>[]): void {
  pieces.forEach(({ members }, index) => {
    // Every root field settles, whatever failed: a request never waits on a lost answer.
    void answers[index]?.then(
      (results) => {
        members.forEach((member, at) => {
          const own = results[at];
          if (own === undefined) member.reject(new Error("the combined query's result lacks a root field"));
          else member.resolve(own);
        });
      },
      (error: unknown) => {
        for (const member of members) member.reject(error);
      },
    );
  });
}

/**
 * Root fields whose combination Neo4j has not planned, asked apart, its pieces ({@link piecesOf})
 * all at once: Neo4j plans each on a thread of its own, where it would plan the combination on one
 * (a new document of several root fields answered in about two thirds of the time,
 * docs/performance.md). The pieces take their planning room together, as the combination would,
 * so that one request's pieces never queue behind each other, and give it back before any root
 * field settles. Asked apart {@link COMBINED_AFTER_ASKINGS} times, the combination is planned in
 * the background ({@link planCombination}) and asked as one from then on.
 */
function askApart(
  driver: Driver,
  deadline: Deadline,
  runOne: ReturnType<typeof autoCommit>,
  pieces: readonly Piece[],
  combined: CombinedQuery,
  firstAskings: FirstAskings,
): void {
  const { settings } = deadline;
  const piecesPlanned = () => pieces.every(({ query }) => firstAskings.isPlanned(query.text));
  planningRoom(combined.text, firstAskings, deadline, piecesPlanned).then(
    (room) => {
      const started = performance.now();
      const answers = pieces.map((piece) => runPiece(runOne, piece, true));
      void Promise.allSettled(answers).then((outcomes) => {
        if (outcomes.every((outcome) => outcome.status === "fulfilled"))
          room.answered(performance.now() - started);
        room.release();
        room.settled();
        settle(pieces, answers);
        if (firstAskings.noteAskedApart(combined.text) >= COMBINED_AFTER_ASKINGS)
          planCombination(driver, settings, combined, firstAskings);
      });
    },
    (error: unknown) => {
      for (const { members } of pieces) for (const member of members) member.reject(error);
    },
  );
}

/**
 * Plans a combination (`EXPLAIN`: Neo4j reads no row) in the background, when the first askings
 * allow it ({@link FirstAskings.planInBackground}: nothing new being planned or waiting, one at a
 * time, taking no room). Fails silently: the parts are asked apart again.
 */
function planCombination(
  driver: Driver,
  settings: RunnerSettings,
  combined: CombinedQuery,
  firstAskings: FirstAskings,
): void {
  firstAskings.planInBackground(combined.text, async () => {
    const session = driver.session({
      database: settings.database,
      defaultAccessMode: neo4j.session.READ,
      bookmarkManager: undefined,
    });
    try {
      await answerWithin(
        withoutStackTraces(() =>
          session.run(`EXPLAIN ${combined.text}`, combined.parameters, {
            timeout: settings.timeoutMs,
            metadata: { app: "kg-graphql", purpose: "combination" },
          }),
        ),
        settings.timeoutMs + DEADLINE_MARGIN_MS,
      );
    } finally {
      void session.close().catch(() => undefined);
    }
  });
}

/**
 * A request's deadline (`performance.now()` time), its runner's settings, whether its caller is
 * gone, and its key (whose new statements take turns with other keys' for planning room).
 */
interface Deadline {
  at: number;
  settings: RunnerSettings;
  keyId: string;
  /** Aborted once the request's response is over: its caller hung up, if no query has been sent. */
  gone?: AbortSignal;
}

/**
 * A request whose caller hung up before its query was sent: nothing is sent for it. Like a caller
 * that leaves the admission queue (src/overload/admission.ts), it is logged as a 503 no one reads.
 */
const callerGone = () =>
  new ApiError("service_unavailable", "The caller hung up before the request's query was sent to Neo4j.");

/**
 * A request whose deadline left no time to send its query (it waited on Neo4j, or on another
 * request's asking, before): a 503 like Neo4j not answering, said as it happened in the log line.
 */
const noTimeLeft = ({ settings }: Deadline) =>
  new Neo4jDidNotAnswer(
    `The request's ${String(settings.timeoutMs + DEADLINE_MARGIN_MS)} ms passed before its query could be sent to Neo4j.`,
  );

/**
 * Runs one query as an auto-commit transaction, timed, within the request's deadline: its
 * transaction timeout is what is left of it but the margin, in which Neo4j's own abort (504)
 * reaches the service. With no more than the margin left (the request waited on Neo4j already)
 * it is not sent: 503. A statement Neo4j has not planned holds its planning room until it is
 * answered: planning it is most of what a first asking costs, and its time cannot be told apart
 * from the run's. A query given `roomTaken` had its room taken with others ({@link askApart}).
 */
function autoCommit(driver: Driver, deadline: Deadline, metadata: Record<string, string>) {
  const { settings } = deadline;
  return async ({ text, parameters }: CypherQuery, roomTaken = false): Promise<QueryResult> => {
    const planning = roomTaken ? PLANNED : await planningRoom(text, settings.firstAskings, deadline);
    const left = deadline.at - performance.now();
    const timeout = Math.round(left - DEADLINE_MARGIN_MS);
    if (timeout < 1 || deadline.gone?.aborted === true) {
      planning.release();
      planning.settled();
      throw timeout < 1 ? noTimeLeft(deadline) : callerGone();
    }
    const started = performance.now();
    let outcome: "success" | "failure" = "failure";
    const abandoned = { passed: false };
    let session: Session | undefined;
    try {
      const opened = driver.session({
        database: settings.database,
        defaultAccessMode: neo4j.session.READ,
        bookmarkManager: undefined,
      });
      session = opened;
      const result = await answerWithin(
        withoutStackTraces(() =>
          opened.run(text, parameters, {
            timeout,
            metadata: { ...metadata, type: "user-transpiled" },
          }),
        ),
        left,
        () => {
          abandoned.passed = true;
        },
        settings.timeoutMs + DEADLINE_MARGIN_MS,
      );
      planning.answered(performance.now() - started);
      settings.firstAskings?.notePlanned(text);
      settings.answered?.(text, parameters);
      outcome = "success";
      return result;
    } finally {
      planning.release();
      planning.settled();
      settings.observe((performance.now() - started) / 1000, outcome);
      // An abandoned session may wait on its connection for as long as Neo4j stays silent.
      if (abandoned.passed) session?.close().catch(() => undefined);
      else await session?.close();
    }
  };
}

/** Planning room taken: given back once the statement settles, told how long its first asking took. */
interface PlanningRoom {
  release: () => void;
  answered: (ms: number) => void;
  settled: () => void;
}

/** The room of a statement Neo4j has planned: none. */
const PLANNED: PlanningRoom = {
  release: () => undefined,
  answered: () => undefined,
  settled: () => undefined,
};

/**
 * Planning room for a statement Neo4j has not planned (issue 32): it waits for its turn, or is
 * refused with 503 (contract §12): at once when, at the pace Neo4j plans now, it would miss its
 * transaction timeout. So new statements do not pile up inside Neo4j, which plans on
 * the CPU every query needs. The room is held until the statement is answered (see
 * {@link autoCommit}); a statement Neo4j has planned passes at once, and one being asked by another
 * request waits for that answer, until the request's deadline at most ({@link Neo4jDidNotAnswer}:
 * 503). `isPlanned` says whether Neo4j has planned what `text` stands for
 * (for a combination asked apart: its parts). Gives back what frees the room, what tells the first
 * askings how long the first asking took, and what lets the same text waiting go on.
 */
async function planningRoom(
  text: string,
  firstAskings: FirstAskings | undefined,
  deadline: Deadline,
  isPlanned = () => firstAskings?.isPlanned(text) ?? true,
): Promise<PlanningRoom> {
  if (firstAskings === undefined || isPlanned()) return PLANNED;
  if (firstAskings.wouldBeLate(text, deadline.at - DEADLINE_MARGIN_MS - performance.now()))
    throw planningRefusal(new PlanningRefused(firstAskings.settings.queueTimeoutMs, true));
  // Given up once no more than the margin is left: too late to send the query then (autoCommit).
  const expired = new AbortController();
  const timer = setTimeout(
    () => {
      expired.abort("the request's deadline passed");
    },
    Math.max(0, deadline.at - DEADLINE_MARGIN_MS - performance.now()),
  );
  let release;
  try {
    const { gone } = deadline;
    release = await firstAskings.admit(
      text,
      gone === undefined ? expired.signal : AbortSignal.any([expired.signal, gone]),
      deadline.keyId,
    );
  } catch (error) {
    if (expired.signal.aborted) throw noTimeLeft(deadline);
    if (deadline.gone?.aborted === true) throw callerGone();
    throw error instanceof PlanningRefused ? planningRefusal(error) : error;
  } finally {
    clearTimeout(timer);
  }
  // Planned meanwhile (the same text answered for another request): no first asking of ours.
  if (isPlanned()) {
    release();
    firstAskings.noteSettled(text);
    return PLANNED;
  }
  return {
    release,
    answered: (ms) => {
      firstAskings.noteAnswered(text, ms);
    },
    settled: () => {
      firstAskings.noteSettled(text);
    },
  };
}

/**
 * Calls `start` (synchronous) with V8 capturing no stack frames. The driver's `Result` captures a
 * stack trace for every query it runs, only to put it on that query's errors (`captureStacktrace`
 * in neo4j-driver-core): about 2 % of a request's CPU in the wide query's profile. The service
 * never logs a stack (errors are mapped by code), so none is taken.
 */
export function withoutStackTraces<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
