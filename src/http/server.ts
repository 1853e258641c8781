// The HTTP server around the app, for the service and the tests alike. Node's HTTP parser refuses
// some requests itself: headers over its size limit, headers that do not arrive in time, a chunked
// body's extensions over its limit. Its own answers (`431`, `408`, `413`) carry no body and no
// `X-Request-Id`; here they get the contract's (§2, §3) like every other refusal. So does a
// method Node's parser does not know (`FOO`, `post`): RFC 9110 allows any token, and §2 answers
// every method but POST on the GraphQL paths with `405`, on any other path `404`. A request that
// is not HTTP at all (a malformed request line or header, both `Content-Length` and
// `Transfer-Encoding`, an HTTP/1.1 request without `Host`) has no code in the catalogue: it gets
// Node's `400 Bad Request` with no body, only an `X-Request-Id` as every response has, and the
// connection is closed. A request that expects `100 Continue` is told to send its body only when
// the app reads it ({@link continueIfAwaited}), after its key, quota and headers are checked;
// one that expects anything else is answered as if it expected nothing.
import {
  createServer,
  maxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Duplex } from "node:stream";
import { finished } from "node:stream/promises";
import { ApiError, errorBody } from "../errors/catalogue.js";
import type { RawAnswerLogEntry } from "../ops/request-log.js";
import { JSON_ANSWER_TYPE } from "./accept.js";
import { closeSocketAfterDiscarding, LINGER_AFTER_REFUSAL } from "./linger.js";
import { chooseRequestId } from "./request-id.js";

export interface HttpServerSettings {
  /**
   * How long a request's headers may take to arrive from its first byte: the body's own time
   * (contract §2), so that a caller holding a connection open byte by byte is refused as soon as
   * one sending its body that slowly.
   */
  headersTimeoutMs: number;
  /** The app's POST-only paths: there a method the parser does not know is `405`, elsewhere `404`. */
  postOnlyPaths: readonly string[];
  /**
   * Told of each answer written here rather than by the app, so that its `X-Request-Id` leads an
   * operator to a log line as every other answer's does (the app logs its own).
   */
  logAnswer?: (entry: RawAnswerLogEntry) => void;
}

/** What a raw answer knows of its request: the caller's id, method and path, where they could be read. */
interface RequestLine {
  callerId?: string;
  method?: string;
  path?: string;
}

/** How often Node looks for requests past their time (its default, 30 s, would let one wait that much longer). */
const TIMEOUT_CHECK_MS = 250;
const NODE_REQUEST_TIMEOUT_MS = 300_000;
/**
 * What Node's parser refuses in a request's head, before a response object is made for it (a
 * head too slow included: the app answers a slow body itself, long before Node's whole-request
 * timeout).
 */
const HEAD_REFUSALS = new Set(["HPE_INVALID_METHOD", "HPE_HEADER_OVERFLOW", "ERR_HTTP_REQUEST_TIMEOUT"]);
/**
 * The answer to what is not HTTP: Node's own `400 Bad Request`, with no body (no catalogue code
 * names it), and like every response a new `X-Request-Id` (contract §2).
 */
function badRequest(): RawAnswer {
  const requestId = chooseRequestId(undefined);
  return {
    text:
      `HTTP/1.1 400 Bad Request\r\nDate: ${new Date().toUTCString()}\r\nX-Request-Id: ${requestId}\r\n` +
      "Content-Length: 0\r\nConnection: close\r\n\r\n",
    entry: { requestId, status: 400 },
  };
}

/** A whole answer written to a connection, and its log line, logged when it is written. */
interface RawAnswer {
  text: string;
  entry: RawAnswerLogEntry;
}

