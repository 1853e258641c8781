import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { STATEMENT_BUILDERS } from "../src/cypher/statements.js";
import { isEnumType } from "graphql";
import {
  DOMAIN,
  ELEMENT_TYPES,
  ENUMS,
  propertyType,
  type DomainTable,
  type ElementRow,
} from "../src/domain/table.js";
import { LINK_TYPES, NODE_TYPES, TABLE_RELATIONSHIPS } from "../src/domain/graph.js";
import { readTypeDefs } from "../src/graphql/schema.js";
import { cypherDir } from "../src/neo4j/apply-cypher.js";
import { indexProblems, sdlProblems, sdlSchema, statementsOf } from "./support/domain-checks.js";

/** The table with one row changed. */
const withRow = (type: keyof DomainTable, change: (row: ElementRow) => ElementRow): DomainTable => ({
  ...DOMAIN,
  [type]: change(DOMAIN[type]),
});

const decisionsWith = (change: (list: NonNullable<ElementRow["list"]>) => ElementRow["list"]) =>
  withRow("Decision", (row) => ({ ...row, list: row.list && change(row.list) }));

describe("the domain table (src/domain/table.ts)", () => {
  let statements: string[];
  let schema: ReturnType<typeof sdlSchema>;

  before(async () => {
    schema = sdlSchema(await readTypeDefs());
    const files = (await readdir(cypherDir)).filter((name) => name.endsWith(".cypher"));
    statements = statementsOf(
      await Promise.all(files.map((name) => readFile(join(cypherDir, name), "utf8"))),
    );
  });

  it("agrees with the SDL of typeDefs/: properties, links, root fields, filter arguments, orders and group dimensions", () => {
    expect(sdlProblems(schema, DOMAIN)).to.deep.equal([]);
  });

  it("knows each enum a property holds with the SDL's values, and no other", () => {
    const held = new Set(
      ELEMENT_TYPES.flatMap((type) =>
        Object.values(DOMAIN[type].properties).map((t) => propertyType(t).name),
      ),
    );
    const sdlEnums = [...held].flatMap((name) => {
      const type = schema.getType(name);
      return isEnumType(type) ? [[name, type.getValues().map((value) => value.name)] as const] : [];
    });
    expect(Object.fromEntries(sdlEnums)).to.deep.equal(ENUMS);
  });

  it("agrees with cypher/: every index it reads by is created there, and no other", () => {
    expect(indexProblems(statements, DOMAIN)).to.deep.equal([]);
  });

  it("follows every relationship type of LinkType and only those, and names every element type a NodeType", () => {
    expect([...TABLE_RELATIONSHIPS].sort()).to.deep.equal([...LINK_TYPES].sort());
    expect(NODE_TYPES.map(([, label]) => label).sort()).to.deep.equal([...ELEMENT_TYPES].sort());
  });

  it("gives every root field of the SDL its statement builder", () => {
    const query = schema.getQueryType();
    expect(Object.keys(STATEMENT_BUILDERS).sort()).to.deep.equal(
      Object.keys(query?.getFields() ?? {})
        .map((field) => `Query.${field}`)
        .sort(),
    );
  });

  describe("fails when they disagree", () => {
    it("a filter argument misspelt in the table (it would never apply)", () => {
      const table = decisionsWith((list) => ({
        ...list,
        filters: list.filters.map((f) => (f.kind === "equals" ? { ...f, argument: "statuss" } : f)),
      }));
      const problems = sdlProblems(schema, table);
      expect(problems).to.have.length.greaterThan(0);
      expect(problems.join("\n"))
        .to.include("statuss: DecisionStatus")
        .and.include("Query.decisions's filters");
    });

    it("a filter the SDL has and the table does not know", () => {
      const table = decisionsWith((list) => ({
        ...list,
        filters: list.filters.filter((f) => f.kind !== "atLeast"),
      }));
      expect(sdlProblems(schema, table).join("\n")).to.include("regretScoreMin: Float");
    });

    it("a filter whose argument's type is not its property's", () => {
      const table = decisionsWith((list) => ({
        ...list,
        filters: list.filters.map((f) =>
          f.kind === "atLeast" && f.argument === "regretScoreMin"
            ? { ...f, property: "executionGapDays" }
            : f,
        ),
      }));
      expect(sdlProblems(schema, table).join("\n")).to.include("regretScoreMin: Int");
    });

    it("an order, a property, a link or a dimension the SDL does not have", () => {
      const table = withRow("Decision", (row) => ({
        ...row,
        orders: { ...row.orders, STATUS: "status" },
        properties: { ...row.properties, summary: "String" },
        links: {
          ...row.links,
          owner: { kind: "single", to: "Person", relationship: "OWNS", direction: "in" },
        },
        groups: row.groups && {
          ...row.groups,
          dimensions: [...row.groups.dimensions, { by: "TITLE", property: "title" }],
        },
      }));
      const problems = sdlProblems(schema, table).join("\n");
      for (const part of [
        "orderBy",
        "Decision's properties",
        "Decision's links",
        "Query.decisionGroups's dimensions",
      ])
        expect(problems).to.include(part);
    });

    it("a filter or an order without its index, and an index nothing reads by", () => {
      const table = withRow("Person", (row) => ({
        ...row,
        orders: { ...row.orders, TEAM: "team" },
        list: row.list && {
          ...row.list,
          filters: [...row.list.filters, { kind: "equals", property: "email", argument: "email" }],
        },
      }));
      const problems = indexProblems(statements, table);
      expect(problems.join("\n")).to.include("no range index on Person.email (people(email) filters on it)");
      expect(problems.join("\n")).to.include("no range index on Person.team (people orders by TEAM)");
      const withoutResolvedAt = withRow("Disagreement", (row) => ({
        ...row,
        orders: { RAISED_AT: "raisedAt" },
      }));
      expect(indexProblems(statements, withoutResolvedAt)).to.deep.equal([
        "cypher/ indexes Disagreement.resolvedAt, which the table never reads by",
      ]);
    });

    it("a search index cypher/ does not create as the table says", () => {
      const table = withRow("Topic", (row) => ({
        ...row,
        list: row.list && { ...row.list, search: { name: "topic_search", properties: ["name"] } },
      }));
      expect(indexProblems(statements, table).join("\n")).to.include("full-text indexes");
    });
  });
});
