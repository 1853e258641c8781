// What Node's HTTP parser refuses before the app sees a request (src/http/server.ts): headers over
// its size limit, headers that do not arrive in time and a method it does not know get the contract's answer (§2, §3: the
// one body shape, an X-Request-Id, a catalogue code), and the connection is closed after it. A
// request that expects `100 Continue` is told to send its body only after its checks.
import { maxHeaderSize } from "node:http";
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import { expect } from "chai";
import { createHttpServer } from "../src/http/server.js";
import type { RawAnswerLogEntry } from "../src/ops/request-log.js";
import { startService, type RunningService } from "./support/service.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Node's 400 for what is not HTTP, whole: no body, a new X-Request-Id, the connection closed. */
const BAD_REQUEST =
  /^HTTP\/1\.1 400 Bad Request\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\nX-Request-Id: [0-9a-f-]{36}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n$/;

/** One raw HTTP exchange: what the server wrote until it closed the connection, and when it closed. */
interface RawExchange {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  closedAfterMs: number;
}

/**
 * Writes `parts` to a new connection, `gapMs` apart, and reads until the server closes it (a
 * test's timeout fails one that never does): the last part asks for the connection's close.
 */
function exchange(
  service: Pick<RunningService, "url">,
  parts: readonly string[],
  { gapMs = 0 }: { gapMs?: number } = {},
): Promise<RawExchange> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let received = "";
    const done = () => {
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers: new Map(
          lines.map((line) => [
            line.slice(0, line.indexOf(":")).toLowerCase(),
            line.slice(line.indexOf(":") + 2),
          ]),
        ),
        body: rest.join("\r\n\r\n"),
        closedAfterMs: performance.now() - started,
      });
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8");
    });
    socket.once("close", done);
    socket.once("error", reject);
    parts.forEach((part, index) => {
      setTimeout(() => socket.write(part), index * gapMs);
    });
  });
}

/**
 * Sends a request's headers with `Expect: 100-continue` and its body only once told to continue,
 * as curl and Node's own client do; resolves with all the server wrote until it closed the connection.
 */
function askExpectingContinue(service: RunningService, head: string, body: string): Promise<string> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      const told = received === "" && chunk.toString("utf8").startsWith("HTTP/1.1 100 Continue\r\n\r\n");
      received += chunk.toString("utf8");
      if (told) socket.write(body);
    });
    socket.once("close", () => {
      resolve(received);
    });
    socket.once("error", reject);
    socket.write(`${head}Expect: 100-continue\r\nConnection: close\r\n\r\n`);
  });
}

/** The one error shape with `code`, its request id the X-Request-Id header's. */
function expectRefusal(
  answer: RawExchange,
  status: number,
  code: string,
  message: RegExp,
  { requestId: sentId }: { requestId?: string } = {},
): void {
  expect(answer.status).to.equal(status);
  // Within a few seconds of now, as every answer Node writes itself carries (RFC 9110 §6.6.1).
  expect(Math.abs(Date.parse(answer.headers.get("date") ?? "") - Date.now())).to.be.below(60_000);
  expect(answer.headers.get("content-type")).to.equal("application/json; charset=utf-8");
  expect(answer.headers.get("connection")).to.equal("close");
  expect(answer.headers.get("cache-control")).to.equal("no-store");
  const requestId = answer.headers.get("x-request-id");
  if (sentId === undefined) expect(requestId).to.match(/^[0-9a-f-]{36}$/);
  else expect(requestId).to.equal(sentId);
  const body = JSON.parse(answer.body) as { errors: { message: string; extensions: object }[] };
  expect(body.errors).to.have.length(1);
  expect(body.errors[0]?.message).to.match(message);
  expect(body.errors[0]?.extensions).to.deep.equal({ code, requestId });
}

