import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { relayStylePagination } from "@apollo/client/utilities";
import { generate } from "@graphql-codegen/cli";
import { Client, fetchExchange } from "@urql/core";
import { expect } from "chai";
import { ClientError, GraphQLClient } from "graphql-request";
import ts from "typescript";
import { ApiKeyStore } from "../src/auth/api-key-store.js";
import { sha256Hex } from "../src/documents/document-hash.js";
import { readManifest } from "../src/documents/manifest.js";
import { projectRoot } from "../src/project-root.js";
import { DECISIONS_IN_ORDER, loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

// The clients users already have, unmodified, against the running service with a key: each reads
// data, and reads a contract error (422 query_too_deep) through its own error type.

const DASHBOARD = `query Dashboard($topicId: ID!) {
  topic(id: $topicId) { name decisions(limit: 20) { id title decidedBy { name } } }
}`;
const TOO_DEEP = `{ topics { decisions { topic { decisions { topic { decisions { topic { decisions { id } } } } } } } } }`;
const TOO_DEEP_MESSAGE = "Query nests 9 levels; the maximum is 8.";
const PRICING_TITLES = [
  "Adopt usage-based pricing",
  "Hire a second SRE",
  "Trace every request",
  "Consider annual plans",
];

describe("real GraphQL clients against the running service", function () {
  this.timeout(60_000);
  let service: RunningService;
  let endpoint: string;

  before(async () => {
    await loadFixtures();
    service = await startService();
    endpoint = `${service.url}/api/v1/graphql`;
  });
  after(async () => {
    await service.close();
  });

  describe("Apollo Client (core, no React)", () => {
    const client = () =>
      new ApolloClient({
        link: new HttpLink({ uri: endpoint, headers: { authorization: `Bearer ${service.key}` } }),
        cache: new InMemoryCache(),
      });

    it("reads the dashboard, through its normalised cache", async () => {
      const { data } = await client().query({ query: gql(DASHBOARD), variables: { topicId: "t1" } });
      const topic = (data as { topic: { name: string; decisions: { title: string }[] } }).topic;
      expect(topic.name).to.equal("Pricing");
      expect(topic.decisions.map((decision) => decision.title)).to.deep.equal(PRICING_TITLES);
    });

    it("sends a hash first with the persisted-queries link, the text once when told PersistedQueryNotFound, then the hash alone", async () => {
      const bodies: Record<string, unknown>[] = [];
      const recordingFetch: typeof fetch = (input, init) => {
        bodies.push(JSON.parse(init?.body as string) as Record<string, unknown>);
        return fetch(input, init);
      };
      const persisted = () =>
        new ApolloClient({
          link: new PersistedQueryLink({ sha256: sha256Hex }).concat(
            new HttpLink({
              uri: endpoint,
              headers: { authorization: `Bearer ${service.key}` },
              fetch: recordingFetch,
            }),
          ),
          cache: new InMemoryCache(),
        });
      // A name of this run's own: the suite's Redis remembers documents between runs.
      const query = gql(DASHBOARD.replace("Dashboard", `Dashboard${String(Date.now())}`));
      for (const client of [persisted(), persisted()]) {
        const { data } = await client.query({
          query,
          variables: { topicId: "t1" },
          fetchPolicy: "network-only",
        });
        expect(
          (data as { topic: { decisions: { title: string }[] } }).topic.decisions.map((d) => d.title),
        ).to.deep.equal(PRICING_TITLES);
      }
      expect(bodies.map((body) => ("query" in body ? "text and hash" : "hash"))).to.deep.equal([
        "hash",
        "text and hash",
        "hash",
      ]);
      for (const body of bodies) expect(body).to.have.nested.property("extensions.persistedQuery.version", 1);
    });

    it("pages a connection with its relayStylePagination() field policy, the cache holding every page in order", async () => {
      const paged = new ApolloClient({
        link: new HttpLink({ uri: endpoint, headers: { authorization: `Bearer ${service.key}` } }),
        cache: new InMemoryCache({
          typePolicies: {
            Query: { fields: { decisionsConnection: relayStylePagination(["topicId", "since"]) } },
          },
        }),
      });
      const PAGE = gql(`query Page($after: String) {
        decisionsConnection(first: 4, after: $after) {
          totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id title } }
        }
      }`);
      interface Page {
        decisionsConnection: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          edges: { cursor: string; node: { id: string } }[];
        };
      }
      let after: string | null = null;
      let requests = 0;
      for (;;) {
        const variables: { after: string | null } = { after };
        const result: { data?: unknown } = await paged.query({
          query: PAGE,
          variables,
          fetchPolicy: "network-only",
        });
        requests += 1;
        const connection: Page["decisionsConnection"] = (result.data as Page).decisionsConnection;
        expect(connection.totalCount).to.equal(DECISIONS_IN_ORDER.length);
        if (!connection.pageInfo.hasNextPage) {
          // The field policy's read gives the pages merged: every decision once, in order.
          expect(connection.edges.map((edge) => edge.node.id)).to.deep.equal(DECISIONS_IN_ORDER);
          break;
        }
        after = connection.pageInfo.endCursor;
      }
      expect(requests).to.equal(Math.ceil(DECISIONS_IN_ORDER.length / 4));
    });

    // Issue 24: `orderBy` is a key argument, so each order's pages merge into their own list.
    it("pages two orders of one connection in one cache with keyArgs that include orderBy", async () => {
      const paged = new ApolloClient({
        link: new HttpLink({ uri: endpoint, headers: { authorization: `Bearer ${service.key}` } }),
        cache: new InMemoryCache({
          typePolicies: {
            Query: { fields: { decisionsConnection: relayStylePagination(["topicId", "since", "orderBy"]) } },
          },
        }),
      });
      const PAGE = gql(`query Ordered($after: String, $orderBy: DecisionOrder) {
        decisionsConnection(first: 3, after: $after, orderBy: $orderBy) {
          pageInfo { hasNextPage endCursor } edges { cursor node { id } }
        }
      }`);
      interface Page {
        decisionsConnection: {
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          edges: { cursor: string; node: { id: string } }[];
        };
      }
      const pageThrough = async (orderBy: { field: string; direction: string }) => {
        let after: string | null = null;
        for (;;) {
          const variables: { after: string | null; orderBy: typeof orderBy } = { after, orderBy };
          const result: { data?: unknown } = await paged.query({
            query: PAGE,
            variables,
            fetchPolicy: "network-only",
          });
          const connection: Page["decisionsConnection"] = (result.data as Page).decisionsConnection;
          if (!connection.pageInfo.hasNextPage) return connection.edges.map((edge) => edge.node.id);
          after = connection.pageInfo.endCursor;
        }
      };
      const listed = async (order: string) => {
        const { body } = await service.graphql(`{ decisions(orderBy: ${order}, limit: 100) { id } }`);
        return (body.data.decisions as { id: string }[]).map((row) => row.id);
      };
      expect(await pageThrough({ field: "TITLE", direction: "ASC" })).to.deep.equal(
        await listed("{field: TITLE, direction: ASC}"),
      );
      expect(await pageThrough({ field: "REGRET_SCORE", direction: "DESC" })).to.deep.equal(
        await listed("{field: REGRET_SCORE, direction: DESC}"),
      );
      // The first order's merged pages are still whole in the cache.
      const cached = paged.readQuery<Page>({
        query: PAGE,
        variables: { after: null, orderBy: { field: "TITLE", direction: "ASC" } },
      });
      expect(cached?.decisionsConnection.edges.map((edge) => edge.node.id)).to.deep.equal(
        await listed("{field: TITLE, direction: ASC}"),
      );
    });

    it("reads 422 query_too_deep as CombinedGraphQLErrors with the contract code", async () => {
      const error: unknown = await client()
        .query({ query: gql(TOO_DEEP) })
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(CombinedGraphQLErrors.is(error), String(error)).to.equal(true);
      const [first] = (error as CombinedGraphQLErrors).errors;
      expect(first?.message).to.equal(TOO_DEEP_MESSAGE);
      expect(first?.extensions?.code).to.equal("query_too_deep");
      expect(first?.extensions?.requestId).to.be.a("string");
    });
  });

  describe("urql (core)", () => {
    const client = () =>
      new Client({
        url: endpoint,
        exchanges: [fetchExchange],
        fetchOptions: () => ({ headers: { authorization: `Bearer ${service.key}` } }),
        requestPolicy: "network-only",
        // urql sends queries as GET when they fit in a URL; the endpoint is POST only (contract §2).
        preferGetMethod: false,
      });

    it("reads the dashboard", async () => {
      const result = await client().query(DASHBOARD, { topicId: "t1" }).toPromise();
      expect(result.error).to.equal(undefined);
      const topic = (result.data as { topic: { decisions: { title: string }[] } }).topic;
      expect(topic.decisions.map((decision) => decision.title)).to.deep.equal(PRICING_TITLES);
    });

    it("reads 422 query_too_deep as a CombinedError with the GraphQL error and its code", async () => {
      const result = await client().query(TOO_DEEP, {}).toPromise();
      expect(result.data).to.equal(undefined);
      expect(result.error?.name).to.equal("CombinedError");
      expect(result.error?.response).to.have.property("status", 422);
      const [first] = result.error?.graphQLErrors ?? [];
      expect(first?.message).to.equal(TOO_DEEP_MESSAGE);
      expect(first?.extensions.code).to.equal("query_too_deep");
      expect(first?.extensions.requestId).to.be.a("string");
    });

    it("with its default GET for short queries, reads the contract's 405 that says to POST", async () => {
      const defaults = new Client({
        url: endpoint,
        exchanges: [fetchExchange],
        fetchOptions: () => ({ headers: { authorization: `Bearer ${service.key}` } }),
      });
      const result = await defaults.query(DASHBOARD, { topicId: "t1" }).toPromise();
      expect(result.error?.response).to.have.property("status", 405);
      expect(result.error?.graphQLErrors[0]?.extensions.code).to.equal("method_not_allowed");
      expect(result.error?.graphQLErrors[0]?.message).to.equal(
        "The GraphQL endpoint accepts POST requests only.",
      );
    });
  });

  describe("graphql-request", () => {
    const client = () => new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${service.key}` } });

    it("reads the dashboard", async () => {
      const data = await client().request<{ topic: { decisions: { title: string }[] } }>(DASHBOARD, {
        topicId: "t1",
      });
      expect(data.topic.decisions.map((decision) => decision.title)).to.deep.equal(PRICING_TITLES);
    });

    it("reads 422 query_too_deep as a ClientError with the response's status and errors", async () => {
      const error: unknown = await client()
        .request(TOO_DEEP)
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(error).to.be.instanceOf(ClientError);
      const { response } = error as ClientError;
      expect(response.status).to.equal(422);
      expect(response.errors?.[0]?.message).to.equal(TOO_DEEP_MESSAGE);
      expect(response.errors?.[0]?.extensions.code).to.equal("query_too_deep");
    });
  });

  describe("GraphQL Code Generator (client preset, schema by introspection)", () => {
    // Generated code lands under node_modules so its imports resolve; nothing is committed.
    const out = join(projectRoot, "node_modules/.cache/kg-graphql-codegen");

    it("types the operations from the served schema; the typed documents read data and the error", async () => {
      rmSync(out, { recursive: true, force: true });
      const files = await generate(
        {
          cwd: projectRoot,
          schema: { [endpoint]: { headers: { Authorization: `Bearer ${service.key}` } } },
          documents: ["test/clients/dashboard.graphql"],
          generates: {
            [`${out}/`]: {
              preset: "client",
              config: { useTypeImports: true },
              // Also writes persisted-documents.json, the trusted-documents manifest (contract §10).
              presetConfig: { persistedDocuments: { hashAlgorithm: "sha256" } },
            },
            // The schema's own types, which carry its descriptions as doc comments.
            [`${out}/schema.ts`]: { plugins: ["typescript"] },
          },
          silent: true,
        },
        true,
      );
      expect(files.map((file: { filename: string }) => file.filename.replace(`${out}/`, ""))).to.include(
        "graphql.ts",
      );

      // The schema's descriptions reach the generated code as doc comments.
      const schemaTypes = readFileSync(join(out, "schema.ts"), "utf8");
      expect(schemaTypes).to.include(
        "/** How much the decision is regretted, from 0.0 (not at all) to 1.0; null until assessed. */",
      );
      expect(schemaTypes).to.include(
        "/** A page of decisions, with the total count of the list it pages through. */",
      );

      // The generated types hold the selection, and nothing else: a typed program compiles, and
      // reading a field outside the selection does not.
      writeFileSync(
        join(out, "usage.ts"),
        `import type { DashboardQuery, DashboardQueryVariables } from "./graphql.js";
export const variables: DashboardQueryVariables = { topicId: "t1" };
export const titles = (data: DashboardQuery): string[] => data.topic?.decisions.map((d) => d.title) ?? [];
export const email = (data: DashboardQuery): string | null | undefined => data.topic?.decisions[0]?.decidedBy?.email;
// @ts-expect-error -- canonicalAnswer is in the schema but not in the selection
export const outside = (data: DashboardQuery) => data.topic?.canonicalAnswer;
`,
      );
      const program = ts.createProgram([join(out, "usage.ts")], {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        skipLibCheck: true,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      expect(diagnostics).to.deep.equal([]);

      const generated = (await import(join(out, "graphql.ts"))) as Record<string, unknown>;
      const client = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${service.key}` } });
      const data = await client.request(generated.DashboardDocument as string, { topicId: "t1" });
      expect(
        (data as { topic: { decisions: { title: string }[] } }).topic.decisions.map((d) => d.title),
      ).to.deep.equal(PRICING_TITLES);
      const error: unknown = await client.request(generated.TooDeepDocument as string).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect((error as ClientError).response.errors?.[0]?.extensions.code).to.equal("query_too_deep");
    });

    it("writes a persisted-documents manifest that, registered for a key, is all that key may run", async () => {
      // Written by the generation above (mocha runs a describe's tests in order).
      const manifest = readManifest(readFileSync(join(out, "persisted-documents.json"), "utf8"));
      const dashboard = Object.entries(manifest).find(([, text]) => text.startsWith("query Dashboard"));
      expect(dashboard, "the Dashboard document in the manifest").not.to.equal(undefined);
      const [hash] = dashboard ?? [""];
      const keys = new ApiKeyStore(testDriver(), testDatabase);
      const { key, record } = await keys.create("codegen manifest", ["read"]);
      await keys.trust(record.id, manifest);

      const send = (body: object) =>
        fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any })); // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the wire
      const byId = await send({ documentId: `sha256:${hash}`, variables: { topicId: "t1" } });
      expect(byId.status).to.equal(200);
      expect(byId.body.data.topic.decisions.map((d: { title: string }) => d.title)).to.deep.equal(
        PRICING_TITLES,
      );
      // The generated typed document carries its hash too; the text runs for this key as well.
      const generated = (await import(join(out, "graphql.ts"))) as Record<
        string,
        { __meta__?: { hash?: string } }
      >;
      expect(generated.DashboardDocument?.__meta__?.hash).to.equal(`sha256:${hash}`);
      expect((await send({ query: manifest[hash], variables: { topicId: "t1" } })).status).to.equal(200);
      // A registered document still meets every limit; one not registered is refused.
      const tooDeep = Object.keys(manifest).find((name) => manifest[name]?.startsWith("query TooDeep")) ?? "";
      expect((await send({ documentId: `sha256:${tooDeep}` })).body.errors[0].extensions.code).to.equal(
        "query_too_deep",
      );
      const other = await send({ query: "{ topics(limit: 1) { name } }" });
      expect(other.status).to.equal(403);
      expect(other.body.errors[0].extensions.code).to.equal("document_not_allowed");
    });
  });
});
