import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { parse } from "yaml";
import { DEFAULT_NEO4J_VERSION, LOCAL_ONLY_SETTINGS, loadConfig, SETTINGS } from "../src/config.js";
import { DEADLINE_MARGIN_MS } from "../src/neo4j/deadline.js";
import { projectRoot } from "../src/project-root.js";

// There is no Docker engine on this machine: these tests keep docker-compose.yml and the
// Dockerfile consistent with the code they deploy, by reading them.

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[]; interval?: string; retries?: number };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  stop_grace_period?: string;
}

const compose = parse(readFileSync(join(projectRoot, "docker-compose.yml"), "utf8")) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/**
 * Compose's interpolation: `${NAME:-default}` as an operator who leaves NAME unset gets it, and
 * `${NAME:?message}` with a value standing for the operator's.
 */
const interpolate = (value: string | number) =>
  String(value)
    .replace(/\$\{\w+:-([^}]*)\}/g, (_match, fallback: string) => fallback)
    .replace(/\$\{(\w+)(?::?[?-][^}]*)?\}/g, (_match, name: string) => `<${name}>`);

/** The service's environment as the container sees it, the password stood in for. */
const serviceEnv = () =>
  Object.fromEntries(
    Object.entries(service("kg-graphql").environment ?? {}).map(([name, value]) => [
      name,
      interpolate(value).replace("<NEO4J_PASSWORD>", "an-operators-password"),
    ]),
  );

/** "127.0.0.1:9464:9464" → { published: 9464, target: 9464, host: "127.0.0.1" }. */
function portMapping(spec: string) {
  const parts = spec.split(":");
  return {
    target: Number(parts.at(-1)),
    published: Number(parts.at(-2)),
    host: parts.length === 3 ? parts[0] : "",
  };
}

const seconds = (duration: string) => {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (match === null) throw new Error(`not a compose duration: ${duration}`);
  return Number(match[1]) * { ms: 0.001, s: 1, m: 60 }[match[2] as "ms" | "s" | "m"];
};

