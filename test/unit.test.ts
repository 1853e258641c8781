import { expect } from "chai";
import { ConfigError, loadConfig } from "../src/config.js";
import { isSupportedNeo4jVersion } from "../src/neo4j/version.js";
import {
  CURSOR_TEXT_KEY_CODE_POINTS,
  cursorFromCypher,
  decodeCursor,
  encodeCursor,
  positionOf,
  type Position,
} from "../src/cypher/cursor.js";
import type { ElementType } from "../src/domain/table.js";
import { listOrder, orderOfTag } from "../src/cypher/order.js";
import { chooseRequestId } from "../src/http/request-id.js";
import { splitStatements } from "../src/neo4j/apply-cypher.js";
import { withoutCredentials } from "../src/neo4j/connect.js";
import { withoutStackTraces } from "../src/neo4j/runner.js";
import { dateProblem } from "../src/graphql/strict-date.js";
import { servable } from "../src/graphql/stored-values.js";
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLScalarType,
} from "graphql";
import neo4j from "neo4j-driver";

describe("loadConfig", () => {
  it("has defaults that make npm start work on a fresh machine", () => {
    const config = loadConfig({});
    expect(config.http).to.deep.equal({
      host: "127.0.0.1",
      port: 4000,
      bodyTimeoutMs: 10_000,
      // A request's whole deadline (the query timeout and its 2 s margin) and a second: a request
      // whose body has arrived by SIGTERM is answered, not cut.
      shutdownTimeoutMs: 13_000,
      corsOrigins: [],
    });
    expect(config.neo4j.uri).to.equal(undefined);
    expect(config.neo4j.queryTimeoutMs).to.equal(10_000);
    expect(loadConfig({ NEO4J_QUERY_TIMEOUT_MS: "30000" }).http.shutdownTimeoutMs).to.equal(33_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: "5000" }).http.shutdownTimeoutMs).to.equal(5_000);
    // Contract §6: the contract's allowances, counted in this process without REDIS_URL.
    expect(config.redis).to.equal(undefined);
    expect(config.quota).to.deep.equal({
      limits: { requestsPerMinute: 100, requestsPerDay: 10_000, graphqlQueriesPerDay: 5_000 },
    });
  });

  it("reads CORS_ORIGINS as exact origins and names each value that is not one", () => {
    expect(
      loadConfig({ CORS_ORIGINS: "https://dash.example.com, http://127.0.0.1:5173" }).http.corsOrigins,
    ).to.deep.equal(["https://dash.example.com", "http://127.0.0.1:5173"]);
    expect(() => loadConfig({ CORS_ORIGINS: "https://dash.example.com/, *" })).to.throw(
      ConfigError,
      /"https:\/\/dash\.example\.com\/" is not an origin[\s\S]*"\*" is not an origin/,
    );
  });

  it("reads a Redis Cluster or a Sentinel group instead of REDIS_URL, and refuses more than one", () => {
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, redis-2:7001", REDIS_PASSWORD: "secret" }).redis,
    ).to.deep.equal({
      mode: "cluster",
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "redis-2", port: 7001 },
      ],
      password: "secret",
    });
    expect(
      loadConfig({ REDIS_SENTINELS: "s1:26379,s2:26379", REDIS_SENTINEL_MASTER: "quotas" }).redis,
    ).to.deep.equal({
      mode: "sentinel",
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26379 },
      ],
      master: "quotas",
    });
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: "redis-1" })).to.throw(
      ConfigError,
      /"redis-1" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_URL: "redis://a:6379", REDIS_SENTINELS: "s1:26379" })).to.throw(
      ConfigError,
      /set one of REDIS_URL, REDIS_SENTINELS, not several/,
    );
  });

  it("reads the quota settings and refuses a REDIS_URL that is not redis:// or rediss://", () => {
    const config = loadConfig({ REDIS_URL: "redis://cache:6379/2", QUOTA_REQUESTS_PER_MINUTE: "1000" });
    expect(config.redis).to.deep.equal({ mode: "standalone", url: "redis://cache:6379/2" });
    expect(config.quota.limits.requestsPerMinute).to.equal(1000);
    expect(() => loadConfig({ REDIS_URL: "http://cache:6379" })).to.throw(ConfigError, /REDIS_URL/);
    expect(() => loadConfig({ QUOTA_REQUESTS_PER_DAY: "0" })).to.throw(ConfigError, /QUOTA_REQUESTS_PER_DAY/);
  });

  it("reads and coerces the environment, an empty value meaning unset", () => {
    const config = loadConfig({ PORT: "8080", NEO4J_URI: "neo4j://db:7687", NEO4J_QUERY_TIMEOUT_MS: "2500" });
    expect(config.http.port).to.equal(8080);
    expect(config.neo4j.uri).to.equal("neo4j://db:7687");
    expect(config.neo4j.queryTimeoutMs).to.equal(2500);
    expect(loadConfig({ NEO4J_URI: "" }).neo4j.uri).to.equal(undefined);
  });

  it("serves metrics on the public port unless METRICS_PORT names one of their own", () => {
    expect(loadConfig({}).metrics).to.deep.equal({ port: undefined });
    expect(loadConfig({ METRICS_PORT: "9464" }).metrics).to.deep.equal({ port: 9464 });
    expect(() => loadConfig({ METRICS_PORT: "70000" })).to.throw(ConfigError, /METRICS_PORT/);
  });

  it("names every invalid setting", () => {
    expect(() => loadConfig({ PORT: "70000", NEO4J_PASSWORD: "short", DEMO_DATA_SIZE: "huge" }))
      .to.throw(ConfigError)
      .with.property("message")
      .that.matches(/PORT/)
      .and.matches(/NEO4J_PASSWORD/)
      .and.matches(/DEMO_DATA_SIZE/);
  });
});

