// Known documents never plan cold in front of a user (issue 22). Neo4j plans every Cypher text it
// has not seen before it reads a row, and its plan cache is empty after it starts. At the
// service's start and whenever Neo4j answers again after an outage, the documents the service
// expects (the trusted documents of the keys, the persisted queries used last) are translated
// exactly as a request would translate them, and Neo4j is asked to EXPLAIN that text: it plans
// and caches it, reading no row. One at a time, bounded in count and time, in the background.
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
} from "graphql";
import neo4j, { type Driver } from "neo4j-driver";
import type { PreplanSettings } from "../config.js";
import { translateDocument } from "../graphql/translate.js";
import { queriesSent, type CypherQuery } from "../neo4j/combine.js";
import { answerWithin } from "../neo4j/deadline.js";
import type { FirstAskings } from "../overload/first-askings.js";
import type { LastValues } from "./last-values.js";
import { readPlanEpoch } from "./plan-epoch.js";

/** Where the documents the service expects come from, most wanted first. */
export interface KnownDocuments {
  trusted: (limit: number) => Promise<string[]>;
  recentPersisted: (limit: number) => Promise<string[]>;
}

export interface PreplanDependencies {
  schema: GraphQLSchema;
  driver: Driver;
  database: string;
  documents: KnownDocuments;
  settings: PreplanSettings;
  /** Told each text Neo4j planned, and to forget them all when its plan caches start empty. */
  firstAskings?: Pick<FirstAskings, "notePlanned" | "forgetAll">;
  /** The values known statements were last answered with: such a statement is run again with them, not only planned. */
  lastValues?: LastValues;
  log: (line: string) => void;
  /** Counts each document's outcome. */
  count: (outcome: PreplanOutcome) => void;
}

export type PreplanOutcome = "planned" | "skipped" | "failed";

/**
 * The Cypher the service sends for a document: its root fields' queries as the request's runner
 * sends them ({@link queriesSent}). A field's Cypher depends on which arguments are given, not on
 * their values (those are parameters), so the document is translated with stand-in values twice:
 * with its required variables alone, and with every variable given (a dashboard usually sends all
 * of its variables). A request that gives some of its optional variables and not others asks for
 * a shape planned on its first use. Undefined for a document that does not validate, that has
 * several operations or whose required variables have no stand-in.
 */
export async function cypherToPlan(schema: GraphQLSchema, text: string): Promise<CypherQuery[] | undefined> {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch {
    return undefined;
  }
  const operations = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const [operation] = operations;
  if (operations.length !== 1 || operation === undefined || validate(schema, document).length > 0)
    return undefined;
  // Each variable its own stand-in: the library may write equal values as one parameter (the
  // translation cache keys them apart for that reason), which a real request's would not be.
  const standIns = (operation.variableDefinitions ?? []).map((variable, index) => ({
    name: variable.variable.name.value,
    required: variable.type.kind === Kind.NON_NULL_TYPE && variable.defaultValue === undefined,
    value: standIn(typeFromAST(schema, variable.type) as GraphQLInputType | undefined, index),
  }));
  const required = standIns.filter((variable) => variable.required);
  if (required.some((variable) => variable.value === undefined)) return undefined;
  const translated = async (given: typeof standIns) =>
    queriesSent(
      await translateDocument(
        schema,
        document,
        Object.fromEntries(given.map((variable) => [variable.name, variable.value])),
      ),
    );
  const alone = await translated(required);
  // Every variable given: a stand-in the service refuses (an `after` that is no cursor) leaves
  // the document with its first shape only.
  const every = standIns.some((variable) => !variable.required && variable.value !== undefined)
    ? await translated(standIns.filter((variable) => variable.value !== undefined)).catch(() => [])
    : [];
  const texts = new Set(alone.map((query) => query.text));
  return [...alone, ...every.filter((query) => !texts.has(query.text))];
}

/** A scalar's stand-in, the `n`th of its kind (each variable of a document gets its own). */
const SCALAR_STAND_INS: Readonly<Record<string, (n: number) => unknown>> = {
  ID: (n) => `pre-planning-${String(n)}`,
  String: (n) => `pre-planning-${String(n)}`,
  Int: (n) => n + 1,
  Float: (n) => n + 1.5,
  Boolean: (n) => n % 2 === 0,
  Date: (n) => `2000-01-${String((n % 28) + 1).padStart(2, "0")}`,
  DateTime: (n) => `2000-01-${String((n % 28) + 1).padStart(2, "0")}T00:00:00Z`,
};

/** A value of the type that the service accepts (the `n`th stand-in of a scalar), or undefined where it knows none. */
export function standIn(type: GraphQLInputType | undefined, n = 0): unknown {
  if (type === undefined) return undefined;
  const nullable = isNonNullType(type) ? getNullableType(type) : type;
  if (isListType(nullable)) {
    const item = standIn(nullable.ofType, n);
    return item === undefined ? undefined : [item];
  }
  if (isEnumType(nullable)) return nullable.getValues()[0]?.value;
  if (isScalarType(nullable)) return SCALAR_STAND_INS[nullable.name]?.(n);
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      if (!isNonNullType(field.type) || field.defaultValue !== undefined) continue;
      const fieldValue = standIn(field.type, n);
      if (fieldValue === undefined) return undefined;
      value[field.name] = fieldValue;
    }
    return value;
  }
  return undefined;
}

