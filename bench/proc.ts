// What the bench reads from /proc: CPU time and resident memory of the processes under load.
import { readFile } from "node:fs/promises";
import { Redis } from "ioredis";

/** CPU seconds (user + system) a process has used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${String(pid)}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Samples a process's resident set (KiB) every 100 ms until stopped; returns the largest. */
export function sampleRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    void readFile(`/proc/${String(pid)}/status`, "utf8").then((status) => {
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    });
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** The pid of a Redis on this machine, from its own INFO; undefined for a remote one. */
export async function localRedisPid(url: string): Promise<number | undefined> {
  const { hostname } = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(hostname)) return undefined;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const pid = Number(/process_id:(\d+)/.exec(await redis.info("server"))?.[1]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } finally {
    redis.disconnect();
  }
}

/** CPU seconds of named processes, this one included as `loadGenerator`, between start and stop. */
export async function cpuMeter(pids: Record<string, number | undefined>) {
  const own = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const read = async () => {
    const entries = await Promise.all(
      Object.entries(pids).map(
        async ([name, pid]) => [name, pid === undefined ? Number.NaN : await cpuSeconds(pid)] as const,
      ),
    );
    return { ...Object.fromEntries(entries), loadGenerator: own() } as Record<string, number>;
  };
  const before = await read();
  return {
    stop: async () => {
      const after = await read();
      return Object.fromEntries(
        Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]),
      );
    },
  };
}
