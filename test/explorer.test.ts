import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/chromium.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
/** Takes a screenshot to `path` (a temporary file when unset) and checks it is a PNG. */
async function screenshot(page: Page, path: string | undefined, name: string): Promise<void> {
  const png = await page.screenshot({ path: path ?? join(mkdtempSync(join(tmpdir(), "explorer-")), name) });
  expect(png.subarray(1, 4).toString()).to.equal("PNG");
}

/** What the test reads of an element in the page (the suite's TypeScript has no DOM types). */
interface Attributed {
  getAttribute(name: string): string | null;
}

/** A topic's web (contract §7 part 4), as a dashboard draws it. */
const NEIGHBORHOOD = `{
  topic(id: "t1") {
    neighborhood(depth: 2, limit: 20) {
      nodes { distance node { __typename id } }
      links { type fromType fromId toType toId }
      truncated
    }
  }
}`;

const DASHBOARD = `query Dashboard($topicId: ID!) {
  topic(id: $topicId) {
    name
    decisions(limit: 20) {
      id
      title
      decidedAt
      decidedBy { name email }
      topic { name }
    }
  }
}`;

describe("explorer: GraphiQL on a browser GET", () => {
  let service: RunningService;

  before(async () => {
    await loadFixtures();
    service = await startService();
  });
  after(async () => {
    await service.close();
  });

  /** The page, without a key: it is static, and every query it sends carries the key. */
  const getPage = (path: string, accept = BROWSER_ACCEPT) =>
    fetch(service.url + path, { headers: { accept } });

  for (const path of ["/api/v1/graphql", "/v1/graphql"]) {
    it(`serves the page on ${path} to a browser, with no key and a strict content policy`, async () => {
      const response = await getPage(path);
      expect(response.status).to.equal(200);
      expect(response.headers.get("content-type")).to.equal("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).to.include("script-src 'self'");
      expect(response.headers.get("vary")).to.include("Accept");
      const html = await response.text();
      expect(html).to.include("<title>kg-graphql explorer</title>");
      // Every script and stylesheet comes from the service itself, never a CDN.
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
      expect(assets).to.have.length(7);
      for (const asset of assets) {
        expect(asset).to.match(/^\/explorer\/assets\//);
        const file = await fetch(service.url + asset);
        expect(file.status, asset).to.equal(200);
        expect(file.headers.get("content-type"), asset).to.match(
          /^(text\/css|application\/javascript|text\/javascript)/,
        );
        expect((await file.arrayBuffer()).byteLength, asset).to.be.above(100);
      }
    });
  }

  it("keeps the contract's 405 for every other GET: JSON, anything, no Accept at all", async () => {
    for (const accept of ["application/json", "*/*", "application/graphql-response+json", ""]) {
      const response = await service.request("/api/v1/graphql", { headers: accept === "" ? {} : { accept } });
      expect(response.status, accept).to.equal(405);
      expect(response.headers.get("allow")).to.equal("POST");
      expect(response.headers.get("vary")).to.include("Accept");
      expect(response.body.errors[0].extensions.code).to.equal("method_not_allowed");
    }
    const post = await service.request("/api/v1/graphql", {
      method: "PUT",
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(post.status).to.equal(405);
  });

  it("serves only its own assets: anything else under /explorer is the contract's 404", async () => {
    for (const path of [
      "/explorer/assets/package.json",
      "/explorer/assets/..%2F..%2Fpackage.json",
      "/explorer",
      // Not a name Express can decode: a 404 too, never a 500.
      "/explorer/assets/%",
      "/explorer/assets/%E0%A4%A",
      "/explorer/assets/GRAPHIQL.MIN.JS",
      "/explorer/assets/graphiql.min.js/",
    ]) {
      const response = await service.request(path, {}, { authenticated: false });
      expect(response.status, path).to.equal(404);
      expect(response.body.errors[0].extensions.code).to.equal("not_found");
    }
    // OPTIONS on an asset's path, known or not: the same 404 (not Express's own `200 GET, HEAD`).
    for (const path of ["/explorer/assets/nope.js", "/explorer/assets/package.json"]) {
      const response = await service.request(path, { method: "OPTIONS" }, { authenticated: false });
      expect(response.status, path).to.equal(404);
      expect(response.body.errors[0].extensions.code).to.equal("not_found");
    }
  });

  describe("in headless Chromium", function () {
    this.timeout(60_000);
    let browser: Browser;

    before(async () => {
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
    });

    it("takes a key, runs the dashboard query, shows the data and the schema docs, and completes a where as it is typed", async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
      const page = await context.newPage();
      const origins = new Set<string>();
      const authorizations: (string | undefined)[] = [];
      page.on("request", (request) => {
        origins.add(new URL(request.url()).origin);
        if (request.method() === "POST") authorizations.push(request.headers().authorization);
      });

      const address = new URL("/api/v1/graphql", service.url);
      address.searchParams.set("query", DASHBOARD);
      address.searchParams.set("variables", JSON.stringify({ topicId: "t1" }, null, 2));
      await page.goto(address.href);
      await page.getByLabel("API key").fill(service.key);
      await page.getByRole("button", { name: "Use key" }).click();
      await page.getByText("Key in use for this tab.").waitFor();

      // The docs come from introspection with the key.
      await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
      await page.locator(".graphiql-doc-explorer").getByText("Query", { exact: true }).waitFor();

      await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).click();
      const result = page.locator(".result-window");
      await result.getByText('"Adopt usage-based pricing"').waitFor();
      const shown = (await result.innerText()).replace(/\s+/g, " ");
      expect(shown).to.include('"name": "Pricing"');
      expect(shown).to.include('"email": "ada@example.com"');

      expect(authorizations.length).to.be.at.least(2); // introspection, then the query
      expect(authorizations.at(-1)).to.equal(`Bearer ${service.key}`);
      expect([...origins]).to.deep.equal([service.url]);

      await screenshot(page, process.env.EXPLORER_SCREENSHOT, "explorer.png");

      // A `where` is completed as it is typed, from the schema (issue 34).
      const editor = page.locator(".graphiql-query-editor .CodeMirror").first();
      await editor.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Delete");
      await page.keyboard.type("{ decisions(where: {decidedBy: {te", { delay: 20 });
      const hints = page.locator(".CodeMirror-hints");
      await hints.waitFor();
      expect(await hints.innerText()).to.include("team");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Delete");
      await page.keyboard.type("{ topics(where: {decisions: {so", { delay: 20 });
      await hints.waitFor();
      expect(await hints.innerText()).to.include("some");
      await page.keyboard.press("Escape");
      await context.close();
    });

    it("draws a neighborhood beside the JSON: the start in the middle, nodes by type on rings by distance, links as arrows in their direction", async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
      const page = await context.newPage();
      const address = new URL("/api/v1/graphql", service.url);
      address.searchParams.set("query", NEIGHBORHOOD);
      await page.goto(address.href);
      await page.getByLabel("API key").fill(service.key);
      await page.getByRole("button", { name: "Use key" }).click();
      await page.getByText("Key in use for this tab.").waitFor();
      const panel = page.locator("#kg-graph");
      expect(await panel.isHidden()).to.equal(true);

      await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).click();
      await panel.locator("svg").waitFor();
      const { body } = await service.graphql(NEIGHBORHOOD);
      const answer = body.data.topic.neighborhood as {
        nodes: { distance: number; node: { __typename: string; id: string } }[];
        links: { fromId: string; toId: string }[];
      };
      // Every node and the start, each of its type; every link from its stored start to its end.
      const nodes = await panel
        .locator(".kg-node")
        .evaluateAll((groups: Attributed[]) =>
          groups.map((group) => [group.getAttribute("data-id"), group.getAttribute("data-type")]),
        );
      expect(nodes).to.have.deep.members([
        ["t1", "TOPIC"],
        ...answer.nodes.map(({ node }) => [node.id, node.__typename.toUpperCase()]),
      ]);
      const links = await panel
        .locator("line.kg-link")
        .evaluateAll((lines: Attributed[]) =>
          lines.map((line) => [
            line.getAttribute("data-from"),
            line.getAttribute("data-to"),
            line.getAttribute("marker-end"),
          ]),
        );
      expect(links).to.deep.equal(answer.links.map((link) => [link.fromId, link.toId, "url(#kg-arrow)"]));
      expect(await panel.locator("h2").innerText()).to.equal(
        `Neighborhood: ${String(answer.nodes.length)} nodes`,
      );
      // The JSON is still there beside it.
      await page.locator(".result-window").getByText('"neighborhood"').waitFor();
      await screenshot(page, process.env.EXPLORER_GRAPH_SCREENSHOT, "explorer-graph.png");

      // An answer without a neighborhood hides the drawing.
      const editor = page.locator(".graphiql-query-editor .CodeMirror").first();
      await editor.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Delete");
      await page.keyboard.type("{ topics(limit: 1) { name } }");
      await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).click();
      await page.locator(".result-window").getByText('"topics"').waitFor();
      await panel.waitFor({ state: "hidden" });
      await context.close();
    });
  });
});