/**
 * How many times a round runs a known statement it has values for. A restarted Neo4j compiles its
 * code as it runs: after one run the dashboard's statements took 2–3× their warm time, after three
 * about 1.5× (docs/operations.md). The runs after the first go round by round over all of them,
 * within the round's bounds.
 */
export const WARM_UP_RUNS = 3;

/** One round: the known documents' Cypher EXPLAINed one after another, within the bounds. */
export async function preplanRound(deps: PreplanDependencies): Promise<Record<PreplanOutcome, number>> {
  const { schema, driver, database, documents, settings, count } = deps;
  const started = performance.now();
  const outcomes: Record<PreplanOutcome, number> = { planned: 0, skipped: 0, failed: 0 };
  const note = (outcome: PreplanOutcome) => {
    outcomes[outcome]++;
    count(outcome);
  };
  // Every wait on Neo4j is bounded: a hung server ends the round, never holds it.
  const trusted = await answerWithin(documents.trusted(settings.maxDocuments), settings.budgetMs);
  const recent = await documents.recentPersisted(settings.maxDocuments);
  const texts = [...new Set([...trusted, ...recent])].slice(0, settings.maxDocuments);
  const planned = new Set<string>();
  const withValues: { text: string; values: Record<string, unknown> }[] = [];
  const inBudget = () => performance.now() - started <= settings.budgetMs;
  const ask = (text: string, parameters: Record<string, unknown>, warmUp: boolean) =>
    answerWithin(
      driver.executeQuery(text, parameters, {
        database,
        routing: neo4j.routing.READ,
        transactionConfig: {
          timeout: settings.budgetMs,
          metadata: { app: "kg-graphql", purpose: warmUp ? "warm-up" : "pre-planning" },
        },
      }),
      settings.budgetMs,
    );
  for (const text of texts) {
    if (!inBudget()) break;
    const queries = (await cypherToPlan(schema, text).catch(() => undefined))?.filter(
      (query) => !planned.has(query.text),
    );
    if (queries === undefined || queries.length === 0) {
      note("skipped");
      continue;
    }
    try {
      for (const query of queries) {
        planned.add(query.text);
        // Run again with its last values, a restarted Neo4j also builds the runtime plan and warms
        // what the statement reads; without, Neo4j plans it and reads no row.
        const values = deps.lastValues?.valuesOf(query.text);
        await ask(
          values ? query.text : `EXPLAIN ${query.text}`,
          values ?? query.parameters,
          values !== undefined,
        );
        if (values) withValues.push({ text: query.text, values });
        deps.firstAskings?.notePlanned(query.text);
        deps.lastValues?.expect(query.text);
      }
      note("planned");
    } catch {
      note("failed");
    }
  }
  for (let run = 1; run < WARM_UP_RUNS; run++)
    for (const { text, values } of withValues) {
      if (!inBudget()) break;
      // Planned and run once already: a failure here changes nothing the round counted.
      await ask(text, values, true).catch(() => undefined);
    }
  deps.lastValues?.expectOnly(planned);
  deps.log(
    `Pre-planned ${String(outcomes.planned)} known document(s) in ${String(Math.round(performance.now() - started))} ms ` +
      `(${String(outcomes.skipped)} skipped, ${String(outcomes.failed)} failed, of ${String(texts.length)}; ` +
      `${String(withValues.length)} statement(s) run again with their last values, up to ${String(WARM_UP_RUNS)} times each).`,
  );
  return outcomes;
}

export interface Preplanning {
  /** Stops checking Neo4j; a round in flight finishes on its own. */
  stop: () => void;
  /** Resolves once no round is running or waiting. */
  idle: () => Promise<void>;
}

/**
 * Runs a round now, and another each time Neo4j's plan caches start empty: it restarted, or its
 * indexes changed ({@link readPlanEpoch}, read every `checkIntervalMs`; an outage that ends with the
 * same server changes nothing). The first askings forget what Neo4j had planned at that moment.
 * Rounds never overlap and never fail the service; with `maxDocuments` 0 there are none, and the
 * epoch is still watched for the first askings.
 */
export function startPreplanning(deps: PreplanDependencies): Preplanning {
  let running: Promise<void> = Promise.resolve();
  const idle = async (): Promise<void> => {
    const current = running;
    await current;
    if (running !== current) await idle();
  };
  const round = () => {
    if (deps.settings.maxDocuments === 0) return;
    running = running
      .then(() => preplanRound(deps))
      .then(
        () => undefined,
        (error: unknown) => {
          deps.log(`Pre-planning stopped: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
  };
  if (deps.settings.maxDocuments === 0 && deps.firstAskings === undefined)
    return { stop: () => undefined, idle };
  let epoch: string | undefined;
  const watch = () =>
    readPlanEpoch(deps.driver, deps.database, deps.settings.checkIntervalMs).then((now) => {
      // Silent: whatever happens meanwhile shows as a new epoch once it answers.
      if (now === undefined || now === epoch) return;
      const changed = epoch !== undefined;
      epoch = now;
      if (!changed) return;
      deps.firstAskings?.forgetAll();
      deps.log(
        "Neo4j's plan caches start empty (it restarted, or its indexes changed): planning the known documents again.",
      );
      round();
    });
  round();
  void watch();
  const timer = setInterval(() => void watch(), deps.settings.checkIntervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
    },
    idle,
  };
}