/** An HTTP server for `app` that answers what Node's parser refuses as the contract says. */
export function createHttpServer(app: RequestListener, settings: HttpServerSettings): Server {
  const send = (socket: Duplex, answer: RawAnswer) => {
    settings.logAnswer?.(answer.entry);
    socket.end(answer.text);
  };
  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      // Node's own bound on a whole request (its default), which may not be shorter than the headers'.
      requestTimeout: Math.max(NODE_REQUEST_TIMEOUT_MS, settings.headersTimeoutMs),
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, settings.headersTimeoutMs),
      // Node answers an HTTP/1.1 request without `Host` with its bare 400 itself; it is answered here.
      requireHostHeader: false,
    },
    (req, res) => {
      if (lacksHost(req)) refuseAsNotHttp(req, res, settings);
      else app(req, res);
    },
  );
  // With its default `maxHeadersCount`, Node hands the app the first thousand or so header lines
  // (1,023 of 1,501 on Node 20) and drops the rest unseen: a second `Authorization` behind them
  // would pass for none (contract §3 refuses two). Every line within the headers' size limit
  // ({@link maxHeaderSize}) is read instead, which bounds their count.
  server.maxHeadersCount = 0;
  // Node would answer `100 Continue` at once, and a caller refused for its key or quota would send
  // its body for nothing. The request goes to the app untold instead; a refusal before its body
  // is read closes the connection (Node keeps none alive whose client was not told to continue).
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(res);
    server.emit("request", req, res);
  });
  // Any other expectation Node would refuse with a bare `417`, a code the catalogue does not
  // have; RFC 9110 lets a server ignore it, and the request is answered as if it had none.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    server.emit("request", req, res);
  });
  // The responses each connection has yet to finish, in order (Node answers pipelined requests in
  // turn): a refusal may be written only after those it comes behind. Finished ones are dropped
  // from the front as the next request comes, so a keep-alive connection's list stays short.
  const answering = new WeakMap<Duplex, ServerResponse[]>();
  // Connections whose refusal waits for answers: Node's parser fails again on every later chunk.
  const refusing = new WeakSet<Duplex>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const responses = answering.get(req.socket);
    if (responses === undefined) {
      answering.set(req.socket, [res]);
      return;
    }
    while (responses[0]?.writableFinished === true) responses.shift();
    responses.push(res);
  });
  // A `CONNECT` asks for a tunnel to its authority-form target (`host:port`), a request Node hands
  // no response object for and, with no listener, drops unanswered. It is a method like any other:
  // `405` on the GraphQL paths, `404` elsewhere (§2); nothing after its head is read.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    // Node lets go of the connection here, its error listener too: a reset must not throw.
    socket.on("error", () => socket.destroy());
    const id = req.headers["x-request-id"];
    const path = pathOf(req.url ?? "");
    const answer = rawAnswer(methodRefusal(path, settings), {
      callerId: typeof id === "string" ? id : undefined,
      method: req.method,
      path,
    });
    answerBehind(socket, answering.get(socket) ?? [], () => {
      send(socket, answer);
      closeSocketAfterDiscarding(socket, LINGER_AFTER_REFUSAL);
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    if (refusing.has(socket)) return;
    const refused = refusalOf(error, settings);
    const answer = refused === undefined ? badRequest() : rawAnswer(refused.refusal, refused.request);
    const unfinished = (answering.get(socket) ?? []).filter((response) => !response.writableFinished);
    // A refusal of a head, or of bytes after the last request read whole, comes behind every
    // request on the connection (pipelined, or bytes after a request that closes it). Any other
    // is of the last request's body, still being read: behind the requests before it, and only
    // while its own answer has not begun.
    const last = unfinished.at(-1);
    const ofBody = last !== undefined && !HEAD_REFUSALS.has(error.code ?? "") && !last.req.complete;
    const before = ofBody ? unfinished.slice(0, -1) : unfinished;
    refusing.add(socket);
    answerBehind(socket, before, () => {
      if (ofBody && last.headersSent) socket.destroy();
      // Bytes after a request that closes the connection are ignored (RFC 9112 §9.6).
      else if (error.code === "HPE_CLOSED_CONNECTION") socket.end();
      else send(socket, answer);
    });
  });
  return server;
}

