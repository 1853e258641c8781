import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { projectRoot } from "../src/project-root.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";

/** The README's example queries: every ```graphql block of its "Example queries" section. */
function readmeQueries(): string[] {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const section = /## Example queries\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
  return [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

describe("README: the example queries run", () => {
  let service: RunningService;

  before(async () => {
    await loadFixtures();
    service = await startService();
  });
  after(async () => {
    await service.close();
  });

  it("finds the examples", () => {
    expect(readmeQueries()).to.have.length.of.at.least(5);
  });

  for (const [index, query] of readmeQueries().entries()) {
    it(`example ${index + 1}: ${query.split("\n")[0] ?? ""}`, async () => {
      const response = await service.graphql(query);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.errors).to.equal(undefined);
      expect(response.body.data).to.be.an("object");
    });
  }
});
