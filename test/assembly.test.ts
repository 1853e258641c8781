// One assembly (issue 33): the tests' app is the service's, built by src/assembly.ts with the same
// stages, and with the service's settings but for the few the suite sets on purpose (SUITE_ENV).
import { expect } from "chai";
import type { Express } from "express";
import { assembleService } from "../src/assembly.js";
import { loadConfig } from "../src/config.js";
import { buildTestSchema, memoryParts, startService, type RunningService } from "./support/service.js";
import { testDriver } from "./support/test-neo4j.js";

/** Every setting as a path (`admission.perKey`) and its value. */
function leaves(value: unknown, path = ""): Map<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return new Map([[path, JSON.stringify(value)]]);
  return new Map(
    Object.entries(value).flatMap(([key, inner]) => [...leaves(inner, path === "" ? key : `${path}.${key}`)]),
  );
}

/** The app's middleware and routes in order: each layer's handler name, and a route's paths and handlers. */
function stages(app: Express): unknown[] {
  const { router } = app as unknown as {
    router: { stack: { name: string; route?: { path: unknown; stack: { name: string }[] } }[] };
  };
  return router.stack.map((layer) =>
    layer.route === undefined
      ? layer.name
      : { paths: layer.route.path, handlers: layer.route.stack.map((handler) => handler.name) },
  );
}

describe("one assembly: the tests' app is the service's (issue 33)", () => {
  let service: RunningService;

  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service.close();
  });

  it("runs with the service's settings but for the suite's caps, pre-planning rounds and row estimates", () => {
    const production = leaves(loadConfig({}));
    const differing = [...leaves(service.config)]
      .filter(([path, value]) => production.get(path) !== value)
      .map(([path]) => path);
    // Each is in SUITE_ENV with its reason.
    expect(differing).to.include.members([
      "admission.perKey",
      "admission.executions",
      "admission.queueLength",
    ]);
    expect(
      differing.filter(
        (path) =>
          ![
            "admission.perKey",
            "admission.executions",
            "admission.queueLength",
            "preplan.maxDocuments",
            "rowEstimates.intervalMs",
          ].includes(path),
      ),
    ).to.deep.equal([]);
  });

  it("has every stage, in the order the service has them", async () => {
    // The service's own defaults (no CORS origins, metrics on the public port), over the same connections.
    const assembled = await assembleService(loadConfig({}), {
      driver: testDriver(),
      schema: await buildTestSchema(),
      ...memoryParts(),
    });
    try {
      const expected = stages(assembled.app);
      expect(expected).to.have.length.of.at.least(8);
      expect(stages(service.app)).to.deep.equal(expected);
    } finally {
      await assembled.stop();
    }
  });
});