describe("deployment: docker-compose.yml", () => {
  it("runs the service, Neo4j Community of the release the suite runs with auth and no plugin, and Redis, each with a health check", () => {
    expect(Object.keys(compose.services).sort()).to.deep.equal(["kg-graphql", "neo4j", "redis"]);
    for (const [name, { healthcheck }] of Object.entries(compose.services)) {
      expect(healthcheck?.test, `${name} health check`).to.be.an("array").that.is.not.empty;
    }
    const neo4j = service("neo4j");
    expect(neo4j.image).to.equal(`neo4j:${DEFAULT_NEO4J_VERSION}-community`);
    expect(neo4j.environment).not.to.have.property("NEO4J_PLUGINS");
    expect(interpolate(neo4j.environment?.NEO4J_AUTH ?? "")).to.equal("neo4j/<NEO4J_PASSWORD>");
    expect(neo4j.volumes).to.include("neo4j-data:/data");
    expect(service("redis").image).to.match(/^redis:7/);
    expect(service("redis").volumes).to.include("redis-data:/data");
    for (const volume of [...(neo4j.volumes ?? []), ...(service("redis").volumes ?? [])]) {
      expect(compose.volumes, volume).to.have.property(volume.split(":")[0] as string);
    }
  });

  it("sets every setting of the config module on the service, each with a value it accepts", () => {
    const env = serviceEnv();
    const names = Object.keys(env).sort();
    // Everything but the local-Neo4j settings, which are for `npm start` without NEO4J_URI.
    const deployable = SETTINGS.filter((name) => !LOCAL_ONLY_SETTINGS.includes(name)).sort();
    expect(names).to.deep.equal(deployable);
    expect(LOCAL_ONLY_SETTINGS).to.include.members(["LOCAL_NEO4J_BOLT_PORT", "DEMO_DATA_SIZE"]);

    const config = loadConfig(env);
    expect(config.http.host).to.equal("0.0.0.0");
    expect(config.log.format).to.equal("json");
    const neo4jUri = new URL(config.neo4j.uri ?? "");
    expect(neo4jUri.hostname).to.equal("neo4j");
    expect(service("neo4j").ports?.map((spec) => portMapping(spec).target)).to.include(Number(neo4jUri.port));
    expect(config.neo4j.password).to.equal("an-operators-password");
    expect(config.redis?.mode === "standalone" && new URL(config.redis.url).hostname).to.equal("redis");
  });

  it("publishes the public port, and the metrics port on loopback only", () => {
    const config = loadConfig(serviceEnv());
    const ports = (service("kg-graphql").ports ?? []).map(portMapping);
    expect(ports.find((port) => port.target === config.http.port)).to.include({ host: "" });
    expect(config.metrics.port).to.be.a("number").and.not.equal(config.http.port);
    expect(ports.find((port) => port.target === config.metrics.port)).to.include({ host: "127.0.0.1" });
  });

  it("asks the service's /readyz on its port, waits for healthy dependencies, and lets shutdown drain", () => {
    const kg = service("kg-graphql");
    const config = loadConfig(serviceEnv());
    expect(kg.build).to.equal(".");
    expect(kg.healthcheck?.test.join(" ")).to.include(`http://127.0.0.1:${config.http.port}/readyz`);
    expect(kg.depends_on).to.deep.equal({
      neo4j: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
    expect(seconds(kg.stop_grace_period ?? "10s") * 1000).to.be.above(config.http.shutdownTimeoutMs);
    // A request whose body has arrived by SIGTERM is answered within its deadline, not cut (contract §2).
    expect(config.http.shutdownTimeoutMs).to.be.above(config.neo4j.queryTimeoutMs + DEADLINE_MARGIN_MS);
  });
});

describe("deployment: Dockerfile", () => {
  const dockerfile = readFileSync(join(projectRoot, "Dockerfile"), "utf8")
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const stages: string[][] = [];
  for (const line of dockerfile) {
    if (line.startsWith("FROM ")) stages.push([]);
    stages.at(-1)?.push(line);
  }
  const runtime = stages.at(-1) ?? [];

  it("builds in one slim Node 20 stage and runs from another, with production dependencies only", () => {
    expect(stages.length).to.be.at.least(2);
    for (const stage of stages) expect(stage[0]).to.match(/^FROM node:20-slim\b/);
    expect(runtime.join("\n")).to.include("npm ci --omit=dev");
    expect(runtime.join("\n")).not.to.match(/npm run build|COPY src src/);
  });

  it("runs as a non-root user, exposes the port and checks /healthz", () => {
    const user = runtime.find((line) => line.startsWith("USER "));
    expect(user)
      .to.be.a("string")
      .and.not.match(/USER (root|0)\b/);
    const env = runtime.find((line) => line.startsWith("ENV ")) ?? "";
    const port = /PORT=(\d+)/.exec(env)?.[1];
    expect(runtime).to.include(`EXPOSE ${String(port)}`);
    const healthcheck = runtime.find((line) => line.startsWith("HEALTHCHECK ")) ?? "";
    expect(healthcheck).to.include("/healthz").and.include("process.env.PORT");
    // The user is set before the command runs.
    expect(runtime.indexOf(user ?? "")).to.be.below(runtime.findIndex((line) => line.startsWith("CMD ")));
  });

  it("copies what the service reads at run time, and leaves local databases out of the build context", () => {
    const copied = runtime
      .filter((line) => line.startsWith("COPY ") && !line.includes("--from="))
      .map((line) => line.split(/\s+/)[1] as string);
    for (const path of ["typeDefs", "cypher", "src/explorer/browser"]) {
      expect(copied, path).to.include(path);
    }
    for (const path of copied) expect(existsSync(join(projectRoot, path)), path).to.equal(true);
    const ignored = readFileSync(join(projectRoot, ".dockerignore"), "utf8").split("\n");
    expect(ignored).to.include.members([".neo4j", "node_modules", "dist"]);
  });
});
