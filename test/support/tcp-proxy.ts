import { connect, createServer, type Socket } from "node:net";

/** A TCP proxy to a local port, which a test can take away to play a database outage. */
export interface TcpProxy {
  port: number;
  /** Stops listening and cuts every open connection: the database "goes away". */
  stop(): Promise<void>;
  /** Listens again on the same port: the database is back. */
  resume(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
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
    async resume() {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
  };
}
