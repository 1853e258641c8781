import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import { startService, type RunningService } from "./support/service.js";

interface StreamedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { errors: { extensions: { code: string } }[] };
  /** Bytes written before the answer arrived; the request was never ended. */
  written: number;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
}

/**
 * Streams `body` chunked (no Content-Length) and, unless `end`, never finishes it: the answer
 * can only come from a server that stops reading.
 */
function streamBody(
  service: RunningService,
  body: Buffer,
  { end, chunkSize = 8_192 }: { end: boolean; chunkSize?: number },
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let written = 0;
    const request = httpRequest(`${service.url}/api/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${service.key}` },
    });
    const closed = new Promise<void>((resolveClosed) => {
      request.once("socket", (socket) => {
        socket.once("close", () => {
          resolveClosed();
        });
      });
    });
    request.once("error", () => undefined); // writes after the server hung up
    request.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as StreamedAnswer["body"],
          written,
          closed,
        });
      });
      response.once("error", reject);
    });
    request.flushHeaders();
    for (let offset = 0; offset < body.length; offset += chunkSize) {
      const chunk = body.subarray(offset, offset + chunkSize);
      written += chunk.length;
      request.write(chunk);
    }
    if (end) request.end();
  });
}

/**
 * A client that writes its whole request (headers, then every byte of the body) before it reads
 * anything, as Python's http.client and many plain HTTP libraries do. Resolves with the raw
 * answer, or with the error its writing or reading met (a reset connection).
 */
