import type { IncomingMessage } from "node:http";
import type { Duplex, Readable } from "node:stream";

/** What a refused request may still send after its answer: bytes read and dropped, and for how long. */
export interface Linger {
  bytes: number;
  ms: number;
}

/** Up to 16 MiB or 10 s after a 413 or 408: room for a client that writes its whole body before reading. */
export const LINGER_AFTER_REFUSAL: Linger = { bytes: 16 * 1024 * 1024, ms: 10_000 };

/**
 * Closes the connection of a request whose body is refused unread (413, 408) without resetting it
 * under a client that is still sending. Node ends a `Connection: close` answer's socket with
 * `destroySoon()` as soon as the answer is written; with request bytes still arriving, the kernel
 * then resets the connection, and a client that writes its whole body before reading (Python's
 * http.client, many plain libraries) gets EPIPE instead of the answer. Here the answer is written
 * and our side half-closed, then the rest of the body is read and dropped (never kept) until it
 * ends, or `linger.bytes` or `linger.ms` run out; then the socket is closed.
 */
export function closeAfterDiscarding(req: IncomingMessage, linger: Linger): void {
  const { socket } = req;
  socket.destroySoon = () => {
    socket.end();
    if (req.readableEnded)
      socket.destroy(); // nothing left to arrive
    else discardThenDestroy(req, socket, linger);
  };
}

/**
 * Closes a connection Node has let go of (a `CONNECT`'s, answered with a refusal and ended on our
 * side) as {@link closeAfterDiscarding} closes a request's: what the client still sends is read
 * and dropped until it closes its side, or `linger.bytes` or `linger.ms` run out. Unread, the
 * socket would stay half open for as long as the client keeps its side open, past any shutdown.
 */
export function closeSocketAfterDiscarding(socket: Duplex, linger: Linger): void {
  discardThenDestroy(socket, socket, linger);
}

/** Reads and drops what `source` brings until it ends, or `linger` runs out; then destroys `socket`. */
function discardThenDestroy(source: Readable, socket: Duplex, linger: Linger): void {
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, linger.ms).unref();
  socket.once("close", () => {
    clearTimeout(timer);
  });
  source.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > linger.bytes) close();
  });
  source.once("end", close);
  source.resume();
}