describe("what Node's HTTP parser refuses, answered as the contract says (§2, §3)", () => {
  describe("headers over Node's size limit", () => {
    let service: RunningService;
    before(async () => {
      service = await startService();
    });
    after(async () => {
      await service.close();
    });

    const query = JSON.stringify({ query: "{ topics(limit: 1) { id } }" });
    /**
     * A GraphQL request whose URL, header names and values come to `size` bytes (what Node counts
     * against its limit: neither the separators nor the line ends), padded by one header.
     */
    const requestOfSize = (size: number, connection = "close") => {
      const headers: [string, string][] = [
        ["Host", "localhost"],
        ["Content-Type", "application/json"],
        ["Authorization", `Bearer ${service.key}`],
        ["Content-Length", String(query.length)],
        ["Connection", connection],
      ];
      const path = "/api/v1/graphql";
      const counted =
        path.length + headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
      const padding = size - counted - "X-Padding".length;
      headers.push(["X-Padding", "p".repeat(padding)]);
      return `POST ${path} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${query}`;
    };

    const expectHeadersTooLarge = (answer: RawExchange) => {
      expectRefusal(
        answer,
        413,
        "payload_too_large",
        /headers are too large: they must come to less than 16384 bytes/,
      );
    };

    it("answers headers one byte under the limit, and refuses the limit itself with 413 payload_too_large", async () => {
      const under = await exchange(service, [requestOfSize(maxHeaderSize - 1)]);
      expect(under.status).to.equal(200);
      expect(JSON.parse(under.body)).to.have.nested.property("data.topics");

      const at = await exchange(service, [requestOfSize(maxHeaderSize)]);
      expectHeadersTooLarge(at);
    });

    it("counts an unknown method's head as Node counts any: one byte under the limit is 405, the limit 413", async () => {
      const unknown = (size: number) => requestOfSize(size).replace(/^POST /, "FOO ");
      const under = await exchange(service, [unknown(maxHeaderSize - 1)]);
      expectRefusal(under, 405, "method_not_allowed", /POST requests only/);
      const at = await exchange(service, [unknown(maxHeaderSize)]);
      expectHeadersTooLarge(at);
    });

    it("refuses a keep-alive connection's second request when its headers are too large, after answering the first", async () => {
      const first = requestOfSize(1_000, "keep-alive");
      const answer = await exchange(service, [first, requestOfSize(maxHeaderSize + 10_000)], { gapMs: 100 });
      // Two answers on one connection: the first request's 200, then the refusal.
      const second = answer.body.slice(answer.body.indexOf("HTTP/1.1 413"));
      expect(answer.status).to.equal(200);
      expect(second).to.match(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
      expect(second).to.include('"code":"payload_too_large"');
    });
  });

  it("refuses a chunked body whose chunk extensions are over Node's limit with 413 payload_too_large", async () => {
    const errors: string[] = [];
    const service = await startService(undefined, { logError: (line) => errors.push(line) });
    try {
      const chunked = (extension: string) =>
        `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer ${service.key}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        `1b;${extension}\r\n{"query": "{ __typename }"}\r\n0\r\n\r\n`;
      const small = await exchange(service, [chunked("note=small")]);
      expect(small.status).to.equal(200);
      const large = await exchange(service, [chunked(`note=${"e".repeat(20_000)}`)]);
      expectRefusal(large, 413, "payload_too_large", /chunk extensions are too large/);
      // The app's own request, cut short under it, logs no failure of ours.
      expect(errors).to.deep.equal([]);
    } finally {
      await service.close();
    }
  });

  describe("headers that do not arrive in time", () => {
    let service: RunningService;
    before(async () => {
      // The headers' time is the body's (REQUEST_BODY_TIMEOUT_MS), shortened for the test.
      service = await startService(undefined, { bodyTimeoutMs: 400 });
    });
    after(async () => {
      await service.close();
    });

    it("refuses headers stalled past the body timeout with 408 request_timeout and closes the connection", async () => {
      const answer = await exchange(service, ["POST /api/v1/graphql HTTP/1.1\r\n", "Host: localhost\r\n"], {
        gapMs: 50,
      });
      expectRefusal(answer, 408, "request_timeout", /did not arrive within 400 ms/);
      // Node looks for late requests every 250 ms; far from its default 60 s either way.
      expect(answer.closedAfterMs).to.be.at.least(400).and.below(5_000);
    });

    it("answers headers that arrive slowly but in time", async () => {
      const answer = await exchange(
        service,
        ["POST /api/v1/graphql HTTP/1.1\r\n", "Host: localhost\r\n", "Connection: close\r\n\r\n"],
        { gapMs: 100 },
      );
      // Complete in time, without a key: the app's own answer.
      expect(answer.status).to.equal(401);
      expect(answer.body).to.include('"code":"unauthorized"');
    });

    it("counts a keep-alive connection's time from its next request's first byte, not from its last answer", async () => {
      const body = JSON.stringify({ query: "{ __typename }" });
      const request = (connection: string) =>
        `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\nConnection: ${connection}\r\n\r\n${body}`;
      // Idle for twice the headers' time between the two requests (Node's keep-alive lasts 5 s).
      const answer = await exchange(service, [request("keep-alive"), request("close")], { gapMs: 800 });
      expect(answer.status).to.equal(200);
      // The first answer's body, then the second answer whole.
      const second = answer.body.slice(answer.body.indexOf("HTTP/1.1 "));
      expect(second).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(second).to.include('{"data":{"__typename":"Query"}');
    });
  });

  it("answers a method Node's parser does not know as the app answers one it knows: 405 on the GraphQL paths, else 404", async () => {
    const logged: RawAnswerLogEntry[] = [];
    const service = await startService(undefined, { logAnswer: (entry) => logged.push(entry) });
    try {
      const ask = (requestLine: string, requestId = "") =>
        exchange(service, [
          `${requestLine}\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
            (requestId === "" ? "" : `X-Request-Id: ${requestId}\r\n`) +
            "Connection: close\r\n\r\n",
        ]);
      // A method the parser knows, for the app's own answer to compare with.
      const known = await ask("PUT /api/v1/graphql HTTP/1.1");
      expect(known.status).to.equal(405);
      const appMessage =
        (JSON.parse(known.body) as { errors: { message: string }[] }).errors[0]?.message ?? "";
      for (const requestLine of [
        "FOO /api/v1/graphql HTTP/1.1",
        "post /v1/graphql HTTP/1.1",
        "FOO /api/v1/graphql?query=%7B__typename%7D HTTP/1.1",
        "FOO http://localhost/v1/graphql HTTP/1.1",
      ]) {
        const answer = await ask(requestLine, "trace-1.a");
        expectRefusal(answer, 405, "method_not_allowed", new RegExp(`^${appMessage}$`), {
          requestId: "trace-1.a",
        });
        expect(answer.headers.get("allow")).to.equal("POST");
      }
      expect(logged).to.deep.include({
        requestId: "trace-1.a",
        status: 405,
        code: "method_not_allowed",
        method: "post",
        path: "/v1/graphql",
      });
      for (const requestLine of [
        "FOO /nope HTTP/1.1",
        "FOO /api/v1/graphql/ HTTP/1.1",
        "FOO /V1/GRAPHQL HTTP/1.0",
      ]) {
        const answer = await ask(requestLine);
        expectRefusal(answer, 404, "not_found", /./);
        expect(answer.headers.has("allow")).to.equal(false);
      }
      // Node's limit on a head holds for it too: a target as long as a read holds is 413.
      const long = await exchange(service, [
        `FOO /${"a".repeat(60_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      ]);
      expectRefusal(long, 413, "payload_too_large", /headers are too large/);
      // An absolute-form target without a path names the root.
      expectRefusal(await ask("FOO http://localhost?/v1/graphql HTTP/1.1"), 404, "not_found", /./);
      // Two request ids, or one the contract does not take: a new one, as the app gives.
      const twice = await exchange(service, [
        "FOO /v1/graphql HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: a\r\nX-Request-Id: b\r\n\r\n",
      ]);
      expectRefusal(twice, 405, "method_not_allowed", /./);
      expectRefusal(await ask("FOO /v1/graphql HTTP/1.1", "not valid!"), 405, "method_not_allowed", /./);
    } finally {
      await service.close();
    }
  });

  it("answers CONNECT as any method the app does not serve: 405 on the GraphQL paths, else 404, behind the answer before it", async () => {
    const logged: RawAnswerLogEntry[] = [];
    const service = await startService(undefined, { logAnswer: (entry) => logged.push(entry) });
    try {
      const connectTo = (target: string, more = "") =>
        `CONNECT ${target} HTTP/1.1\r\nHost: localhost\r\n${more}\r\n`;
      const tunnel = await exchange(service, [connectTo("example.com:443", "X-Request-Id: tunnel-1\r\n")]);
      expectRefusal(tunnel, 404, "not_found", /./, { requestId: "tunnel-1" });
      // Logged like the app's answers, so that the id leads an operator to a line.
      expect(logged).to.deep.include({
        requestId: "tunnel-1",
        status: 404,
        code: "not_found",
        method: "CONNECT",
        path: "example.com:443",
      });
      const onPath = await exchange(service, [connectTo("/api/v1/graphql"), "bytes of a tunnel"]);
      expectRefusal(onPath, 405, "method_not_allowed", /./);
      expect(onPath.headers.get("allow")).to.equal("POST");
      // Behind a keep-alive request on the same connection: its answer first, whole.
      const body = JSON.stringify({ query: "{ __typename }" });
      const both = await exchange(service, [
        `POST /v1/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n${body}` +
          connectTo("/v1/graphql"),
      ]);
      expect(both.status).to.equal(200);
      const [first = "", second = ""] = both.body.split("\r\n\r\n");
      expect(first).to.match(
        /^\{"data":\{"__typename":"Query"\}.*\}\n?HTTP\/1\.1 405 Method Not Allowed\r\n/,
      );
      expect(second).to.include('"code":"method_not_allowed"');
    } finally {
      await service.close();
    }
  });

  it("closes a refused CONNECT's connection once the client closes its side, tunnel bytes read and dropped", async function () {
    // Node lets go of a CONNECT's socket: unread, it would stay open past the server's close.
    this.timeout(30_000);
    const service = await startService();
    const { hostname, port } = new URL(service.url);
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8");
    });
    socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write("bytes of a tunnel, in a later read");
    socket.end();
    await once(socket, "close");
    expect(received).to.match(/^HTTP\/1\.1 404 Not Found\r\n/);
    // Waits for every connection: with this one left open, the test's timeout fails it.
    await service.close();
  });

  it("answers what the parser refuses behind a request after that answer (pipelined), and ignores bytes after a closing request", async () => {
    const service = await startService();
    try {
      const body = JSON.stringify({ query: "{ topics(limit: 1) { id } }" });
      const first =
        `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n${body}`;
      // The first answer's status and head, then its body and the refusal behind it.
      const behind = async (parts: string[]) => {
        const { status, body: received } = await exchange(service, parts);
        const index = received.indexOf("HTTP/1.1 ");
        if (index < 0) return { status, answer: received, refusal: "" };
        return { status, answer: received.slice(0, index), refusal: received.slice(index) };
      };
      // Each in one read with the first request, refused while it is being answered: the
      // refusal only once it is answered, whole. (In one read, the unknown method is past the
      // read's first bytes: not HTTP as far as the parser can tell.)
      const unknownMethod = await behind([`${first}FOO /v1/graphql HTTP/1.1\r\nHost: localhost\r\n\r\n`]);
      const tooLarge = await behind([
        `${first}GET /v1/graphql HTTP/1.1\r\nX-Padding: ${"p".repeat(20_000)}\r\n\r\n`,
      ]);
      // Not HTTP behind it: a header line without its colon, a body framed twice.
      const badHeader = await behind([`${first}POST / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`]);
      const framedTwice = await behind([
        `${first}POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
      ]);
      // A second request whose body is not HTTP (a chunk size that is not hex), its head read:
      // the refusal of its body still comes after the first answer.
      const badChunk = await behind([
        `${first}POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${service.key}\r\n` +
          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
      ]);
      // Bytes after a request that closes the connection: ignored, with no answer of their own.
      const closing = first.replace("Host: localhost\r\n", "Host: localhost\r\nConnection: close\r\n");
      const afterClose = await behind([`${closing}{junk`]);
      for (const { status, answer } of [
        unknownMethod,
        tooLarge,
        badHeader,
        framedTwice,
        badChunk,
        afterClose,
      ]) {
        expect(status).to.equal(200);
        // The whole first answer, and nothing of the refusal in it.
        // (The graph may hold no topic: this suite writes none.)
        expect(JSON.parse(answer)).to.have.nested.property("data.topics").that.is.an("array");
      }
      for (const { refusal } of [unknownMethod, badHeader, framedTwice, badChunk])
        expect(refusal).to.match(BAD_REQUEST);
      expect(afterClose.refusal).to.equal("");
      expect(tooLarge.refusal).to.match(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
      expect(tooLarge.refusal).to.include('"code":"payload_too_large"');
    } finally {
      await service.close();
    }
  });

  it("answers a head too slow after the answer before it on the connection (pipelined)", async () => {
    // Around an app of its own whose answer takes longer than the head's time.
    const server = createHttpServer(
      (req, res) => {
        setTimeout(() => res.end(`answer to ${req.url ?? ""}`), req.url === "/slow" ? 1_000 : 0);
      },
      { headersTimeoutMs: 300, postOnlyPaths: [] },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await exchange({ url: `http://127.0.0.1:${String(port)}` }, [
        "GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\nGET /next HTTP/1.1\r\n",
      ]);
      expect(answer.status).to.equal(200);
      const index = answer.body.indexOf("HTTP/1.1 ");
      expect(answer.body.slice(0, index)).to.equal("answer to /slow");
      expect(answer.body.slice(index)).to.match(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      server.close();
    }
  });

  it("refuses once what keeps arriving behind a request being answered, with no listener per chunk", async () => {
    // Node's parser fails again on every chunk after its first error.
    const server = createHttpServer(
      (req, res) => {
        setTimeout(() => res.end(`answer to ${req.url ?? ""}`), 500);
      },
      { headersTimeoutMs: 5_000, postOnlyPaths: [] },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on("warning", warned);
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await exchange(
        { url: `http://127.0.0.1:${String(port)}` },
        ["GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n", ...Array<string>(30).fill("\u0001 not HTTP\r\n")],
        { gapMs: 10 },
      );
      expect(answer.status).to.equal(200);
      const index = answer.body.indexOf("HTTP/1.1 ");
      expect(answer.body.slice(0, index)).to.equal("answer to /slow");
      expect(answer.body.slice(index)).to.match(BAD_REQUEST);
      expect(warnings.map((warning) => warning.name)).to.deep.equal([]);
    } finally {
      process.off("warning", warned);
      server.close();
    }
  });

  it("answers what is not HTTP with Node's 400, no body, an X-Request-Id, and closes the connection", async () => {
    const logged: RawAnswerLogEntry[] = [];
    const service = await startService(undefined, { logAnswer: (entry) => logged.push(entry) });
    try {
      for (const garbage of [
        ["GARBAGE\r\n\r\n"],
        ["POST /api/v1/graphql HTTP/1.1\r\nBad Header: x\r\n\r\n"],
        ["FOO /api/v1/graphql\r\n\r\n"],
        [`FOO /${"a".repeat(60_000)}\r\n\r\n`],
        ["FOO /api/v1/graphql HTTP/1.1\r\nBad Header: x\r\n\r\n"],
        ["FOO /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\n folded\r\n\r\n"],
        ["FOO /api/v1/gr\u00e4phql HTTP/1.1\r\n\r\n"],
        ["FOO http:/v1/graphql HTTP/1.1\r\n\r\n"],
        // An unknown method's request line split across reads: the parser stops at its first
        // read, which holds no request line to answer.
        ["FO", "O /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\n\r\n"],
        // HTTP/1.1 without the Host header it requires (Node's parser takes it; Node answered it bare).
        ["POST /api/v1/graphql HTTP/1.1\r\nContent-Length: 0\r\n\r\n"],
        ["GET /healthz HTTP/1.1\r\n\r\n"],
      ]) {
        const answer = await exchange(service, garbage, { gapMs: 50 });
        expect(answer.status).to.equal(400);
        expect(answer.body).to.equal("");
        // Like every response, an X-Request-Id (contract §2): a new one, the request unread.
        expect(answer.headers.get("x-request-id")).to.match(UUID);
        expect(answer.headers.get("content-length")).to.equal("0");
        expect(logged.find((entry) => entry.requestId === answer.headers.get("x-request-id"))).to.include({
          status: 400,
        });
      }
    } finally {
      await service.close();
    }
  });

  describe("a request that expects 100 Continue", () => {
    let service: RunningService;
    before(async () => {
      service = await startService();
    });
    after(async () => {
      await service.close();
    });

    const body = JSON.stringify({ query: "{ __typename }" });
    const head = (authorization: string, length = body.length) =>
      `POST /api/v1/graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `Authorization: ${authorization}\r\nContent-Length: ${String(length)}\r\n`;

    it("is told to continue once its key is checked, and its body is answered", async () => {
      const received = await askExpectingContinue(service, head(`Bearer ${service.key}`), body);
      expect(received).to.match(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
      expect(received).to.include('{"data":{"__typename":"Query"}');
    });

    it("is refused before it sends its body when its key is wrong or its body too large, and the connection closed", async () => {
      const wrongKey = await askExpectingContinue(service, head("Bearer kg_not_a_key"), body);
      expect(wrongKey).to.match(/^HTTP\/1\.1 401 Unauthorized\r\n/);
      expect(wrongKey).to.match(/\r\nConnection: close\r\n/i);
      expect(wrongKey).to.include('"code":"unauthorized"');

      const tooLarge = await askExpectingContinue(service, head(`Bearer ${service.key}`, 65_537), body);
      expect(tooLarge).to.match(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
      expect(tooLarge).to.include('"code":"payload_too_large"');
      // Never told to continue: the body was not sent, and the connection still closed.
      expect(wrongKey + tooLarge).not.to.include("100 Continue");
    });

    it("answers any other expectation as if there were none (not Node's bare 417)", async () => {
      const asked = await exchange(service, [
        `${head(`Bearer ${service.key}`)}Expect: something-else\r\nConnection: close\r\n\r\n${body}`,
      ]);
      expect(asked.status).to.equal(200);
      expect(asked.body).to.include('{"data":{"__typename":"Query"}');
      const unknown = await exchange(service, [
        "GET /nope HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\nConnection: close\r\n\r\n",
      ]);
      expect(unknown.status).to.equal(404);
      expect(unknown.headers.get("x-request-id")).to.be.a("string");
      expect(unknown.body).to.include('"code":"not_found"');
    });
  });
});