function writeThenRead(service: RunningService, body: Buffer, headers: string): Promise<string> {
  const { port } = new URL(service.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      resolve(`error ${error.code ?? error.message}`);
    });
    socket.once("end", () => {
      resolve(Buffer.concat(received).toString("utf8"));
    });
    socket.pause(); // read nothing until everything is written
    socket.write(
      `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\n${headers}Content-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body, () => {
      socket.resume();
      socket.end();
    });
  });
}

describe("request body checks on the wire", () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  const post = (
    body: string | Buffer,
    headers: Record<string, string> = { "content-type": "application/json" },
  ) => service.request("/api/v1/graphql", { method: "POST", headers, body });

  const expectError = (response: Awaited<ReturnType<typeof post>>, status: number, code: string) => {
    expect(response.status, JSON.stringify(response.body)).to.equal(status);
    expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(response.body.errors).to.have.length(1);
    expect(response.body.errors[0].extensions).to.deep.equal({
      code,
      requestId: response.headers.get("x-request-id"),
    });
  };

  it("accepts a body of exactly 65,536 bytes and refuses 65,537 with 413", async () => {
    // Over 10,000 characters of query would be query_too_long: pad in a variable instead.
    const padded = (size: number) => {
      const base = JSON.stringify({ query: "{ __typename }", variables: { pad: "" } });
      return base.replace('"pad":""', `"pad":"${"x".repeat(size - Buffer.byteLength(base))}"`);
    };
    expect(Buffer.byteLength(padded(65_536))).to.equal(65_536);
    const accepted = await post(padded(65_536));
    expect(accepted.status).to.equal(200);
    const refused = await post(padded(65_537));
    expectError(refused, 413, "payload_too_large");
    expect(refused.body.errors[0].message).to.equal("The request body is larger than 65,536 bytes.");
  });

  it("lets a client that writes its whole oversized body before reading read the 413 (no reset)", async () => {
    const headers = `Content-Type: application/json\r\nAuthorization: Bearer ${service.key}\r\n`;
    for (const size of [2_000_000, 8_000_000]) {
      const answer = await writeThenRead(service, Buffer.alloc(size, "x"), headers);
      expect(answer.split("\r\n")[0], `${size} bytes`).to.equal("HTTP/1.1 413 Payload Too Large");
      expect(answer).to.match(/\r\nConnection: close\r\n/i);
      expect(answer).to.include('"code":"payload_too_large"');
    }
  });

  it("reads a streamed body of 65,536 bytes and answers one of 65,537 at once, keeping none of the rest", async () => {
    const padded = (size: number) => {
      const base = JSON.stringify({ query: "{ __typename }" });
      return Buffer.from(base + " ".repeat(size - base.length));
    };
    const accepted = await streamBody(service, padded(65_536), { end: true });
    expect(accepted.status).to.equal(200);

    // 65,537 bytes written and the request left open: the 413 comes anyway, and the server closes.
    const refused = await streamBody(service, padded(65_537), { end: false });
    expect(refused.status).to.equal(413);
    expect(refused.headers.connection).to.equal("close");
    expect(refused.body.errors[0]?.extensions.code).to.equal("payload_too_large");
    await refused.closed;
  });

  it("answers 408 request_timeout and closes the connection when the body stalls", async () => {
    const slow = await startService(undefined, { bodyTimeoutMs: 300 });
    try {
      const stalled = await streamBody(slow, Buffer.from('{"query": "{ __typ'), { end: false });
      expect(stalled.status).to.equal(408);
      expect(stalled.headers.connection).to.equal("close");
      expect(stalled.headers["content-type"]).to.equal("application/json; charset=utf-8");
      expect(stalled.body.errors[0]?.extensions.code).to.equal("request_timeout");
      // The message states the timeout in force, not the contract's default.
      expect((stalled.body.errors[0] as { message?: string }).message).to.equal(
        "The request body did not arrive within 300 ms of its headers.",
      );
      expect(stalled.headers.ratelimit).to.be.a("string"); // the key was admitted: it counts
      await stalled.closed;
      // A body that arrives in time is read as usual.
      const prompt = await streamBody(slow, Buffer.from('{"query": "{ __typename }"}'), { end: true });
      expect(prompt.status).to.equal(200);
    } finally {
      await slow.close();
    }
  });

  it("accepts deflate and br bodies", async () => {
    const json = JSON.stringify({ query: "{ __typename }" });
    for (const [coding, body] of [
      ["deflate", deflateSync(json)],
      ["br", brotliCompressSync(json)],
    ] as const) {
      const response = await post(body, { "content-type": "application/json", "content-encoding": coding });
      expect(response.status, coding).to.equal(200);
    }
  });

  it("refuses a charset other than UTF-8 with 415 and bytes that are not UTF-8 with invalid_json", async () => {
    const latin1 = await post('{"query":"{ __typename }"}', {
      "content-type": "application/json; charset=latin1",
    });
    expectError(latin1, 415, "unsupported_media_type");
    expect(latin1.body.errors[0].message).to.equal(
      'Send the request body in UTF-8: Content-Type: application/json with no charset, or charset=utf-8 (it says charset="latin1").',
    );
    const notUtf8 = Buffer.concat([
      Buffer.from('{"query":"{ __typename }","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expectError(await post(notUtf8), 422, "invalid_json");
  });

  it("refuses a gzip body that decodes to over 65,536 bytes", async () => {
    const body = gzipSync(
      JSON.stringify({ query: "{ __typename }", variables: { pad: "x".repeat(70_000) } }),
    );
    expectError(
      await post(body, { "content-type": "application/json", "content-encoding": "gzip" }),
      413,
      "payload_too_large",
    );
  });

  it("accepts a gzip body and refuses one that does not decode", async () => {
    const ok = await post(gzipSync(JSON.stringify({ query: "{ __typename }" })), {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    expect(ok.status).to.equal(200);
    expectError(
      await post(Buffer.from("not gzip"), { "content-type": "application/json", "content-encoding": "gzip" }),
      422,
      "invalid_json",
    );
  });

  it("closes the connection after a body that stops decoding part-way, so its rest is never read as the next request (found by the fuzz test)", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: Buffer, headers: Record<string, string>) =>
      new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
        const req = httpRequest(`${service.url}/api/v1/graphql`, {
          method: "POST",
          agent,
          headers: {
            authorization: `Bearer ${service.key}`,
            "content-length": String(body.length),
            ...headers,
          },
        });
        req.once("error", reject);
        req.once("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.once("end", () => {
            resolve({
              status: response.statusCode ?? 0,
              connection: response.headers.connection,
              text: Buffer.concat(chunks).toString(),
            });
          });
        });
        req.end(body);
      });
    try {
      // Not gzip, and far more than one read: decoding fails while most of it is still unread.
      const garbage = await send(Buffer.alloc(1_000_000, "x"), {
        "content-type": "application/json",
        "content-encoding": "gzip",
      });
      expect(garbage.status).to.equal(422);
      expect(garbage.text).to.include('"code":"invalid_json"');
      expect(garbage.connection).to.equal("close");
      const next = await send(Buffer.from(JSON.stringify({ query: "{ __typename }" })), {
        "content-type": "application/json",
      });
      expect(next.status).to.equal(200);
    } finally {
      agent.destroy();
    }
  });

  // Each message names what to fix: the type, or (the type right) the coding.
  const toJson = "Send the request body as Content-Type: application/json.";
  for (const [name, headers, message] of [
    ["no Content-Type", {}, toJson],
    ["text/plain", { "content-type": "text/plain" }, toJson],
    ["application/graphql", { "content-type": "application/graphql" }, toJson],
    [
      "an unsupported Content-Encoding",
      { "content-type": "application/json", "content-encoding": "zstd" },
      'Send the request body with no Content-Encoding, or gzip, deflate or br (it says "zstd").',
    ],
  ] as const) {
    it(`refuses ${name} with 415`, async () => {
      const refused = await post('{"query":"{ __typename }"}', headers);
      expectError(refused, 415, "unsupported_media_type");
      expect(refused.body.errors[0].message).to.equal(message);
    });
  }

  it("accepts application/json with a charset parameter", async () => {
    const response = await post('{"query":"{ __typename }"}', {
      "content-type": "application/json; charset=utf-8",
    });
    expect(response.status).to.equal(200);
  });

  for (const [name, body] of [
    ["an empty body", ""],
    ["a syntax error", '{"query": '],
    ["a raw newline inside a string", '{"query": "{\n__typename }"}'],
    ["trailing garbage", '{"query": "{ __typename }"} x'],
    ["single quotes", "{'query': '{ __typename }'}"],
  ]) {
    it(`answers ${name} with 422 invalid_json`, async () => {
      expectError(await post(body ?? ""), 422, "invalid_json");
    });
  }

  it("answers a request that announces no body at all (curl -X POST without -d) with 422 invalid_json, not 415", async () => {
    const { port } = new URL(service.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
      });
      socket.once("close", () => {
        resolve(received);
      });
      socket.once("error", reject);
      // Neither Content-Length nor Transfer-Encoding: a request without a body.
      socket.write(
        `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
          "Content-Type: application/json\r\nConnection: close\r\n\r\n",
      );
    });
    expect(answer).to.match(/^HTTP\/1\.1 422 /);
    expect(answer).to.include('"code":"invalid_json"');
    expect(answer).to.include("The request body is empty.");
  });

  for (const [name, body] of [
    ["an array (batch)", '[{"query": "{ __typename }"}]'],
    ["a string", '"{ __typename }"'],
    ["null", "null"],
    ["an object without query", '{"variables": {}}'],
    ["a query that is not a string", '{"query": 1}'],
    ["variables that are not an object", '{"query": "{ __typename }", "variables": [1]}'],
    ["an operationName that is not a string", '{"query": "{ __typename }", "operationName": 1}'],
  ]) {
    it(`answers ${name} with 422 validation_failed`, async () => {
      expectError(await post(body ?? ""), 422, "validation_failed");
    });
  }

  it("answers a malformed persisted-query extension 422 validation_failed with a clear message, never 500", async () => {
    const query = "{ __typename }";
    for (const [extensions, message] of [
      [{ persistedQuery: { version: 2, sha256Hash: "0".repeat(64) } }, /version must be 1/],
      [{ persistedQuery: { version: 1, sha256Hash: "0".repeat(63) } }, /64 lowercase hexadecimal digits/],
      [{ persistedQuery: "garbage" }, /must be an object/],
      [{ persistedQuery: null }, /must be an object/],
    ] as const) {
      for (const body of [{ query, extensions }, { extensions }]) {
        const response = await post(JSON.stringify(body));
        expectError(response, 422, "validation_failed");
        expect(response.body.errors[0].message).to.match(message);
      }
    }
    const other = await post(JSON.stringify({ query, extensions: { tracing: true, client: { name: "x" } } }));
    expect(other.status).to.equal(200);
  });

  it("accepts null variables, operationName and extensions", async () => {
    const response = await post(
      '{"query": "{ __typename }", "variables": null, "operationName": null, "extensions": null}',
    );
    expect(response.status).to.equal(200);
  });

  it("accepts a query of 10,000 characters and refuses 10,001 with query_too_long", async () => {
    const query = (length: number) => "{ __typename }" + " ".repeat(length - 14);
    expect((await service.graphql(query(10_000))).status).to.equal(200);
    const refused = await service.graphql(query(10_001));
    expectError(refused, 422, "query_too_long");
    expect(refused.body.errors[0].message).to.equal("The query is longer than 10,000 characters.");
  });

  it("counts the query length in code points, not UTF-16 units or bytes", async () => {
    // "😀" is one character, two UTF-16 units and four bytes.
    const query = (length: number) => "{ __typename } #" + "😀".repeat(length - 16);
    expect((await service.graphql(query(10_000))).status).to.equal(200);
    expectError(await service.graphql(query(10_001)), 422, "query_too_long");
  });

  for (const [name, query] of [
    ["an empty query", ""],
    ["a whitespace-only query", " \n\t "],
    ["a comment-only query", "# nothing"],
  ]) {
    it(`answers ${name} with 422 parse_error`, async () => {
      expectError(await service.graphql(query ?? ""), 422, "parse_error");
    });
  }
});
