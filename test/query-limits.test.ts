import { expect } from "chai";
import { getIntrospectionQuery } from "graphql";
import { countingDriver } from "./support/counting-driver.js";
import { startCountingService, type RunningService } from "./support/service.js";

/** `{ topic(id:"t1") { decisions { topic { decisions { … } } } } }` with `depth` field levels. */
function nested(depth: number): string {
  // Levels alternate Topic.decisions and Decision.topic below the root topic; the last is `id`.
  let selection = "id";
  for (let level = depth - 1; level >= 2; level--) {
    selection = `${level % 2 === 0 ? "decisions(limit: 1)" : "topic"} { ${selection} }`;
  }
  return `{ topic(id: "t1") { ${selection} } }`;
}

const fields = (n: number) => Array.from({ length: n }, () => "id").join(" ");

describe("query limits (contract §5)", () => {
  let service: RunningService;
  let counter: ReturnType<typeof countingDriver>;
  before(async () => {
    ({ service, counter } = await startCountingService());
  });
  after(async () => {
    await service.close();
  });
  beforeEach(() => {
    counter.reset();
  });

  const expectOk = async (query: string, variables?: Record<string, unknown>) => {
    const response = await service.graphql(query, variables);
    expect(response.body.errors, JSON.stringify(response.body.errors)).to.equal(undefined);
    expect(response.status).to.equal(200);
    return response;
  };
  /** Refused with `code` before any Cypher ran. */
  const expectRefused = async (query: string, code: string, message?: RegExp) => {
    counter.reset();
    const response = await service.graphql(query);
    expect(response.status, JSON.stringify(response.body)).to.equal(422);
    expect(response.body.errors).to.have.length(1);
    expect(response.body.errors[0].extensions.code, JSON.stringify(response.body)).to.equal(code);
    expect(response.body.errors[0].extensions.requestId).to.equal(response.headers.get("x-request-id"));
    if (message !== undefined) expect(response.body.errors[0].message).to.match(message);
    expect(counter.queries()).to.equal(0);
    return response;
  };

  describe("depth", () => {
    it("answers brackets that are never closed with parse_error, at any depth (parse comes before depth, §3)", async () => {
      for (const brackets of [45, 64, 65, 4_980]) {
        await expectRefused(`{ __type(name: ${"[".repeat(brackets)}`, "parse_error", /^Syntax Error/);
        await expectRefused(
          `{ topics(limit: ${"[".repeat(brackets)}1) { id } }`,
          "parse_error",
          /^Syntax Error/,
        );
      }
      // Nested too deep, its brackets closed but a parenthesis not.
      await expectRefused(
        `query ( ${"{ topics ".repeat(300)}${"}".repeat(300)}`,
        "parse_error",
        /^Syntax Error/,
      );
      // Closed, but by the wrong kind of bracket.
      await expectRefused(
        `{ topics(limit: ${"[".repeat(70)}1${"}".repeat(70)}) { id } }`,
        "parse_error",
        /^Syntax Error/,
      );
    });

    it("answers brackets nested 256 deep from the schema's rules, and 257 deep as a value or fields too deep", async () => {
      // A list literal in `limit` (an Int): inside the query's first brace, 255 brackets nest 256 deep.
      const nestedList = (brackets: number) =>
        `{ topics(limit: ${"[".repeat(brackets)}1${"]".repeat(brackets)}) { id } }`;
      await expectRefused(nestedList(255), "validation_failed", /^Int cannot represent/);
      // A value nested too deep is refused as a variable nested too deep is (where.test.ts).
      await expectRefused(
        nestedList(256),
        "validation_failed",
        /^Query nests brackets 257 levels deep in an argument's value or a variable's definition; the maximum is 256\.$/,
      );
      // About 2,000 nested lists overflowed graphql-js's recursive parser (a 500) before the scan.
      await expectRefused(
        nestedList(4_980),
        "validation_failed",
        /^Query nests brackets 4,981 levels deep in an argument's value/,
      );
      // Selection sets nested that deep: fields too deep.
      const nestedFields = (braces: number) => `${"{ topics ".repeat(braces)}${"}".repeat(braces)}`;
      await expectRefused(
        nestedFields(257),
        "query_too_deep",
        /^Query nests brackets 257 levels deep; the maximum is 256 \(and 8 levels of fields\)\.$/,
      );
    });

    it("counts the contract's example as depth 4", async () => {
      await expectOk('{ topic(id: "t1") { decisions { decidedBy { name } } } }');
      expect(nested(4)).to.equal('{ topic(id: "t1") { decisions(limit: 1) { topic { id } } } }');
    });

    it("accepts 8 levels and refuses 9 with query_too_deep", async () => {
      await expectOk(nested(8));
      await expectRefused(nested(9), "query_too_deep", /^Query nests 9 levels; the maximum is 8\.$/);
    });

    it("counts fragment fields where they are spread, adding no level of their own", async () => {
      const deep = (levels: string) => `
        { topic(id: "t1") { ...TopicDecisions } }
        fragment TopicDecisions on Topic { decisions(limit: 1) { ...DecisionTopic } }
        fragment DecisionTopic on Decision { topic { decisions(limit: 1) { topic { decisions(limit: 1) { ${levels} } } } } }`;
      await expectOk(deep("topic { id }")); // 8 levels
      await expectRefused(deep("topic { decisions(limit: 1) { id } }"), "query_too_deep", /nests 9 levels/);
      await expectRefused(
        `{ topic(id: "t1") { ... on Topic { decisions(limit: 1) { topic { decisions(limit: 1) { topic {
           decisions(limit: 1) { topic { decisions(limit: 1) { id } } } } } } } } } }`,
        "query_too_deep",
      );
    });

    it("exempts __schema introspection, so GraphiQL's standard introspection query is answered", async () => {
      const { body } = await expectOk(getIntrospectionQuery());
      expect(body.data.__schema.queryType.name).to.equal("Query");
      expect(body.extensions.cost).to.deep.equal({ requested: 0, limit: 50_000 });
    });

    it("still counts __type queries", async () => {
      const ofType = (levels: number) => {
        let selection = "name";
        for (let i = 0; i < levels - 2; i++) selection = `ofType { ${selection} }`;
        return `{ __type(name: "Query") { ${selection} } }`;
      };
      await expectOk(ofType(8));
      await expectRefused(ofType(9), "query_too_deep");
    });
  });

  describe("width", () => {
    it("accepts 50 field selections in a selection set and refuses 51, every occurrence counting", async () => {
      await expectOk(`{ topic(id: "t1") { ${fields(50)} } }`);
      await expectRefused(
        `{ topic(id: "t1") { ${fields(51)} } }`,
        "query_too_wide",
        /selects 51 fields .*the maximum is 50\./,
      );
    });

    it("inlines fragments and inline fragments where they are spread", async () => {
      const withFragments = (own: number) =>
        `{ topic(id: "t1") { ${fields(own)} ...A ... on Topic { ${fields(10)} } } }
         fragment A on Topic { ${fields(20)} ...B }
         fragment B on Topic { ${fields(10)} }`;
      await expectOk(withFragments(10)); // 10 + 20 + 10 + 10
      await expectRefused(withFragments(11), "query_too_wide", /selects 51 fields/);
    });

    it("refuses fragments that each spread the next one twice, 45 levels deep, in one pass", async () => {
      // Each fragment is counted once: re-walking them at every spread took 2^45 steps, and the
      // event loop, every other request and /healthz with it, for minutes.
      const fragments = Array.from(
        { length: 45 },
        (_, i) => `fragment F${i} on Topic { ...F${i + 1} ...F${i + 1} }`,
      );
      const document = `{ topics(limit: 1) { ...F0 } } ${fragments.join(" ")} fragment F45 on Topic { id }`;
      expect(document.length).to.be.below(10_000);
      await expectRefused(
        document,
        "query_too_wide",
        /^A selection set selects 35,184,372,088,832 fields \(fragments included\); the maximum is 50\.$/,
      );
    });

    it("answers 900 × __typename with query_too_wide and its count first, before graphql-js gives up", async () => {
      const typenames = `{ ${Array.from({ length: 900 }, () => "__typename").join(" ")} }`;
      const { status, body } = await service.graphql(typenames);
      expect(status).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("query_too_wide");
      expect(body.errors[0].message).to.equal(
        "A selection set selects 900 fields (fragments included); the maximum is 50.",
      );
      expect(counter.queries()).to.equal(0);
    });

    it("counts aliases of __typename like any other: 30 pass, 31 are refused", async () => {
      const aliased = (n: number) =>
        `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(" ")} }`;
      await expectOk(aliased(30));
      await expectRefused(aliased(31), "query_too_wide", /^Query uses 31 aliases; the maximum is 30\.$/);
    });

    it("accepts 30 aliases and refuses 31", async () => {
      const aliased = (n: number) =>
        `{ ${Array.from({ length: n }, (_, i) => `a${i}: topic(id: "t1") { id }`).join(" ")} }`;
      await expectOk(aliased(30));
      await expectRefused(aliased(31), "query_too_wide", /^Query uses 31 aliases; the maximum is 30\.$/);
    });

    it("accepts 50 directives and refuses 51", async () => {
      // Two directives a field, so that 51 directives stay within 50 fields.
      const directed = (n: number) =>
        `{ topic(id: "t1") { ${Array.from({ length: Math.ceil(n / 2) }, (_, i) =>
          2 * i + 1 < n ? "id @include(if: true) @skip(if: false)" : "id @include(if: true)",
        ).join(" ")} } }`;
      await expectOk(directed(50));
      await expectRefused(directed(51), "query_too_wide", /^Query uses 51 directives; the maximum is 50\.$/);
    });

    it("counts a named fragment's spreads' own directives at every spread: 50 pass, 51 are refused", async () => {
      const spread = (n: number) => Array(n).fill("...T @include(if: true)").join(" ");
      const spreads = (n: number) =>
        `{ topics(limit: 1) { ${spread(25)} } topic(id: "t1") { ${spread(n - 25)} } } fragment T on Topic { id }`;
      await expectOk(spreads(50));
      await expectRefused(spreads(51), "query_too_wide", /^Query uses 51 directives; the maximum is 50\.$/);
    });
  });

  describe("cost", () => {
    const heavy = "topics(limit: 100) { decisions(limit: 100) { decidedBy { name } } }"; // 20,100
    const atCap = `{ a: ${heavy} b: ${heavy} c: topics(limit: 98) { decisions(limit: 99) { id } } }`;

    it("puts the estimate on every successful response, as the contract's example computes it", async () => {
      const { body } = await expectOk(`{ ${heavy} }`);
      expect(body.extensions.cost).to.deep.equal({ requested: 20_100, limit: 50_000 });
      expect((await expectOk("{ topics { id } }")).body.extensions.cost.requested).to.equal(20);
      expect((await expectOk('{ topic(id: "nope") { id name } }')).body.extensions.cost.requested).to.equal(
        1,
      );
    });

    it("applies variables, variable defaults and argument defaults; null means the default", async () => {
      const query = "query ($n: Int, $m: Int = 5) { topics(limit: $n) { decisions(limit: $m) { id } } }";
      expect((await expectOk(query, { n: 10 })).body.extensions.cost.requested).to.equal(10 * 6);
      expect((await expectOk(query, { n: 10, m: 100 })).body.extensions.cost.requested).to.equal(10 * 101);
      expect((await expectOk(query, { n: null })).body.extensions.cost.requested).to.equal(20 * 6);
      expect((await expectOk("{ topics(limit: null) { id } }")).body.extensions.cost.requested).to.equal(20);
    });

    it("admits a query at the cap and refuses one over it with query_too_expensive", async () => {
      expect((await expectOk(atCap)).body.extensions.cost.requested).to.equal(50_000);
      const over = atCap.replace(/ }$/, ' d: decision(id: "d1") { id } }');
      await expectRefused(over, "query_too_expensive", /estimated to cost 50,001; the limit is 50,000/);
    });

    it("costs only the operation that runs", async () => {
      const document = `query Cheap { topics(limit: 1) { id } } query Dear ${atCap.replace(/\{ a:/, '{ z: decision(id: "d1") { id } a:')}`;
      const cheap = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: document, operationName: "Cheap" }),
      });
      expect(cheap.status).to.equal(200);
      expect(cheap.body.extensions.cost.requested).to.equal(1);
      const dear = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: document, operationName: "Dear" }),
      });
      expect(dear.status).to.equal(422);
      expect(dear.body.errors[0].extensions.code).to.equal("query_too_expensive");
    });

    it("costs fragments where they are spread, each computed once: an exact estimate for a fan-out", async () => {
      // Six fragment levels, each selecting the next one `width` times (within width and depth).
      const fanOut = (width: number) => {
        const levels = Array.from({ length: 6 }, (_, i) => {
          const level = i + 1;
          const field = level % 2 === 1 ? "decisions(limit: 100)" : "topic";
          const next = level === 6 ? "id" : `...L${level + 1}`;
          const type = level % 2 === 1 ? "Topic" : "Decision";
          return `fragment L${level} on ${type} { ${Array.from({ length: width }, () => `${field} { ${next} }`).join(" ")} }`;
        });
        return `{ topics(limit: 100) { ...L1 } } ${levels.join(" ")}`;
      };
      // Per level, from the leaf up: topic 1 + c, decisions 100 × (1 + c), times `width` each.
      const expected = (width: number) => {
        let cost = 0;
        for (let level = 6; level >= 1; level--)
          cost = width * (level % 2 === 1 ? 100 * (1 + cost) : 1 + cost);
        return 100 * (1 + cost);
      };
      expect(fanOut(50).length).to.be.below(10_000);
      for (const width of [1, 2, 50]) {
        await expectRefused(
          fanOut(width),
          "query_too_expensive",
          new RegExp(`estimated to cost ${expected(width).toLocaleString("en-US")}; the limit is 50,000`),
        );
      }
    });

    it("checks the limit range before the cost", async () => {
      await expectRefused("{ topics(limit: 1000) { decisions(limit: 100) { id } } }", "validation_failed");
    });
  });

  it("answers a document sent again as the first time (remembered), each answer with its own request id", async () => {
    const query = `{ nope ${nested(9).slice(1, -1)} }`;
    const [first, second] = [await service.graphql(query), await service.graphql(query)];
    expect(second.status).to.equal(422);
    const withoutIds = (body: { errors: { extensions: { requestId?: string } }[] }) =>
      body.errors.map((error) => ({ ...error, extensions: { ...error.extensions, requestId: undefined } }));
    expect(withoutIds(second.body)).to.deep.equal(withoutIds(first.body));
    expect(second.body.errors[0].extensions.requestId).to.equal(second.headers.get("x-request-id"));
    expect(second.body.errors[0].extensions.requestId).not.to.equal(
      first.body.errors[0].extensions.requestId,
    );
    expect((await service.graphql("{ topics(limit: 1) { id } }")).status).to.equal(200);
    expect((await service.graphql("{ topics(limit: 1) { id } }")).status).to.equal(200);
  });

  it("gives each validation-stage error its own code, with status 422", async () => {
    const response = await service.graphql(`{ nope ${nested(9).slice(1, -1)} }`);
    expect(response.status).to.equal(422);
    const codes = (response.body.errors as { extensions: { code: string } }[]).map((e) => e.extensions.code);
    expect(codes).to.have.members(["validation_failed", "query_too_deep"]);
    expect(counter.queries()).to.equal(0);
  });
});
