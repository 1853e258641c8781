import { applySchemaFiles } from "../../src/neo4j/apply-cypher.js";
import { closeSharedCounters } from "./service.js";
import { startTestNeo4j, stopTestNeo4j, testDatabase, testDriver } from "./test-neo4j.js";

/** One real Neo4j for the whole suite; each test file loads the data it needs. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(300_000);
    await startTestNeo4j();
    await applySchemaFiles(testDriver(), testDatabase);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    await closeSharedCounters();
    await stopTestNeo4j();
  },
};
