import { expect } from "chai";
import { buildSchema, translationCacheCountsOf } from "../src/graphql/schema.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, withoutCost, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";
import { buildSchema as buildGraphQLSchema, execute, parse, type GraphQLSchema } from "graphql";
import neo4j, { Record as Neo4jRecord, type QueryResult } from "neo4j-driver";
import { cacheTranslations } from "../src/graphql/translation-cache.js";
import type { CypherQuery } from "../src/neo4j/combine.js";
import type { QueryRunner } from "../src/neo4j/runner.js";

/** One document, asked with many variable values: nulls, booleans, enums, dates, ids, numbers. */
const DOCUMENT = `query Page($topic: ID, $since: Date, $status: DecisionStatus, $min: Float, $limit: Int, $withTopic: Boolean!, $person: ID, $health: CustomerHealth) {
  decisions(topicId: $topic, since: $since, status: $status, regretScoreMin: $min, limit: $limit) {
    id title topic @include(if: $withTopic) { id decisions(limit: $limit) { id } }
  }
  byOwner: features(ownerId: $person, limit: $limit) { id owner { id } }
  customers(health: $health, limit: 3) { id }
  topic(id: "t1") { name }
}`;

const VARIABLES: Record<string, unknown>[] = [
  { withTopic: true },
  { topic: "t1", limit: 2, withTopic: false },
  { topic: "t1", limit: 3, withTopic: true, person: "p1" },
  { topic: "t2", limit: 5, withTopic: true, person: "p2", health: "AT_RISK" },
  { since: "2025-01-01", limit: 4, withTopic: true, status: "DECIDED" },
  { since: "2025-03-31", limit: 1, withTopic: true, min: 0.5 },
  { topic: "t1", since: "2024-06-30", status: "EXECUTED", min: 0.1, limit: 100, withTopic: false },
  { topic: "nope", limit: 7, withTopic: true, person: "nobody", health: "CHURNED" },
  { limit: 2, withTopic: true, person: "p1" },
  { topic: "t1", limit: 2, withTopic: false },
  // Absent and null differ: an absent $limit leaves `limit` to its default, null sets it to null.
  { topic: "t1", limit: null, since: null, withTopic: true },
];

describe("the translation cache (TRANSLATION_CACHE)", () => {
  let cached: RunningService;
  let uncached: RunningService;
  let schema: GraphQLSchema;
  before(async () => {
    await loadFixtures();
    schema = await buildSchema(testDriver(), testDatabase, { translationCache: "on" });
    cached = await startService(undefined, { schema });
    uncached = await startService(undefined, {
      schema: await buildSchema(testDriver(), testDatabase, { translationCache: "off" }),
    });
  });
  after(async () => {
    await cached.close();
    await uncached.close();
  });

  it("learns a document on its second request and reuses it, answering exactly what the library answers", async () => {
    for (const round of [1, 2, 3]) {
      for (const variables of VARIABLES) {
        const [mine, library] = await Promise.all([
          cached.graphql(DOCUMENT, variables),
          uncached.graphql(DOCUMENT, variables),
        ]);
        expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
        expect(withoutCost(mine.body), `round ${round}: ${JSON.stringify(variables)}`).to.deep.equal(
          withoutCost(library.body),
        );
      }
    }
    const counts = translationCacheCountsOf(schema);
    // Four root fields per request; every shape of variables is learnt once, then reused.
    expect(counts?.uncacheable).to.equal(0);
    expect(counts?.reused).to.be.greaterThan(counts?.learnt ?? Infinity);
    expect((counts?.reused ?? 0) + (counts?.learnt ?? 0) + (counts?.translated ?? 0)).to.equal(
      3 * VARIABLES.length * 4,
    );

    const metrics = await (await fetch(`${cached.url}/metrics`)).text();
    for (const [outcome, count] of Object.entries(counts ?? {})) {
      expect(metrics).to.include(
        `kg_graphql_translation_cache_total{outcome="${outcome}"} ${String(count)}\n`,
      );
    }
  });

  it("answers a document's failures the same way when its translation is reused", async () => {
    const query = "query($limit: Int) { decisions(limit: $limit) { id } }";
    for (let i = 0; i < 3; i++) expect((await cached.graphql(query, { limit: 2 })).status).to.equal(200);
    for (const service of [cached, uncached]) {
      const { status, body } = await service.graphql(query, { limit: 101 });
      expect(status).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
    }
  });
});

