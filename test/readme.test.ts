import { readdirSync, readFileSync } from "node:fs";
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

describe("README: the project layout", () => {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const layout = /## Project layout\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const named = new Set(layout.split("\n").map((line) => line.split(/\s{2,}/)[0]));

  it("comes near the top, before the quick start", () => {
    expect(readme.indexOf("## Project layout")).to.be.greaterThan(0);
    expect(readme.indexOf("## Project layout")).to.be.lessThan(readme.indexOf("## Quick start"));
  });

  it("names every folder and file directly under src/, and every top-level folder", () => {
    const missing = [
      ...readdirSync(join(projectRoot, "src"), { withFileTypes: true }).map((entry) =>
        entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`,
      ),
      ...["bench/", "cypher/", "docs/api.md", "docs/performance.md", "scripts/", "test/", "typeDefs/"],
    ].filter((path) => !named.has(path));
    expect(missing).to.deep.equal([]);
  });

  it("sends readers to docs/, never outside the repository", () => {
    expect(readme).to.include("[`docs/api.md`](docs/api.md)");
    expect(readme).to.include("(docs/performance.md)");
    expect(readme).not.to.match(/\.\.\/shared|\]\(\.\.\//);
  });
});
