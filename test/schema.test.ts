import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import {
  Kind,
  buildASTSchema,
  extendSchema,
  isEnumType,
  isInputObjectType,
  isObjectType,
  isSpecifiedScalarType,
  lexicographicSortSchema,
  parse,
  printSchema,
  visit,
  type DocumentNode,
  type GraphQLSchema,
} from "graphql";
import { buildSchema, describeLibraryTypes, library, readTypeDefs } from "../src/graphql/schema.js";
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

  it("is contract §7's schema with its v1 additions, descriptions and directives aside", async () => {
    const contract = parse(
      await readFile(join(projectRoot, "test", "support", "contract-schema.graphql"), "utf8"),
    );
    const extension = (kind: string) => kind.endsWith("Extension");
    const base = buildASTSchema({
      kind: Kind.DOCUMENT,
      definitions: contract.definitions.filter((d) => !extension(d.kind)),
    });
    const expected = extendSchema(base, {
      kind: Kind.DOCUMENT,
      definitions: contract.definitions.filter((d) => extension(d.kind)),
    });
    expect(shape(printSchema(await buildSchema(testDriver(), testDatabase)))).to.equal(
      shape(printSchema(expected)),
    );
  });

  it("describes every type, field, argument and enum value callers see", async () => {
    const schema = describeLibraryTypes(await library(await readTypeDefs()).getSchema());
    const missing: string[] = [];
    const need = (path: string, description: string | null | undefined) => {
      if (description === undefined || description === null || description.trim().length < 10)
        missing.push(path);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith("__") || isSpecifiedScalarType(type)) continue;
      need(type.name, type.description);
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          need(`${type.name}.${field.name}`, field.description);
          for (const arg of field.args) need(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) need(`${type.name}.${value.name}`, value.description);
      }
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          need(`${type.name}.${field.name}`, field.description);
      }
    }
    expect(missing).to.deep.equal([]);
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
          "decisionGroups",
          "featureGroups",
          "customerGroups",
          "disagreementGroups",
          "node",
        ].map((name) => ({ name })),
      },
      mutationType: null,
      subscriptionType: null,
    });
  });

  it("exposes no generated sort, aggregate or connection fields: its connections and where inputs are §7's own", async () => {
    const schema = await readFile(join(projectRoot, "schema.graphql"), "utf8");
    expect(schema).not.to.match(/sort|Aggregate|options|Mutation|Subscription/);
    const elements = ["Decision", "Feature", "Topic", "Customer", "Person", "Disagreement", "Commitment"];
    expect(
      [...schema.matchAll(/^type (\w+(?:Connection|Edge)|PageInfo) /gm)].map(([, name]) => name).sort(),
    ).to.deep.equal(
      [...elements.flatMap((element) => [`${element}Connection`, `${element}Edge`]), "PageInfo"].sort(),
    );
    expect(/^type PageInfo \{[^}]*\}/m.exec(shape(schema))?.[0]).to.equal(
      "type PageInfo {\n  endCursor: String\n  hasNextPage: Boolean!\n}",
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

/** A schema's types, fields and arguments in name order, without descriptions or directives. */
function shape(sdl: string): string {
  const stripped: DocumentNode = visit(parse(sdl), {
    enter(node) {
      if ("description" in node && node.description !== undefined) return { ...node, description: undefined };
      return undefined;
    },
    Directive: () => null,
  });
  const schema: GraphQLSchema = buildASTSchema(stripped);
  return printSchema(lexicographicSortSchema(schema));
}