describe("chooseRequestId", () => {
  it("keeps 1 to 128 characters of [A-Za-z0-9._:-]", () => {
    expect(chooseRequestId("a")).to.equal("a");
    expect(chooseRequestId("x".repeat(128))).to.equal("x".repeat(128));
  });

  it("generates a UUID for a missing, empty, too long or unsafe value", () => {
    for (const value of [undefined, "", "x".repeat(129), "a b", "é"]) {
      expect(chooseRequestId(value)).to.match(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });
});

describe("splitStatements", () => {
  it("drops comment lines and splits at a semicolon ending a line", () => {
    expect(
      splitStatements("// a comment\nCREATE INDEX a;\nCREATE INDEX b\n  FOR (n) ON (n.x);\n\n// end\n"),
    ).to.deep.equal(["CREATE INDEX a", "CREATE INDEX b\n  FOR (n) ON (n.x)"]);
  });
});

describe("withoutCredentials", () => {
  it("drops user and password from a URI for the logs, and leaves others as they are", () => {
    expect(withoutCredentials("neo4j://reader:s3cret@cluster.internal:7687")).to.equal(
      "neo4j://cluster.internal:7687",
    );
    expect(withoutCredentials("bolt://127.0.0.1:7687")).to.equal("bolt://127.0.0.1:7687");
    expect(withoutCredentials("not a uri")).to.equal("(an unparsable NEO4J_URI)");
  });
});

describe("withoutStackTraces", () => {
  it("captures no stack frames inside, and restores the limit after, even when it throws", () => {
    const before = Error.stackTraceLimit;
    const inside = withoutStackTraces(() => new Error("inside"));
    expect(inside.stack).to.equal("Error: inside");
    expect(new Error("after").stack).to.include("\n    at ");
    expect(() =>
      withoutStackTraces(() => {
        throw new Error("thrown");
      }),
    ).to.throw("thrown");
    expect(Error.stackTraceLimit).to.equal(before);
  });
});

describe("decodeCursor", () => {
  /** A list's own order (no `orderBy`). */
  const own = (type: ElementType) => listOrder(type);

  it("gives back the position a cursor was written for, by element type", () => {
    const positions: Position[] = [
      ["Decision", "1743465600", 123000000, "d1"],
      ["Decision", null, null, "d7"],
      ["Decision", "-62135596800", 0, "x"],
      // The first and the last servable instants (0000-01-01T00:00Z, 9999-12-31T23:59:59.999999999Z).
      ["Decision", "-62167219200", 0, "first"],
      ["Decision", "253402300799", 999999999, "last"],
      ["Commitment", "2025-05-01", "m1"],
      ["Commitment", "0000-02-29", "m3"],
      ["Commitment", "9999-12-31", "m4"],
      ["Commitment", null, "m2"],
      ["Feature", "Zebra \uE000", "f4"],
      ["Person", null, "p9"],
      ["Topic", "", "t0"],
    ];
    for (const position of positions) {
      expect(decodeCursor(encodeCursor(position), own(position[0] as ElementType))).to.deep.equal(position);
    }
  });

  it("gives back the positions of the orders orderBy chooses, tagged with their order", () => {
    const cases: [Position, ElementType, { field: string; direction: string }][] = [
      [["Decision/REGRET_SCORE/ASC", 0.25, "d1"], "Decision", { field: "REGRET_SCORE", direction: "ASC" }],
      [
        ["Decision/EXECUTION_GAP_DAYS/DESC", -3, "d1"],
        "Decision",
        { field: "EXECUTION_GAP_DAYS", direction: "DESC" },
      ],
      [["Decision/TITLE/DESC", null, "d2"], "Decision", { field: "TITLE", direction: "DESC" }],
      [
        ["Decision/DECIDED_AT/ASC", "1743465600", 5, "d3"],
        "Decision",
        { field: "DECIDED_AT", direction: "ASC" },
      ],
      [
        ["Disagreement/RESOLVED_AT/DESC", null, null, "g1"],
        "Disagreement",
        { field: "RESOLVED_AT", direction: "DESC" },
      ],
      [["Feature/SHIPPED_ON/ASC", "2025-01-31", "f1"], "Feature", { field: "SHIPPED_ON", direction: "ASC" }],
      [["Person/NAME/DESC", "Zoë", "p1"], "Person", { field: "NAME", direction: "DESC" }],
    ];
    for (const [position, type, orderBy] of cases) {
      expect(decodeCursor(encodeCursor(position), listOrder(type, orderBy))).to.deep.equal(position);
      expect(orderOfTag(type, position[0])?.tag).to.equal(position[0]);
    }
    // A key of −0 (Neo4j orders −0.0 apart from 0.0) is written as such, not as 0, and read back
    // a float; any other whole number is read back an integer.
    const zero: Position = ["Decision/REGRET_SCORE/ASC", -0, "d1"];
    const decoded = decodeCursor(
      encodeCursor(zero),
      listOrder("Decision", { field: "REGRET_SCORE", direction: "ASC" }),
    );
    expect(Object.is((decoded as Position)[1], -0)).to.equal(true);
    expect(Object.is(positionOf(encodeCursor(zero))[1], -0)).to.equal(true);
    expect(positionOf(encodeCursor(["Decision/REGRET_SCORE/ASC", 0, "d1"]))[1]).to.deep.equal(neo4j.int(0));
    // orderBy naming a list's own order is that order: its cursors carry the bare type.
    expect(listOrder("Decision", { field: "DECIDED_AT", direction: "DESC" }).tag).to.equal("Decision");
    expect(listOrder("Topic", { field: "NAME", direction: "ASC" }).tag).to.equal("Topic");
    expect(orderOfTag("Decision", "Decision/DECIDED_AT/DESC")).to.equal(undefined);
  });

  it("cuts a text key longer than 256 code points, at a code point, and reads the cut position back", () => {
    const CUT = CURSOR_TEXT_KEY_CODE_POINTS;
    const astral = "\u{1F600}".repeat(CUT + 10);
    for (const [key, kept] of [
      ["a".repeat(CUT), undefined],
      ["a".repeat(CUT + 1), "a".repeat(CUT)],
      ["\u{1F600}".repeat(CUT), undefined],
      [astral, "\u{1F600}".repeat(CUT)],
      ["b".repeat(50_000), "b".repeat(CUT)],
    ] as const) {
      const cursor = cursorFromCypher(["Topic", key, "t1"]);
      const expected: Position = kept === undefined ? ["Topic", key, "t1"] : ["Topic", kept, "t1", true];
      expect(decodeCursor(cursor, own("Topic")), key.slice(0, 8)).to.deep.equal(expected);
      expect(cursor.length, key.slice(0, 8)).to.be.below(1500);
    }
    const damaged = "is not a cursor of this list (damaged, or not a cursor)";
    for (const position of [
      ["Topic", "a".repeat(CUT - 1), "t1", true],
      ["Topic", "a".repeat(CUT + 1), "t1", true],
      ["Topic", "a".repeat(CUT), "t1", false],
      ["Topic", "a".repeat(CUT), null, true],
      ["Decision", "1743465600", 0, "d", true],
    ] as Position[]) {
      expect(decodeCursor(encodeCursor(position), own(position[0] as ElementType))).to.equal(damaged);
    }
    // A date's or an instant's cursor is never cut.
    const instant: Position = ["Decision", "1743465600", 5, "d".repeat(300)];
    expect(decodeCursor(cursorFromCypher(instant), own("Decision"))).to.deep.equal(instant);
  });

  it("refuses another element type's cursor, naming both types", () => {
    expect(decodeCursor(encodeCursor(["Topic", "Pricing", "t1"]), own("Feature"))).to.equal(
      "is a cursor of a list of Topic, not of Feature",
    );
    expect(decodeCursor(encodeCursor(["Topic/NAME/DESC", "Pricing", "t1"]), own("Feature"))).to.equal(
      "is a cursor of a list of Topic, not of Feature",
    );
  });

  it("refuses a cursor of another order of the same list, naming both orders (contract §7)", () => {
    const regret = listOrder("Decision", { field: "REGRET_SCORE", direction: "DESC" });
    const suffix = " (contract §7: a cursor names a position in its own order)";
    expect(decodeCursor(encodeCursor(["Decision", "1743465600", 0, "d1"]), regret)).to.equal(
      `is a cursor of the order DECIDED_AT DESC, not of REGRET_SCORE DESC${suffix}`,
    );
    expect(decodeCursor(encodeCursor(["Decision/REGRET_SCORE/ASC", 0.5, "d1"]), regret)).to.equal(
      `is a cursor of the order REGRET_SCORE ASC, not of REGRET_SCORE DESC${suffix}`,
    );
    expect(decodeCursor(encodeCursor(["Decision/REGRET_SCORE/DESC", 0.5, "d1"]), own("Decision"))).to.equal(
      `is a cursor of the order REGRET_SCORE DESC, not of DECIDED_AT DESC${suffix}`,
    );
  });

  it("refuses anything Cypher would not have written, as damaged", () => {
    const damaged = "is not a cursor of this list (damaged, or not a cursor)";
    const unpadded = encodeCursor(["Topic", "a", "t"]).replace(/=+$/, "");
    const cases: [string, ElementType][] = [
      ["", "Topic"],
      ["=", "Topic"],
      ["!!!!", "Topic"],
      [unpadded, "Topic"],
      [`${encodeCursor(["Topic", "a", "t"])}=`, "Topic"],
      [Buffer.from("not json").toString("base64url"), "Topic"],
      [encodeCursor(["Topic", "a"] as unknown as Position), "Topic"],
      [encodeCursor(["Topic", 1, "t"]), "Topic"],
      [encodeCursor(["Decision", "1.5", 0, "d"]), "Decision"],
      [encodeCursor(["Decision", 1, 0, "d"]), "Decision"],
      [encodeCursor(["Decision", "01", 0, "d"]), "Decision"],
      [encodeCursor(["Decision", "123456789012345678", 0, "d"]), "Decision"],
      [encodeCursor(["Decision", "1", 1e9, "d"]), "Decision"],
      [encodeCursor(["Decision", "1", null, "d"]), "Decision"],
      // Cypher writes a nanosecond as an integer, never −0 (read as a float, Neo4j would fail on it).
      [encodeCursor(["Decision", "1700000000", -0, "d"]), "Decision"],
      [encodeCursor(["Decision", "1", 0, 5] as unknown as Position), "Decision"],
      [encodeCursor(["Decision", "2025-01-01", "d"]), "Decision"],
      [encodeCursor(["Commitment", "2025-5-1", "m"]), "Commitment"],
      [encodeCursor(["Commitment", 20250501, "m"]), "Commitment"],
      // Beyond what a servable value is written as: Neo4j would fail reading it back (a 500).
      [encodeCursor(["Commitment", "2025-02-30", "m"]), "Commitment"],
      [encodeCursor(["Commitment", "2025-13-01", "m"]), "Commitment"],
      [encodeCursor(["Commitment", "2025-00-10", "m"]), "Commitment"],
      [encodeCursor(["Commitment", "10000-01-01", "m"]), "Commitment"],
      [encodeCursor(["Commitment", "-0001-01-01", "m"]), "Commitment"],
      [encodeCursor(["Decision", "253402300800", 0, "d"]), "Decision"],
      [encodeCursor(["Decision", "-62167219201", 0, "d"]), "Decision"],
      [encodeCursor(["Decision", "31556889864403199", 0, "d"]), "Decision"],
      [`${Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]).toString("base64url")}=`, "Topic"],
    ];
    for (const [cursor, type] of cases) expect(decodeCursor(cursor, own(type)), cursor).to.equal(damaged);
    const regret = listOrder("Decision", { field: "REGRET_SCORE", direction: "ASC" });
    for (const position of [
      ["Decision/REGRET_SCORE/ASC", "0.5", "d"],
      ["Decision/REGRET_SCORE/ASC", 0.5, 0, "d"],
      ["Decision/REGRET_SCORE/ASC", 0.5],
      ["Decision/REGRET_SCORE/UP", 0.5, "d"],
      ["Decision/COLOUR/ASC", 0.5, "d"],
      ["Decision/DECIDED_AT/DESC", "1", 0, "d"],
    ] as Position[]) {
      expect(decodeCursor(encodeCursor(position), regret), JSON.stringify(position)).to.equal(damaged);
    }
    // An `Int` order's key is a whole number within 32 bits, as only such a value is served.
    const gaps = listOrder("Decision", { field: "EXECUTION_GAP_DAYS", direction: "DESC" });
    for (const key of [3e9, -2147483649, 2.5, 1e19]) {
      const position: Position = ["Decision/EXECUTION_GAP_DAYS/DESC", key, "d"];
      expect(decodeCursor(encodeCursor(position), gaps), String(key)).to.equal(damaged);
    }
    for (const key of [2147483647, -2147483648, 0, null]) {
      const position: Position = ["Decision/EXECUTION_GAP_DAYS/DESC", key, "d"];
      expect(decodeCursor(encodeCursor(position), gaps), String(key)).to.deep.equal(position);
    }
  });
});

describe("dateProblem (contract §3's Date)", () => {
  it("accepts YYYY-MM-DD naming a real day of the proleptic Gregorian calendar", () => {
    for (const value of [
      "2025-03-31",
      "2024-02-29",
      "2000-02-29",
      "0001-01-01",
      "9999-12-31",
      "2025-12-31",
    ]) {
      expect(dateProblem(value), value).to.equal(undefined);
    }
  });

  it("names the problem of anything else", () => {
    expect(dateProblem("2024-02-30")).to.equal(
      'Date "2024-02-30" names no calendar day: February 2024 has 29 days.',
    );
    expect(dateProblem("2100-02-29")).to.match(/February 2100 has 28 days/);
    expect(dateProblem("2025-06-31")).to.match(/June 2025 has 30 days/);
    expect(dateProblem("2025-13-01")).to.match(/there is no month 13/);
    for (const value of [
      " 2025-03-31",
      "2025-03-31\n",
      "2025-03-31\u0000",
      "2025-3-31",
      "+2025-03-31",
      "２０２５-03-31",
    ]) {
      expect(dateProblem(value), JSON.stringify(value)).to.match(/is not of the form YYYY-MM-DD/);
    }
    expect(dateProblem("x".repeat(5000))?.length).to.be.below(150);
  });
});

describe("isSupportedNeo4jVersion", () => {
  it("accepts 5.26 LTS and the calendar releases, nothing older", () => {
    const versions = ["5.26.0", "5.26.30", "2025.01.0", "2026.09.0", "5.25.1", "5.4.0", "4.4.40"];
    expect(versions.filter(isSupportedNeo4jVersion)).to.deep.equal([
      "5.26.0",
      "5.26.30",
      "2025.01.0",
      "2026.09.0",
    ]);
  });
});

describe("servable (contract §3: a stored value the schema can serve)", () => {
  const scalar = (name: string) => new GraphQLScalarType({ name });
  const status = new GraphQLEnumType({ name: "DecisionStatus", values: { DECIDED: {}, PROPOSED: {} } });

  it("serves the values of §8's types, whole numbers from the driver as numbers", () => {
    expect(servable(GraphQLID, "d-1")).to.deep.equal({ value: "d-1" });
    expect(servable(GraphQLBoolean, false)).to.deep.equal({ value: false });
    expect(servable(GraphQLInt, neo4j.int(12))).to.deep.equal({ value: 12 });
    expect(servable(GraphQLInt, 12)).to.deep.equal({ value: 12 });
    expect(servable(GraphQLFloat, neo4j.int(1))).to.deep.equal({ value: 1 });
    expect(servable(GraphQLFloat, 0.25)).to.deep.equal({ value: 0.25 });
    expect(servable(status, "DECIDED")).to.deep.equal({ value: "DECIDED" });
    const day = new neo4j.types.Date(2025, 3, 31);
    expect(servable(scalar("Date"), day)).to.deep.equal({ value: day });
    // An instant as a query projects it (src/cypher/compile.ts): its epoch milliseconds, as the library's
    // serialiser hands them on (a number), or as the driver reads them.
    for (const text of [
      "0000-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "2025-03-31T14:05:00.123Z",
      "9999-12-31T23:59:59.999Z",
    ]) {
      expect(servable(scalar("DateTime"), Date.parse(text))).to.deep.equal({ value: text });
      expect(servable(scalar("DateTime"), neo4j.int(Date.parse(text)))).to.deep.equal({ value: text });
    }
  });

  it("names the problem of anything else", () => {
    expect(servable(GraphQLID, 7)).to.equal("type");
    expect(servable(GraphQLBoolean, "yes")).to.equal("type");
    expect(servable(GraphQLInt, 1.5)).to.equal("type");
    expect(servable(GraphQLInt, neo4j.int(2 ** 31))).to.equal("range");
    expect(servable(GraphQLFloat, "0.5")).to.equal("type");
    expect(servable(status, "ARCHIVED")).to.equal("enum");
    expect(servable(status, 3)).to.equal("type");
    expect(servable(scalar("Date"), "2025-03-31")).to.equal("type");
    expect(servable(scalar("Date"), new neo4j.types.Date(10000, 1, 1))).to.equal("range");
    expect(servable(scalar("Date"), new neo4j.types.Date(-1, 1, 1))).to.equal("range");
    // A DATETIME of another type reads false, one beyond the years 0000–9999 'out of range' (compile.ts).
    expect(servable(scalar("DateTime"), false)).to.equal("type");
    expect(servable(scalar("DateTime"), "2025-03-31T14:05:00.000Z")).to.equal("type");
    expect(servable(scalar("DateTime"), "out of range")).to.equal("range");
    expect(servable(scalar("DateTime"), Date.parse("+010000-01-01T00:00:00.000Z"))).to.equal("range");
    expect(servable(scalar("DateTime"), Date.parse("0000-01-01T00:00:00.000Z") - 1)).to.equal("range");
  });
});
