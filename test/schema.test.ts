import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { printSchema } from "graphql";
import { buildSchema } from "../src/graphql/schema.js";
import { projectRoot } from "../src/project-root.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

describe("the public schema", () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  it("prints exactly as the committed schema.graphql (contract §7)", async () => {
    const served = printSchema(await buildSchema(testDriver(), testDatabase)) + "\n";
    expect(served).to.equal(await readFile(join(projectRoot, "schema.graphql"), "utf8"));
  });

  it("has the root fields of §7 and its v1 additions, and no Mutation or Subscription root, as introspection shows", async () => {
    const { status, body } = await service.graphql(
      "{ __schema { queryType { fields { name } } mutationType { name } subscriptionType { name } } }",
    );
    expect(status).to.equal(200);
    expect(body.data.__schema).to.deep.equal({
      queryType: {
        fields: [
          "decisions",
          "decisionsConnection",
          "decision",
          "features",
          "featuresConnection",
          "topics",
          "topicsConnection",
          "topic",
          "customers",
          "customersConnection",
          "people",
          "peopleConnection",
          "disagreements",
          "disagreementsConnection",
        ].map((name) => ({ name })),
      },
      mutationType: null,
      subscriptionType: null,
    });
  });

  it("exposes no generated where, sort, aggregate or connection fields: its connections are §7's own", async () => {
    const schema = await readFile(join(projectRoot, "schema.graphql"), "utf8");
    expect(schema).not.to.match(/where|sort|Aggregate|options|Mutation|Subscription/);
    const elements = ["Decision", "Feature", "Topic", "Customer", "Person", "Disagreement", "Commitment"];
    expect(
      [...schema.matchAll(/^type (\w+(?:Connection|Edge)|PageInfo) /gm)].map(([, name]) => name).sort(),
    ).to.deep.equal(
      [...elements.flatMap((element) => [`${element}Connection`, `${element}Edge`]), "PageInfo"].sort(),
    );
    expect([...schema.matchAll(/^type PageInfo \{[^}]*\}/gm)][0]?.[0]).to.equal(
      "type PageInfo {\n  hasNextPage: Boolean!\n  endCursor: String\n}",
    );
  });

  for (const operation of ["mutation", "subscription"]) {
    it(`refuses a ${operation} at validation, without executing anything`, async () => {
      const { body } = await service.graphql(`${operation} { createDecisions { id } }`);
      expect(body.data).to.equal(undefined);
      expect(body.errors[0].message).to.equal(
        `This API is read-only: it has no ${operation} operations, only queries.`,
      );
    });
  }
});
