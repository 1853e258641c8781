import { connect, createServer, type Socket } from "node:net";

/** A TCP proxy to a local port, which a test can take away to play a database outage. */
export interface TcpProxy {
  port: number;
  /** Stops listening and cuts every open connection: the database "goes away". */
  stop(): Promise<void>;
  /** Listens again on the same port: the database is back. */
  resume(): Promise<void>;
  /**
   * Cuts every open connection and from then on accepts connections but never answers on them:
   * a database that is starting up or hung. {@link resume} after {@link stop} ends it.
   */
  silence(): void;
  /**
   * Keeps every open connection open but stops passing bytes on them, and answers no new one:
   * a database that stops answering in the middle of a conversation (restarting, hung).
   */
  stall(): void;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const server = createServer((client) => {
    track(client);
    if (silent) return;
    const upstream = connect(targetPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream).pipe(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    silence() {
      silent = true;
      for (const socket of sockets) socket.destroy();
    },
    stall() {
      silent = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
      }
    },
    async resume() {
      silent = false;
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
  };
}
