import { expect } from "chai";
import { startService, type RunningService } from "./support/service.js";

describe("HTTP surface", () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  for (const path of ["/api/v1/graphql", "/v1/graphql"]) {
    for (const method of ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      it(`answers ${method} ${path} with 405 method_not_allowed and Allow: POST`, async () => {
        const { status, headers, body } = await service.request(path, { method });
        expect(status).to.equal(405);
        expect(headers.get("allow")).to.equal("POST");
        expect(headers.get("content-type")).to.equal("application/json; charset=utf-8");
        const requestId = headers.get("x-request-id");
        expect(body).to.deep.equal({
          errors: [
            {
              message: "The GraphQL endpoint accepts POST requests only.",
              extensions: { code: "method_not_allowed", requestId },
            },
          ],
        });
      });
    }
  }

  for (const path of ["/api/v1/graphql", "/v1/graphql"]) {
    for (const accept of ["text/html", "application/json"]) {
      it(`answers HEAD ${path} (Accept: ${accept}) with 405 and Allow: POST, without a body`, async () => {
        const response = await fetch(service.url + path, { method: "HEAD", headers: { accept } });
        expect(response.status).to.equal(405);
        expect(response.headers.get("allow")).to.equal("POST");
        expect(response.headers.get("x-request-id")).to.be.a("string");
        expect(await response.text()).to.equal("");
      });
    }
  }

  // Exact paths only: a trailing slash or other capitals is an unknown path, not the endpoint.
  for (const path of [
    "/",
    "/graphql",
    "/api/v2/graphql",
    "/api/v1/graphql/extra",
    "/api/v1/graphql/",
    "/API/V1/GraphQL",
    "/V1/graphql",
  ]) {
    it(`answers ${path} with 404 not_found`, async () => {
      const { status, headers, body } = await service.request(path, { method: "POST" });
      expect(status).to.equal(404);
      expect(body.errors[0].extensions).to.deep.equal({
        code: "not_found",
        requestId: headers.get("x-request-id"),
      });
    });
  }

  it("echoes a caller's X-Request-Id of 128 safe characters", async () => {
    const id = "a".repeat(120) + "._:-AZ09";
    const { headers } = await service.request("/api/v1/graphql", {
      method: "GET",
      headers: { "x-request-id": id },
    });
    expect(headers.get("x-request-id")).to.equal(id);
  });

  for (const [name, id] of [
    ["129 characters", "a".repeat(129)],
    ["a space", "abc def"],
    ["a slash", "abc/def"],
  ]) {
    it(`replaces a caller's X-Request-Id with ${name} by a generated one`, async () => {
      const { headers } = await service.request("/nowhere", { headers: { "x-request-id": id ?? "" } });
      expect(headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
    });
  }

  for (const accept of [
    "application/xml",
    "text/plain",
    "image/png, text/html;q=0.9",
    "application/json;q=0",
  ]) {
    it(`ignores Accept: ${accept} and answers JSON, never 406`, async () => {
      const { status, headers, body } = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body: JSON.stringify({ query: "{ topics(limit: 1) { id } }" }),
      });
      expect(status).to.equal(200);
      expect(headers.get("content-type")).to.equal("application/json; charset=utf-8");
      expect(body.data.topics).to.be.an("array");
      const refused = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body: JSON.stringify({ query: "{ nope }" }),
      });
      expect(refused.status).to.equal(422);
      expect(refused.body.errors[0].extensions).to.deep.equal({
        code: "validation_failed",
        requestId: refused.headers.get("x-request-id"),
      });
    });
  }

  it("puts X-Request-Id on a successful GraphQL response too", async () => {
    const { status, headers } = await service.graphql("{ __typename }");
    expect(status).to.equal(200);
    expect(headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
  });

  it("marks every answer of the GraphQL paths Cache-Control: no-store, GraphQL's and the stages' before it", async () => {
    const answered = await service.graphql("{ __typename }");
    const invalid = await service.graphql("{ nope }");
    const unauthenticated = await service.request(
      "/api/v1/graphql",
      { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{ __typename }"}' },
      { authenticated: false },
    );
    expect([answered.status, invalid.status, unauthenticated.status]).to.deep.equal([200, 422, 401]);
    for (const { headers } of [answered, invalid, unauthenticated])
      expect(headers.get("cache-control")).to.equal("no-store");
  });
});
