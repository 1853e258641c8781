import { expect } from "chai";
import { buildTestSchema, startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";
import { TROUBLE_TYPEDEFS } from "./support/trouble-typedefs.js";

describe("traceability in Neo4j: transaction metadata", () => {
  let service: RunningService;

  before(async () => {
    service = await startService(testDriver(), {
      schema: await buildTestSchema(testDriver(), [TROUBLE_TYPEDEFS]),
    });
  });
  after(async () => {
    await service.close();
  });

  it("shows the request id, key id and app in SHOW TRANSACTIONS while the query runs, and no key material", async () => {
    const requestId = `trace-${String(Date.now())}`;
    const pending = service.request("/api/v1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": requestId },
      body: JSON.stringify({ query: "{ slow(ms: 2000) }" }),
    });
    let metaData: unknown;
    for (let attempt = 0; attempt < 150 && metaData === undefined; attempt++) {
      const { records } = await testDriver().executeQuery(
        "SHOW TRANSACTIONS YIELD metaData WHERE metaData.requestId = $requestId RETURN metaData",
        { requestId },
        { database: testDatabase },
      );
      metaData = records[0]?.get("metaData");
      if (metaData === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // `type` is the Neo4j GraphQL Library's own entry ("user-transpiled").
    expect(metaData).to.deep.include({ app: "kg-graphql", requestId, keyId: service.keyId });
    expect(Object.keys(metaData as object).sort()).to.deep.equal(["app", "keyId", "requestId", "type"]);
    const response = await pending;
    expect(response.status).to.equal(200);
    expect(response.headers.get("x-request-id")).to.equal(requestId);
  });
});
