import { expect } from "chai";
import { countingDriver } from "./support/counting-driver.js";
import { loadFixtures } from "./support/fixtures.js";
import { startCountingService, type RunningService } from "./support/service.js";
import { testDriver } from "./support/test-neo4j.js";

describe("the limit argument", () => {
  let service: RunningService;
  let counter: ReturnType<typeof countingDriver>;
  before(async () => {
    ({ service, counter } = await startCountingService());
    // 120 topics so that limit 100 and the default 20 are visible in the answer's length.
    await testDriver().executeQuery(
      "UNWIND range(1, 120) AS i CREATE (:Topic {id: 'extra-' + i, name: 'Extra ' + i})",
    );
  });
  after(async () => {
    await service.close();
    await loadFixtures();
  });

  const count = async (query: string, variables?: Record<string, unknown>) => {
    const { status, body } = await service.graphql(query, variables);
    expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    expect(status).to.equal(200);
    return (body.data.topics as unknown[]).length;
  };

  it("accepts 1 and 100, as literals and as variables", async () => {
    expect(await count("{ topics(limit: 1) { id } }")).to.equal(1);
    expect(await count("{ topics(limit: 100) { id } }")).to.equal(100);
    expect(await count("query ($n: Int) { topics(limit: $n) { id } }", { n: 1 })).to.equal(1);
    expect(await count("query ($n: Int) { topics(limit: $n) { id } }", { n: 100 })).to.equal(100);
  });

  it("defaults to 20 when omitted, explicitly null, or an unset variable", async () => {
    expect(await count("{ topics { id } }")).to.equal(20);
    expect(await count("{ topics(limit: null) { id } }")).to.equal(20);
    expect(await count("query ($n: Int) { topics(limit: $n) { id } }", {})).to.equal(20);
    expect(await count("query ($n: Int) { topics(limit: $n) { id } }", { n: null })).to.equal(20);
    expect(await count("query ($n: Int = 3) { topics(limit: $n) { id } }")).to.equal(3);
  });

  const refused: [string, string, Record<string, unknown>?][] = [
    ["0 as a literal", "{ topics(limit: 0) { id } }"],
    ["101 as a literal", "{ topics(limit: 101) { id } }"],
    ["-1 as a literal", "{ topics(limit: -1) { id } }"],
    ["0 as a variable", "query ($n: Int) { topics(limit: $n) { id } }", { n: 0 }],
    ["101 as a variable", "query ($n: Int) { topics(limit: $n) { id } }", { n: 101 }],
    ["-1 as a variable", "query ($n: Int) { topics(limit: $n) { id } }", { n: -1 }],
    ["101 as a variable default", "query ($n: Int = 101) { topics(limit: $n) { id } }"],
    ["0 on a nested field", '{ topic(id: "t1") { decisions(limit: 0) { id } } }'],
    [
      "101 on a nested field inside a fragment",
      "{ people { ...P } } fragment P on Person { openCommitments(limit: 101) { id } }",
    ],
  ];
  for (const [name, query, variables] of refused) {
    it(`refuses ${name} before any Cypher runs`, async () => {
      counter.reset();
      const { status, body } = await service.graphql(query, variables);
      expect(status).to.equal(422);
      expect(body.data).to.equal(undefined);
      expect(body.errors).to.have.length(1);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
      expect(body.errors[0].message).to.match(
        /"limit" on field "\w+\.\w+" must be an integer from 1 to 100; got -?\d+\./,
      );
      expect(counter.queries()).to.equal(0);
    });
  }

  it("refuses a non-integer limit", async () => {
    const { body } = await service.graphql("{ topics(limit: 2.5) { id } }");
    expect(body.data).to.equal(undefined);
    expect(body.errors).to.have.length(1);
  });
});