/**
 * Calls `answer` once the responses it comes behind on its connection have gone out whole (at
 * once when none are left); one cut short ends the connection instead.
 */
function answerBehind(socket: Duplex, before: readonly ServerResponse[], answer: () => void): void {
  const unfinished = before.filter((response) => !response.writableFinished);
  if (unfinished.length === 0) answer();
  else Promise.all(unfinished.map((response) => finished(response))).then(answer, () => socket.destroy());
}

/** An HTTP/1.1 request without the `Host` header RFC 9112 §3.2 requires: not HTTP, as Node reads it. */
const lacksHost = (req: IncomingMessage): boolean =>
  req.httpVersion !== "1.0" && req.headers.host === undefined;

/** {@link badRequest}'s answer on a request Node did make: no body, a new id, the connection closed. */
function refuseAsNotHttp(req: IncomingMessage, res: ServerResponse, settings: HttpServerSettings): void {
  const requestId = chooseRequestId(undefined);
  settings.logAnswer?.({ requestId, status: 400, method: req.method, path: pathOf(req.url ?? "") });
  res.writeHead(400, {
    "X-Request-Id": requestId,
    "Content-Length": "0",
    Connection: "close",
  });
  res.end();
}

/** Responses whose client waits for `100 Continue` before it sends the body. */
const awaitingContinue = new WeakSet<ServerResponse>();

/** Tells a client waiting for `100 Continue` to send its body: called by the stage that reads it. */
export function continueIfAwaited(res: ServerResponse): void {
  if (awaitingContinue.delete(res)) res.writeContinue();
}

/**
 * The catalogue's refusal for what Node's parser refused, when the catalogue has one, with the
 * caller's request id where the request could be read.
 */
function refusalOf(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number },
  settings: HttpServerSettings,
): { refusal: ApiError; request?: RequestLine } | undefined {
  if (error.code === "HPE_INVALID_METHOD") return unknownMethodRefusal(error, settings);
  const refusal = parserRefusalOf(error, settings);
  return refusal === undefined ? undefined : { refusal };
}

/** The refusal for what else Node's parser refused: a head too large or too slow, a chunk's extensions too large. */
function parserRefusalOf(error: NodeJS.ErrnoException, settings: HttpServerSettings): ApiError | undefined {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return headersTooLarge();
    // A chunked body's extensions (`5;name=value`) past Node's 16 KiB: the body refused as too large.
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError("payload_too_large", "The request body's chunk extensions are too large.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(
        "request_timeout",
        `The request's headers did not arrive within ${String(settings.headersTimeoutMs)} ms.`,
      );
    default:
      return undefined;
  }
}

const headersTooLarge = () =>
  new ApiError(
    "payload_too_large",
    `The request's headers are too large: they must come to less than ${String(maxHeaderSize)} bytes.`,
  );

/** A method or a header's name as RFC 9110 §5.1 and §9.1 allow it: a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VERSION = /^HTTP\/\d\.\d$/;
/** Visible ASCII, as Node's parser takes a target. */
const TARGET = /^[!-~]+$/;
/** An absolute-form target's scheme and authority, before its path. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * A method Node's parser does not know, on a request that is HTTP otherwise: refused as the app
 * refuses a method it knows, after the checks Node makes of any request's head. Node's parser stops
 * at the method's first byte it cannot take, so only what arrived in that read (`rawPacket`) is
 * there to read: a request line split across reads, or one behind another request in the same
 * read (the method is past the read's first bytes), is not HTTP as far as it can tell. Read in time
 * linear in the packet (no pattern here backtracks): a caller picks its length.
 */
