// First askings admitted like work (issue 32, contract §12). Neo4j plans a Cypher text it has not
// seen before it reads a row, on the CPU every other query needs, in time that grows with the
// text's subqueries (docs/performance.md). Eight callers sending new shapes at once would queue
// behind each other inside Neo4j until their deadlines passed; here a new text waits for planning
// room instead, in a short queue, and past it is refused at once with 503 and Retry-After, while
// texts Neo4j has planned (a mirror of its plan cache) pass without waiting.
import { LRUCache } from "lru-cache";

export interface FirstAskingSettings {
  /**
   * Planning units (a text's subqueries, plus one) of new texts this instance has Neo4j plan at
   * once; a text of more units than this takes all of them.
   */
  units: number;
  /** New texts that may wait for planning room; past that, refused at once. */
  queueLength: number;
  /** How long a new text may wait before it is refused. */
  queueTimeoutMs: number;
  /** Texts remembered as planned: Neo4j's plan cache holds this many per database. */
  remembered: number;
  /**
   * What planning one unit takes on an idle server (the bench's fit: about 20 ms per subquery on
   * Java 25, warm): a new text too large to plan within its deadline even at this pace is not
   * refused for lateness (see {@link FirstAskings.wouldBeLate}), its deadline decides.
   */
  msPerUnit: number;
}

/** A new text that could not get planning room in time (503 `service_unavailable`). */
export class PlanningRefused extends Error {
  override name = "PlanningRefused";
  /**
   * @param queueTimeoutMs How long it could have waited for room.
   * @param late Refused without waiting: at the pace Neo4j plans now, it would not be answered within its deadline.
   */
  constructor(
    readonly queueTimeoutMs: number,
    readonly late = false,
  ) {
    super("no planning room for a new statement");
  }
}

/** Gives back the planning room a new text held; safe to call more than once. */
export type PlanningRelease = () => void;

