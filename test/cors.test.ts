import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/chromium.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService, type WireResponse } from "./support/service.js";

const QUERY = JSON.stringify({ query: "{ topics(limit: 1) { name } }" });
const EXPOSED = "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After";

/** A page server reached as 127.0.0.1 or as `localhost`: each is an origin of its own to a browser. */
async function pageServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>dashboard</title>");
  });
  // Every interface: `localhost` may resolve to ::1.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe("browsers on other origins (contract §11, CORS)", function () {
  this.timeout(60_000);
  let service: RunningService;
  let pages: { server: Server; port: number };
  let allowed: string;
  before(async () => {
    await loadFixtures();
    pages = await pageServer();
    allowed = `http://127.0.0.1:${String(pages.port)}`;
    service = await startService(undefined, { corsOrigins: ["https://dash.example.com", allowed] });
  });
  after(async () => {
    await service.close();
    pages.server.close();
  });

  const preflight = (origin: string, method = "POST") =>
    service.request(
      "/api/v1/graphql",
      {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": method,
          "access-control-request-headers": "authorization, content-type",
        },
      },
      { authenticated: false },
    );
  const corsHeaders = (response: WireResponse) =>
    [...response.headers.keys()].filter((name) => name.startsWith("access-control-")).sort();

  it("answers an allowed origin's preflight 204 with the contract's headers, on both paths", async () => {
    for (const path of ["/api/v1/graphql", "/v1/graphql"]) {
      const response = await service.request(
        path,
        {
          method: "OPTIONS",
          headers: { origin: "https://dash.example.com", "access-control-request-method": "POST" },
        },
        { authenticated: false },
      );
      expect(response.status).to.equal(204);
      expect(response.body).to.equal(undefined);
      expect(response.headers.get("access-control-allow-origin")).to.equal("https://dash.example.com");
      expect(response.headers.get("access-control-allow-methods")).to.equal("POST");
      expect(response.headers.get("access-control-allow-headers")).to.equal(
        "authorization, content-type, x-request-id",
      );
      expect(response.headers.get("access-control-max-age")).to.equal("600");
      expect(response.headers.get("vary")).to.equal("Origin");
      expect(response.headers.get("access-control-allow-credentials")).to.equal(null);
      expect(response.headers.get("x-request-id")).to.be.a("string");
    }
  });

  it("answers any other OPTIONS 405 without CORS headers: another origin, another method, no origin", async () => {
    for (const response of [
      await preflight("https://evil.example.com"),
      await preflight("https://dash.example.com.evil.example.com"),
      await preflight("https://dash.example.com", "GET"),
      await service.request(
        "/api/v1/graphql",
        { method: "OPTIONS", headers: { origin: "https://dash.example.com" } },
        { authenticated: false },
      ),
      await service.request("/api/v1/graphql", { method: "OPTIONS" }, { authenticated: false }),
    ]) {
      expect(response.status).to.equal(405);
      expect(response.headers.get("allow")).to.equal("POST");
      expect(response.body.errors[0].extensions.code).to.equal("method_not_allowed");
      expect(corsHeaders(response)).to.deep.equal([]);
    }
  });

  it("marks an allowed origin's answers, refusals included, and no other origin's", async () => {
    const post = (origin: string | undefined, authorization = `Bearer ${service.key}`) =>
      service.request(
        "/api/v1/graphql",
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization, ...(origin && { origin }) },
          body: QUERY,
        },
        { authenticated: false },
      );
    const answered = await post("https://dash.example.com");
    expect(answered.status).to.equal(200);
    expect(answered.headers.get("access-control-allow-origin")).to.equal("https://dash.example.com");
    expect(answered.headers.get("access-control-expose-headers")).to.equal(EXPOSED);
    expect(answered.headers.get("vary")).to.include("Origin");
    const refused = await post("https://dash.example.com", "Bearer kgq_unknown");
    expect(refused.status).to.equal(401);
    expect(refused.headers.get("access-control-allow-origin")).to.equal("https://dash.example.com");
    for (const response of [await post("https://evil.example.com"), await post(undefined)]) {
      expect(response.status).to.equal(200);
      expect(corsHeaders(response)).to.deep.equal([]);
    }
  });

  describe("in Chromium", () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
    });

    /** Loads a page from `origin` and calls the endpoint from it with `fetch`, as a dashboard would. */
    async function callFrom(origin: string) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${origin}/dashboard.html`);
        return await page.evaluate(
          async ({ endpoint, key, body }) => {
            try {
              const response = await fetch(endpoint, {
                method: "POST",
                headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                body,
              });
              return {
                status: response.status,
                data: ((await response.json()) as { data: unknown }).data,
                requestId: response.headers.get("x-request-id"),
                rateLimit: response.headers.get("ratelimit"),
                rateLimitPolicy: response.headers.get("ratelimit-policy"),
              };
            } catch (error) {
              return { blocked: String(error) };
            }
          },
          { endpoint: `${service.url}/api/v1/graphql`, key: service.key, body: QUERY },
        );
      } finally {
        await context.close();
      }
    }

    it("lets a page from an allowed origin read the data and the RateLimit and X-Request-Id headers", async () => {
      const result = await callFrom(allowed);
      expect(result).to.include({ status: 200 });
      expect(result).to.have.deep.property("data", { topics: [{ name: "Hiring" }] });
      expect(result)
        .to.have.property("requestId")
        .that.matches(/^[0-9a-f-]{36}$/);
      expect(result)
        .to.have.property("rateLimit")
        .that.matches(/^"minute";r=\d+;t=\d+/);
      expect(result).to.have.property("rateLimitPolicy").that.is.a("string");
    });

    it("blocks a page from another origin (localhost is not 127.0.0.1 to a browser)", async () => {
      const result = await callFrom(`http://localhost:${String(pages.port)}`);
      expect(result)
        .to.have.property("blocked")
        .that.matches(/TypeError: Failed to fetch/);
    });
  });
});
