import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Driver } from "neo4j-driver";
import { createApp } from "../../src/app.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { testDatabase, testDriver } from "./test-neo4j.js";

export interface RunningService {
  url: string;
  /** POSTs a GraphQL request to the endpoint; resolves with status, headers and parsed body. */
  graphql(query: string, variables?: Record<string, unknown>, path?: string): Promise<WireResponse>;
  request(path: string, init?: RequestInit): Promise<WireResponse>;
  close(): Promise<void>;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
}

/** Starts the real app on an ephemeral port against the suite's Neo4j. */
export async function startService(driver: Driver = testDriver()): Promise<RunningService> {
  const schema = await buildSchema(driver, testDatabase);
  const { app, stop } = await createApp({
    schema,
    execution: { database: testDatabase, queryTimeoutMs: 10_000 },
    logError: () => undefined,
  });
  const server: Server = await new Promise((resolve) => {
    const listener = app.listen(0, "127.0.0.1", () => {
      resolve(listener);
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (path: string, init?: RequestInit): Promise<WireResponse> => {
    const response = await fetch(url + path, init);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
  };
  return {
    url,
    request,
    graphql: (query, variables, path = "/api/v1/graphql") =>
      request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
      }),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stop();
    },
  };
}