/** The planning units of a Cypher text: its subqueries (`CALL {`, `COLLECT {`, `COUNT {`, `EXISTS {`) and the query itself. */
export function planningUnits(text: string): number {
  return 1 + (text.match(/\bCALL\s*(?:\([^)]*\)\s*)?\{|\b(?:COLLECT|COUNT|EXISTS)\s*\{/g)?.length ?? 0);
}

/**
 * The first askings a refusal for lateness looks back on: it needs every one of them to have been
 * that slow. One slow asking (a JVM just started, a query slow to run rather than to plan) must
 * not refuse the next new statements. A moving average once did: in the suite, it refused a
 * request that a server just started would have answered in time.
 */
const RECENT_PACES = 8;

interface Waiter {
  keyId: string;
  units: number;
  grant: () => void;
  refuse: () => void;
  timer: NodeJS.Timeout;
}

/**
 * The texts Neo4j has planned, as far as this instance knows (those it answered since the plan
 * caches were last emptied), and the room new texts take while Neo4j plans them. A known text is
 * admitted at once; a new one when its units fit beside the new texts in flight, else it waits up
 * to the queue's timeout. As room frees, the waiting text whose key has the fewest new texts in
 * flight goes next (the oldest among equals), so that a key sending new shapes as fast as it can
 * does not make another key's new question wait behind all of its own (contract §12, like the
 * execution slots of admission.ts). Every operation costs O(texts waiting), which the queue's
 * length bounds.
 */
export class FirstAskings {
  private readonly planned: LRUCache<string, true>;
  /** How often each combination of root fields Neo4j has not planned was asked as its parts. */
  private readonly askedApart: LRUCache<string, number>;
  /** Whether a text is being planned in the background ({@link planInBackground}). */
  private inBackground = false;
  private inFlight = 0;
  /** New texts in flight per key (granted room, not yet given back). */
  private readonly perKey = new Map<string, number>();
  /**
   * New texts being asked for the first time, each settled once its query is answered or fails:
   * the same text asked meanwhile waits for that instead of being planned again beside it.
   */
  private readonly asking = new Map<
    string,
    { settled: Promise<void>; settle: () => void; waiting: number }
  >();
  /** What a unit of each of the last {@link RECENT_PACES} first askings took, oldest first. */
  private readonly recentPaces: number[] = [];
  private readonly queue: Waiter[] = [];

  constructor(readonly settings: FirstAskingSettings) {
    this.planned = new LRUCache({ max: settings.remembered });
    this.askedApart = new LRUCache({ max: settings.remembered });
  }

  /** Whether Neo4j has planned `text` since its plan caches were last emptied, as far as this instance knows. */
  isPlanned(text: string): boolean {
    return this.planned.has(text);
  }

  /** Notes a text Neo4j has planned (pre-planning's `EXPLAIN`, or an answered query). */
  notePlanned(text: string): void {
    this.planned.set(text, true);
  }

  /**
   * Has `plan` plan `text` in the background (src/neo4j/runner.ts: a combination asked apart often
   * enough), only while no new text is being planned or waiting and no other is being planned so,
   * and notes it planned once `plan` succeeds. It takes no room: a request's new text never waits
   * for it, and it is at most one statement on one of Neo4j's threads. Meanwhile it is `text`'s
   * asking: the same text asked meanwhile waits for it ({@link admit}, {@link beingAsked}).
   */
  planInBackground(text: string, plan: () => Promise<unknown>): void {
    if (
      this.inBackground ||
      this.inFlight > 0 ||
      this.queue.length > 0 ||
      this.planned.has(text) ||
      this.asking.has(text)
    )
      return;
    this.inBackground = true;
    this.askingOf(text);
    plan()
      .then(
        () => {
          this.notePlanned(text);
        },
        () => undefined,
      )
      .finally(() => {
        this.inBackground = false;
        this.noteSettled(text);
      });
  }

  /**
   * When `text` is being asked (planned in the background, or a request's first asking), what
   * settles once that asking has, or once `cancel` aborts, or after `ms.alone` at the most, or
   * `ms.together` when others already wait for the same asking; otherwise undefined.
   */
  beingAsked(
    text: string,
    ms: { alone: number; together: number },
    cancel?: AbortSignal,
  ): Promise<void> | undefined {
    const asking = this.asking.get(text);
    if (asking === undefined) return undefined;
    const wait = asking.waiting++ > 0 ? ms.together : ms.alone;
    let stop: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, wait));
      const cancelled = () => {
        resolve();
      };
      cancel?.addEventListener("abort", cancelled, { once: true });
      stop = () => {
        clearTimeout(timer);
        cancel?.removeEventListener("abort", cancelled);
        asking.waiting--;
      };
      if (cancel?.aborted === true) resolve();
    });
    return Promise.race([asking.settled, waited]).finally(stop);
  }

  /** Counts an asking of the combination `text` as its parts (src/neo4j/runner.ts): how many so far. */
  noteAskedApart(text: string): number {
    const count = (this.askedApart.get(text) ?? 0) + 1;
    this.askedApart.set(text, count);
    return count;
  }

  /** Forgets every text: Neo4j restarted, or its indexes changed, and its plan caches start empty. */
  forgetAll(): void {
    this.planned.clear();
  }

  /** New texts in flight (their units) and waiting: for metrics and tests. */
  get load(): { units: number; queued: number } {
    return { units: this.inFlight, queued: this.queue.length };
  }

  /**
   * Learns from the first asking of `text`, answered after `ms` (planning, then running): what a
   * unit of it took is one of the recent paces a refusal for lateness reads.
   */
  noteAnswered(text: string, ms: number): void {
    const perUnit = ms / Math.min(planningUnits(text), this.settings.units);
    if (this.recentPaces.push(perUnit) > RECENT_PACES) this.recentPaces.shift();
  }

  /**
   * Whether a new `text` would miss a deadline `ms` away only because Neo4j plans slowly now: all
   * its units, at the pace of the fastest of the last {@link RECENT_PACES} first askings, pass `ms`
   * (every one of them was that slow), but at {@link FirstAskingSettings.msPerUnit}, what a unit
   * takes on an idle server, they do not. Such a text is refused at once (503, try again soon)
   * rather than sent to time out (504); one too large to plan in time even then is sent, and its
   * deadline decides.
   */
  wouldBeLate(text: string, ms: number): boolean {
    if (this.planned.has(text) || this.asking.has(text) || this.recentPaces.length < RECENT_PACES)
      return false;
    const units = planningUnits(text);
    return units * Math.min(...this.recentPaces) > ms && units * this.settings.msPerUnit <= ms;
  }

  /**
   * Resolves once `text` may be sent: at once when Neo4j has planned it, else when planning room
   * is free (for key `keyId`'s request: see {@link FirstAskings}). Rejects with
   * {@link PlanningRefused} when the queue is full or the wait is over, or `cancel` aborted (the
   * caller is gone, or its deadline passed), also while it waits for another request's asking of
   * the same text.
   */
  admit(text: string, cancel?: AbortSignal, keyId = ""): Promise<PlanningRelease> {
    if (this.planned.has(text)) return Promise.resolve(() => undefined);
    // Asked already and not answered yet: wait for that asking, then pass as planned (or, if it
    // failed, be admitted like any new text). Dashboards send the same new document from every
    // panel at once; Neo4j plans it once.
    const asking = this.asking.get(text);
    if (asking !== undefined)
      return settledUnlessCancelled(asking.settled, cancel, this.settings.queueTimeoutMs).then(() =>
        this.admit(text, cancel, keyId),
      );
    const units = Math.min(planningUnits(text), this.settings.units);
    if (this.queue.length === 0 && this.inFlight + units <= this.settings.units) {
      this.askingOf(text);
      return Promise.resolve(this.start(units, keyId));
    }
    if (this.queue.length >= this.settings.queueLength || cancel?.aborted === true)
      return Promise.reject(new PlanningRefused(this.settings.queueTimeoutMs));
    return new Promise<PlanningRelease>((resolve, reject) => {
      const waiter: Waiter = {
        keyId,
        units,
        grant: () => {
          clearTimeout(waiter.timer);
          cancel?.removeEventListener("abort", waiter.refuse);
          this.askingOf(text);
          resolve(this.start(units, keyId));
        },
        refuse: () => {
          clearTimeout(waiter.timer);
          cancel?.removeEventListener("abort", waiter.refuse);
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(new PlanningRefused(this.settings.queueTimeoutMs));
          this.next();
        },
        timer: setTimeout(() => {
          waiter.refuse();
        }, this.settings.queueTimeoutMs),
      };
      this.queue.push(waiter);
      cancel?.addEventListener("abort", waiter.refuse, { once: true });
    });
  }

  /** Notes that the first asking of `text` has its answer, or failed: the same text waiting goes on. */
  noteSettled(text: string): void {
    this.asking.get(text)?.settle();
    this.asking.delete(text);
  }

  /** Marks `text` as being asked for the first time (until {@link noteSettled}). */
  private askingOf(text: string): void {
    if (this.asking.has(text)) return;
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.asking.set(text, { settled, settle, waiting: 0 });
  }

  private start(units: number, keyId: string): PlanningRelease {
    this.inFlight += units;
    this.perKey.set(keyId, (this.perKey.get(keyId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= units;
      const held = (this.perKey.get(keyId) ?? 0) - 1;
      if (held > 0) this.perKey.set(keyId, held);
      else this.perKey.delete(keyId);
      this.next();
    };
  }

  /**
   * Grants waiting texts while the next one's units fit: the next is the one whose key has the
   * fewest new texts in flight, the oldest among equals. One that does not fit yet waits for room,
   * and the rest behind it, so that a large text is not passed over until its timeout.
   */
  private next(): void {
    for (;;) {
      let chosen: Waiter | undefined;
      let fewest = Infinity;
      for (const waiter of this.queue) {
        const held = this.perKey.get(waiter.keyId) ?? 0;
        if (held < fewest) {
          fewest = held;
          chosen = waiter;
        }
      }
      if (chosen === undefined || this.inFlight + chosen.units > this.settings.units) return;
      this.queue.splice(this.queue.indexOf(chosen), 1);
      chosen.grant();
    }
  }
}

/**
 * `settled`, or {@link PlanningRefused} as soon as `cancel` aborts: a request waiting for another's
 * first asking of its text waits no longer than its own deadline, whatever that asking does.
 */
function settledUnlessCancelled(
  settled: Promise<void>,
  cancel: AbortSignal | undefined,
  queueTimeoutMs: number,
): Promise<void> {
  if (cancel === undefined) return settled;
  if (cancel.aborted) return Promise.reject(new PlanningRefused(queueTimeoutMs));
  return new Promise<void>((resolve, reject) => {
    const refuse = () => {
      reject(new PlanningRefused(queueTimeoutMs));
    };
    cancel.addEventListener("abort", refuse, { once: true });
    void settled.then(() => {
      cancel.removeEventListener("abort", refuse);
      resolve();
    });
  });
}