describe("cacheTranslations, learning from a stand-in for the library", () => {
  /** A field "translated" by `translate` into a query whose one row is the parameter `v`. */
  type Args = { n?: number | null; s?: string | null; t?: string | null };
  function schemaTranslatingWith(
    translate: (args: Args) => CypherQuery,
    document = parse("query($n: Int, $s: String) { f(n: $n, s: $s) }"),
  ) {
    const schema = buildGraphQLSchema("type Query { f(n: Int, s: String, t: String): [String] }");
    const field = schema.getQueryType()?.getFields().f;
    if (field === undefined) throw new Error("no field");
    field.resolve = async (_source, args, context: { executionContext: QueryRunner }) => {
      const { text, parameters } = translate(args as Args);
      const result = await context.executionContext.run(text, parameters);
      return result.records.map((record) => record.get(0) as unknown);
    };
    const counts = cacheTranslations(schema, new Set(["f"]), "verify");
    const sent: CypherQuery[] = [];
    const runner: QueryRunner = {
      run: (text, parameters = {}) => {
        sent.push({ text, parameters });
        // The row: v, then ",w" when the query has a second parameter (numbers and strings only).
        const shown = (value: unknown) => (neo4j.isInt(value) ? value.toString() : JSON.stringify(value));
        const row =
          parameters.v === null || parameters.v === undefined
            ? null
            : [parameters.v, parameters.w]
                .filter((value) => value !== undefined)
                .map((value) => shown(value).replaceAll('"', ""))
                .join(",");
        return Promise.resolve({ records: [new Neo4jRecord(["v"], [row])] } as unknown as QueryResult);
      },
    };
    const ask = async (variableValues: Record<string, unknown>) => {
      const result = await execute({
        schema,
        document,
        variableValues,
        contextValue: { executionContext: runner },
      });
      expect(result.errors).to.equal(undefined);
      return result.data?.f;
    };
    return { counts, sent, ask };
  }

  it("reuses a translation whose parameters are the variables, as given or as Neo4j integers", async () => {
    const { counts, ask } = schemaTranslatingWith(({ n, s }) => ({
      text: "RETURN $v, $w, $k",
      parameters: { v: n === null || n === undefined ? null : neo4j.int(n), w: s, k: "constant" },
    }));
    for (const n of [1, 2, 3, 40]) expect(await ask({ n, s: `s${n}` })).to.deep.equal([`${n},s${n}`]);
    expect(counts).to.deep.include({ learnt: 1, reused: 3, uncacheable: 0 });
    expect(await ask({ n: null, s: "x" })).to.deep.equal([null]);
    expect(counts.learnt).to.equal(2); // null is a shape of its own
  });

  it("tells an absent variable (the argument's default) from a null one", async () => {
    const { counts, ask } = schemaTranslatingWith(({ n }) =>
      n === undefined
        ? { text: "RETURN $v // default", parameters: { v: 7 } }
        : { text: "RETURN $v", parameters: { v: n } },
    );
    for (let i = 0; i < 2; i++) {
      expect(await ask({})).to.deep.equal(["7"]);
      expect(await ask({ n: null })).to.deep.equal([null]);
    }
    expect(counts).to.deep.include({ learnt: 2, reused: 2 });
  });

  it("keys equal values apart, which the library gives one parameter", async () => {
    const merging = ({ s, t }: Args) =>
      s === t
        ? { text: "RETURN $v AS both", parameters: { v: s } }
        : { text: "RETURN $v, $w", parameters: { v: s, w: t } };
    const variables = schemaTranslatingWith(
      merging,
      parse("query($s: String, $t: String) { f(s: $s, t: $t) }"),
    );
    expect(await variables.ask({ s: "a", t: "b" })).to.deep.equal(["a,b"]);
    expect(await variables.ask({ s: "c", t: "c" })).to.deep.equal(["c"]);
    expect(await variables.ask({ s: "d", t: "e" })).to.deep.equal(["d,e"]);
    expect(variables.counts.reused).to.equal(1);

    const literal = schemaTranslatingWith(merging, parse('query($s: String) { f(s: $s, t: "x") }'));
    expect(await literal.ask({ s: "y" })).to.deep.equal(["y,x"]);
    expect(await literal.ask({ s: "x" })).to.deep.equal(["x"]);
    expect(await literal.ask({ s: "z" })).to.deep.equal(["z,x"]);
    expect(literal.counts.reused).to.equal(1);
  });

  it("leaves a key to the library when a parameter is derived from a value", async () => {
    const { counts, ask } = schemaTranslatingWith(({ n }) => ({
      text: "RETURN $v",
      parameters: { v: Math.min(n ?? 0, 100) },
    }));
    expect(await ask({ n: 500 })).to.deep.equal(["100"]);
    expect(await ask({ n: 5 })).to.deep.equal(["5"]);
    expect(await ask({ n: 50 })).to.deep.equal(["50"]);
    expect(counts).to.deep.equal({ learnt: 0, reused: 0, uncacheable: 1, translated: 2 });
  });

  it("leaves a key to the library when the text depends on a value", async () => {
    const { counts, sent, ask } = schemaTranslatingWith(({ n }) => ({
      text: (n ?? 0) > 10 ? "RETURN $v // big" : "RETURN $v",
      parameters: { v: n },
    }));
    for (const n of [20, 5, 30]) expect(await ask({ n })).to.deep.equal([String(n)]);
    expect(counts.reused).to.equal(0);
    expect(sent.map((query) => query.text)).to.deep.equal([
      "RETURN $v // big",
      "RETURN $v",
      "RETURN $v // big",
    ]);
  });
});
