import { expect } from "chai";
import { orderBy, STATEMENTS } from "../src/graphql/cypher-templates.js";
import { readTypeDefs } from "../src/graphql/schema.js";
import { dateProblem } from "../src/graphql/strict-date.js";
import { cypherFields, withTemplateStatements } from "../src/graphql/typedefs-sync.js";

describe("typeDefs/ and their Cypher templates (no database)", () => {
  it("hold exactly the templates' statements: `npm run typedefs` rewrites them", async () => {
    const fields = (await readTypeDefs()).flatMap(cypherFields);
    const inFiles = Object.fromEntries(fields.map(({ field, statement }) => [field, statement]));
    expect(inFiles).to.deep.equal(STATEMENTS);
  });

  it("reads only what contract §8 names: no derived sort keys", () => {
    for (const [field, statement] of Object.entries(STATEMENTS)) {
      expect(statement, field).not.to.match(/sortkey/i);
      expect(statement, field).not.to.match(/\b(SET|CREATE|MERGE|DELETE|REMOVE)\b/);
    }
  });

  it("spells each order once, for root and nested lists alike", () => {
    const decisionsOrder = `ORDER BY ${orderBy("d", { newestFirst: "decidedAt" })}`;
    for (const field of ["Query.decisions", "Topic.decisions", "Person.decisionsMade"]) {
      expect(STATEMENTS[field], field).to.include(decisionsOrder);
    }
    const disagreementsOrder = `ORDER BY ${orderBy("g", { newestFirst: "raisedAt" })}`;
    for (const field of ["Query.disagreements", "Topic.disagreements"]) {
      expect(STATEMENTS[field], field).to.include(disagreementsOrder);
    }
    for (const [field, v] of Object.entries({ "Query.features": "f", "Customer.requestedFeatures": "f" })) {
      expect(STATEMENTS[field], field).to.include(`ORDER BY ${orderBy(v, "name")}`);
    }
  });

  it("notices a statement edited by hand in a file", () => {
    const source =
      'type Decision @node { topic: Topic @cypher(statement: "MATCH (t:Topic) RETURN t", columnName: "t") }';
    const [found] = cypherFields(source);
    expect(found?.field).to.equal("Decision.topic");
    expect(found?.statement).not.to.equal(STATEMENTS["Decision.topic"]);
    expect(cypherFields(withTemplateStatements(source))[0]?.statement).to.equal(STATEMENTS["Decision.topic"]);
    expect(() => withTemplateStatements(source.replace("Decision", "Nothing"))).to.throw(/no template/);
  });
});

describe("dateProblem (contract §3's Date)", () => {
  it("accepts YYYY-MM-DD naming a real day of the proleptic Gregorian calendar", () => {
    for (const value of [
      "2025-03-31",
      "2024-02-29",
      "2000-02-29",
      "0001-01-01",
      "9999-12-31",
      "2025-12-31",
    ]) {
      expect(dateProblem(value), value).to.equal(undefined);
    }
  });

  it("names the problem of anything else", () => {
    expect(dateProblem("2024-02-30")).to.equal(
      'Date "2024-02-30" names no calendar day: February 2024 has 29 days.',
    );
    expect(dateProblem("2100-02-29")).to.match(/February 2100 has 28 days/);
    expect(dateProblem("2025-06-31")).to.match(/June 2025 has 30 days/);
    expect(dateProblem("2025-13-01")).to.match(/there is no month 13/);
    for (const value of [
      " 2025-03-31",
      "2025-03-31\n",
      "2025-03-31\u0000",
      "2025-3-31",
      "+2025-03-31",
      "２０２５-03-31",
    ]) {
      expect(dateProblem(value), JSON.stringify(value)).to.match(/is not of the form YYYY-MM-DD/);
    }
    expect(dateProblem("x".repeat(5000))?.length).to.be.below(150);
  });
});
