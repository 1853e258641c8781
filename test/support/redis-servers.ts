import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import type { HostPort } from "../../src/redis/connection.js";

const run = promisify(execFile);

/** Whether a TCP port on 127.0.0.1 can be listened on now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => {
        resolve(false);
      })
      .listen(port, "127.0.0.1", () => {
        probe.close(() => {
          resolve(true);
        });
      });
  });
}

/** A port whose cluster bus port (+10,000) is free too: both below 65,536. */
async function freeRedisPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 21_000 + Math.floor(Math.random() * 8_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) {
      taken.add(port).add(port + 10_000);
      return port;
    }
  }
}

/** Polls `check` every 100 ms until it holds, or fails after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`not within ${String(ms)} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One command to the server on `port`, on a connection of its own. */
export async function ask(port: number, ...command: [string, ...(string | number)[]]): Promise<unknown> {
  const redis = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
  // A server not up yet, or killed: the rejected command says so; no unhandled event as well.
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    return await redis.call(...command);
  } finally {
    redis.disconnect();
  }
}

/** Local redis-server processes in a directory of their own, for one test. */
export class RedisServers {
  private readonly dir = mkdtempSync(join(tmpdir(), "kg-redis-"));
  private readonly processes = new Map<number, ChildProcess>();
  private readonly taken = new Set<number>();

  /** Starts a server with these extra arguments; resolves once it answers PING. */
  async start(extra: (ports: { port: number }) => string[] = () => []): Promise<number> {
    const port = await freeRedisPort(this.taken);
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        this.dir,
        ...extra({ port }),
      ],
      { stdio: "ignore" },
    );
    this.processes.set(port, child);
    await eventually(
      `redis-server on ${String(port)} answers`,
      async () => (await ask(port, "PING")) === "PONG",
    );
    return port;
  }

  /** Starts a sentinel monitoring `master` (quorum 1, down after 1 s). */
  async startSentinel(masterPort: number, name: string): Promise<number> {
    const port = await freeRedisPort(this.taken);
    const config = join(this.dir, `sentinel-${String(port)}.conf`);
    writeFileSync(
      config,
      [
        `port ${String(port)}`,
        "bind 127.0.0.1",
        `dir ${this.dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${String(masterPort)} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        "",
      ].join("\n"),
    );
    const child = spawn("redis-server", [config, "--sentinel"], { stdio: "ignore" });
    this.processes.set(port, child);
    await eventually(`sentinel on ${String(port)} answers`, async () => (await ask(port, "PING")) === "PONG");
    return port;
  }

  /**
   * A Redis Cluster of `masters` masters with `replicas` replicas each (node timeout 1 s), created
   * with `redis-cli --cluster create`; resolves once every node reports `cluster_state:ok`.
   */
  async startCluster(masters: number, replicas: number): Promise<number[]> {
    const ports: number[] = [];
    for (let i = 0; i < masters * (1 + replicas); i++) {
      ports.push(
        await this.start(({ port }) => [
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          `nodes-${String(port)}.conf`,
          "--cluster-node-timeout",
          "1000",
        ]),
      );
    }
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${String(port)}`),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ]);
    await eventually("the cluster is ok on every node", async () => {
      for (const port of ports)
        if (!String(await ask(port, "CLUSTER", "INFO")).includes("cluster_state:ok")) return false;
      return true;
    });
    // A replica that has not synced with its master yet would not stand in for it.
    await eventually("every replica is in sync with its master", async () => {
      for (const port of ports) {
        const replication = String(await ask(port, "INFO", "replication"));
        if (replication.includes("role:slave") && !replication.includes("master_link_status:up"))
          return false;
      }
      return true;
    });
    return ports;
  }

  /** The master port serving `key`'s slot, as the node on `port` sees the cluster. */
  async masterOf(port: number, key: string): Promise<number> {
    const slot = Number(await ask(port, "CLUSTER", "KEYSLOT", key));
    const ranges = (await ask(port, "CLUSTER", "SLOTS")) as [
      number,
      number,
      [string, number, ...unknown[]],
      ...unknown[],
    ][];
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    if (range === undefined) throw new Error(`no node serves slot ${String(slot)}`);
    return range[2][1];
  }

  /** Kills a server outright, as a crash would. */
  kill(port: number): void {
    this.processes.get(port)?.kill("SIGKILL");
    this.processes.delete(port);
  }

  stopAll(): void {
    for (const port of [...this.processes.keys()]) this.kill(port);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export const local = (port: number): HostPort => ({ host: "127.0.0.1", port });