function unknownMethodRefusal(
  error: { rawPacket?: Buffer; bytesParsed?: number },
  settings: HttpServerSettings,
): { refusal: ApiError; request?: RequestLine } | undefined {
  const text = error.rawPacket?.toString("latin1") ?? "";
  const lineEnd = text.indexOf("\r\n");
  const [method = "", target = "", version = "", ...rest] = text.slice(0, Math.max(0, lineEnd)).split(" ");
  const originForm = target.replace(ABSOLUTE_FORM, "");
  // An absolute-form target without a path names the root, as Express reads it.
  const path = pathOf(originForm) || (originForm === target ? "" : "/");
  if (
    lineEnd === -1 ||
    (error.bytesParsed ?? Infinity) > method.length ||
    rest.length > 0 ||
    !TOKEN.test(method) ||
    !TARGET.test(target) ||
    !VERSION.test(version) ||
    !(path.startsWith("/") || target === "*")
  )
    return undefined;
  const head = headerLines(text.slice(lineEnd + 2));
  if (head === undefined) return undefined;
  // Node counts the target, and each header's name and value, against its limit.
  const counted = head.lines.reduce((sum, [name, value]) => sum + name.length + value.length, target.length);
  if (counted >= maxHeaderSize) return { refusal: headersTooLarge(), request: { method, path } };
  const ids = head.complete ? head.lines.filter(([name]) => name.toLowerCase() === "x-request-id") : [];
  return {
    refusal: methodRefusal(path, settings),
    // The caller's id when its headers are all here and name one (two are none, as the app reads them).
    request: { callerId: ids.length === 1 ? ids[0]?.[1] : undefined, method, path },
  };
}

/** A request target's path: what comes before its query or fragment. */
const pathOf = (target: string): string => target.split(/[?#]/, 1)[0] ?? "";

/** The answer to a method the app does not serve at `path`: `405` on the GraphQL paths, else `404` (§2). */
const methodRefusal = (path: string, settings: HttpServerSettings): ApiError =>
  settings.postOnlyPaths.includes(path)
    ? new ApiError("method_not_allowed", undefined, { Allow: "POST" })
    : new ApiError("not_found");

/**
 * A request's header lines as names and values (without the blanks around a value, RFC 9110 §5.5),
 * up to the blank line that ends them or the end of what arrived (`complete` says which);
 * `undefined` when a line is not a header (no token before its colon, a folded line).
 */
function headerLines(text: string): { lines: [string, string][]; complete: boolean } | undefined {
  const end = text.indexOf("\r\n\r\n");
  const block = end === -1 ? text : text.slice(0, end + 2);
  const parts = block.split("\r\n");
  // What follows the last line end of an incomplete read is a line still arriving.
  if (end === -1) parts.pop();
  const lines: [string, string][] = [];
  for (const line of parts) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    const name = line.slice(0, Math.max(0, colon));
    if (!TOKEN.test(name)) return undefined;
    lines.push([name, withoutBlanks(line.slice(colon + 1))]);
  }
  return { lines, complete: end !== -1 };
}

/** A header value without the spaces and tabs around it, as Node's parser reads it. */
function withoutBlanks(value: string): string {
  const blank = (i: number) => value[i] === " " || value[i] === "\t";
  let start = 0;
  let end = value.length;
  while (start < end && blank(start)) start++;
  while (end > start && blank(end - 1)) end--;
  return value.slice(start, end);
}

/** A whole HTTP answer for a connection no request object was made for: the one body shape, closed after. */
function rawAnswer(refusal: ApiError, request: RequestLine = {}): RawAnswer {
  const { callerId, method, path } = request;
  // The caller's id only where its request could be read; a new one otherwise.
  const requestId = chooseRequestId(callerId);
  const entry: RawAnswerLogEntry = {
    requestId,
    status: refusal.status,
    code: refusal.code,
    ...(method !== undefined && { method }),
    ...(path !== undefined && { path }),
  };
  const body = JSON.stringify(errorBody(refusal, requestId));
  const text = [
    `HTTP/1.1 ${String(refusal.status)} ${STATUS_CODES[refusal.status] ?? ""}`,
    // As every answer Node writes itself (RFC 9110 §6.6.1).
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(refusal.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Type: ${JSON_ANSWER_TYPE}`,
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    `X-Request-Id: ${requestId}`,
    "Cache-Control: no-store",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
  return { text, entry };
}
