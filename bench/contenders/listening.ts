// The start-up line every bench child writes on stdout once it accepts connections: one JSON
// object, `{"event":"listening","port":…}` (kg-graphql's own log line carries the same two fields).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export function announceListening(server: Server): void {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: "listening", port })}\n`);
}

/** The port of a start-up line, or undefined for any other line. */
export function listeningPort(line: string): number | undefined {
  try {
    const parsed = JSON.parse(line) as { event?: unknown; port?: unknown };
    return parsed.event === "listening" && typeof parsed.port === "number" ? parsed.port : undefined;
  } catch {
    return undefined;
  }
}
