import { expect } from "chai";
import { startService, type RunningService, withoutCost } from "./support/service.js";

describe("GraphQL request errors on the wire", () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  const cases: [string, string, string, Record<string, unknown>?, string?][] = [
    ["a syntax error", "parse_error", "{ topics { id "],
    ["an unknown field", "validation_failed", "{ topics { nope } }"],
    ["an unknown argument", "validation_failed", "{ topics(first: 2) { id } }"],
    ["a bad enum value", "validation_failed", "{ decisions(status: MAYBE) { id } }"],
    ["a malformed Date", "validation_failed", '{ decisions(since: "31/03/2025") { id } }'],
    [
      "a variable of the wrong type",
      "validation_failed",
      "query ($n: Int) { topics(limit: $n) { id } }",
      { n: "ten" },
    ],
    ["a missing required variable", "validation_failed", "query ($id: ID!) { topic(id: $id) { id } }", {}],
    ["a mutation", "validation_failed", "mutation { x }"],
    ["a limit of 101", "validation_failed", "{ topics(limit: 101) { id } }"],
  ];
  for (const [name, code, query, variables] of cases) {
    it(`answers ${name} with 422 ${code} and the request id`, async () => {
      const { status, headers, body } = await service.graphql(query, variables);
      expect(status).to.equal(422);
      expect(headers.get("content-type")).to.equal("application/json; charset=utf-8");
      expect(body.data).to.equal(undefined);
      expect(body.errors).to.have.length.greaterThan(0);
      for (const error of body.errors) {
        expect(error.extensions).to.deep.equal({ code, requestId: headers.get("x-request-id") });
        expect(error.message)
          .to.be.a("string")
          .and.not.match(/stack|at \//);
      }
    });
  }

  it("answers an unknown operationName and an ambiguous document with 422 validation_failed", async () => {
    for (const body of [
      { query: "query A { topics { id } }", operationName: "B" },
      { query: "query A { topics { id } } query B { people { id } }" },
    ]) {
      const response = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).to.equal(422);
      expect(response.body.errors[0].extensions.code).to.equal("validation_failed");
    }
  });

  it("refuses a Float literal past the largest finite double as its variable is, and takes the largest", async () => {
    const past = (value: string) =>
      `Float cannot represent ${value}: it is past the largest finite Float (about 1.8e308).`;
    for (const [literal, where] of [
      ["1e309", "decisionsConnection(regretScoreMin: 1e309)"],
      ["-1e309", "decisionsConnection(where: { regretScore: { lt: -1e309 } })"],
      [
        `1${"0".repeat(309)}`,
        `decisionsConnection(where: { regretScore: { in: [0.5, 1${"0".repeat(309)}] } })`,
      ],
    ] as const) {
      const { status, body } = await service.graphql(`{ ${where} { totalCount } }`);
      expect(status, literal).to.equal(422);
      expect(body.errors.map((e: { message: string }) => e.message)).to.deep.equal([past(literal)]);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
    }
    const defaulted = await service.graphql(
      "query ($x: Float = 2e308) { decisions(regretScoreMin: $x) { id } }",
    );
    expect(defaulted.status).to.equal(422);
    expect(defaulted.body.errors[0].message).to.equal(past("2e308"));
    // JSON's 1e309 parses as Infinity (JSON.stringify would write null): the body is written by hand.
    const variable = await service.request("/api/v1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"query": "query ($x: Float) { decisions(regretScoreMin: $x) { id } }", "variables": {"x": 1e309}}',
    });
    expect(variable.status).to.equal(422);
    expect(variable.body.errors[0].extensions.code).to.equal("validation_failed");
    // The largest finite double, and an Int literal past 32 bits where a Float is read, are served.
    const largest = await service.graphql(
      "{ a: decisionsConnection(regretScoreMin: 1.7976931348623157e308) { totalCount } b: decisionsConnection(regretScoreMin: 4294967296) { totalCount } }",
    );
    expect(largest.status).to.equal(200);
    expect(withoutCost(largest.body)).to.deep.equal({ data: { a: { totalCount: 0 }, b: { totalCount: 0 } } });
  });

  it("reports every validation error of a document, each with its code", async () => {
    const { status, body } = await service.graphql("{ topics { nope } people { alsoNope } }");
    expect(status).to.equal(422);
    expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).to.deep.equal([
      "validation_failed",
      "validation_failed",
    ]);
  });

  it("keeps a successful response at 200 with data only", async () => {
    const { status, body } = await service.graphql("{ __typename }");
    expect(status).to.equal(200);
    expect(withoutCost(body)).to.deep.equal({ data: { __typename: "Query" } });
  });
});
