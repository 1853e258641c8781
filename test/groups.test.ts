import { expect } from "chai";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

type Row = Record<string, unknown>;

/** The data of a query, asserting a 200 without errors first. */
async function data(service: RunningService, query: string): Promise<Record<string, Row[]>> {
  const { status, body } = await service.graphql(query);
  expect(body.errors, `${query}\n${JSON.stringify(body.errors)}`).to.equal(undefined);
  expect(status).to.equal(200);
  return body.data as Record<string, Row[]>;
}

interface Stats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number | null;
}

/** NumberStats over the non-null values, rounded so that float sums compare. */
function stats(values: unknown[]): Stats {
  const present = values.filter((v): v is number => typeof v === "number");
  if (present.length === 0) return { count: 0, min: null, max: null, avg: null, sum: null };
  const sum = present.reduce((a, b) => a + b, 0);
  return round({
    count: present.length,
    min: Math.min(...present),
    max: Math.max(...present),
    avg: sum / present.length,
    sum,
  });
}
const round = (s: Stats): Stats => {
  const r = (n: number | null) => (n === null ? null : Math.round(n * 1e9) / 1e9);
  return { count: s.count, min: r(s.min), max: r(s.max), avg: r(s.avg), sum: r(s.sum) };
};

/** A dimension of the oracle: its group field, its value for a listed row, and its sort key. */
interface Dimension {
  field: string;
  value: (row: Row) => unknown;
  key?: (value: unknown) => unknown;
}
const link = (field: string): Dimension => ({
  field,
  value: (row) => row[field] ?? null,
  key: (value) => (value as { id: string } | null)?.id ?? null,
});
const plain = (field: string, from = field): Dimension => ({ field, value: (row) => row[from] ?? null });
/** A time bucket of contract §7 (UTC), from the instant a listed row serves as text. */
const bucket = (field: string, from: string, of: (at: Date) => string): Dimension => ({
  field,
  value: (row) => {
    const at = row[from];
    return typeof at === "string" ? of(new Date(at)) : null;
  },
  // Oldest first: each bucket's text sorts as its first day does (the years here are 0000–9999).
});
const day = (at: Date) => at.toISOString().slice(0, 10);
const month = (at: Date) => at.toISOString().slice(0, 7);
const quarter = (at: Date) =>
  `${String(at.getUTCFullYear())}-Q${String(Math.floor(at.getUTCMonth() / 3) + 1)}`;
const year = (at: Date) => String(at.getUTCFullYear()).padStart(4, "0");
/** ISO 8601's week: the week-year is that of the week's Thursday. */
export function isoWeek(at: Date): string {
  const thursday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  thursday.setUTCDate(thursday.getUTCDate() + 3 - ((thursday.getUTCDay() + 6) % 7));
  const firstOfYear = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - firstOfYear) / 86_400_000 / 7) + 1;
  return `${String(thursday.getUTCFullYear()).padStart(4, "0")}-W${String(week).padStart(2, "0")}`;
}
const timeBuckets = (from: string): Record<string, Dimension> => ({
  MONTH: bucket("month", from, month),
  DAY: bucket("day", from, day),
  WEEK: bucket("week", from, isoWeek),
  QUARTER: bucket("quarter", from, quarter),
  YEAR: bucket("year", from, year),
});

type GroupOrder = "COUNT_DESC" | "COUNT_ASC" | "DIMENSIONS";

/**
 * Contract §7's groups computed in TypeScript from the list field's rows (which other tests pin
 * down): one group per distinct combination of the `by` dimensions, the others null, ordered by
 * count (descending, ascending or not at all, as `order` says) then the dimensions in `by` order
 * ascending with nulls last.
 */
function oracle(
  rows: Row[],
  all: Record<string, Dimension>,
  by: string[],
  statsOf: string[] = [],
  order: GroupOrder = "COUNT_DESC",
): Row[] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = JSON.stringify(by.map((name) => all[name]?.value(row)));
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const compare = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return (a as string) < (b as string) ? -1 : 1;
  };
  const answer = [...groups.values()].map((members) => {
    const group: Row = {};
    for (const [name, dimension] of Object.entries(all)) {
      group[dimension.field] = by.includes(name) ? (dimension.value(members[0] as Row) ?? null) : null;
    }
    group.count = members.length;
    for (const property of statsOf) group[property] = stats(members.map((m) => m[property]));
    return group;
  });
  return answer.sort((a, b) => {
    if (a.count !== b.count && order !== "DIMENSIONS")
      return order === "COUNT_DESC"
        ? (b.count as number) - (a.count as number)
        : (a.count as number) - (b.count as number);
    for (const name of by) {
      const dimension = all[name] as Dimension;
      const key = dimension.key ?? ((v: unknown) => v);
      const order = compare(key(a[dimension.field]), key(b[dimension.field]));
      if (order !== 0) return order;
    }
    return 0;
  });
}

const DECISION_DIMENSIONS: Record<string, Dimension> = {
  STATUS: plain("status"),
  TOPIC: link("topic"),
  DECIDED_BY: link("decidedBy"),
  ...timeBuckets("decidedAt"),
};
const FEATURE_DIMENSIONS: Record<string, Dimension> = {
  STAGE: plain("stage"),
  TEAM: plain("team"),
  SHIPPED: plain("shipped"),
  OWNER: link("owner"),
};
const DISAGREEMENT_DIMENSIONS: Record<string, Dimension> = {
  TOPIC: link("topic"),
  RESOLVED: plain("resolved"),
  ...timeBuckets("raisedAt"),
};

/** Every non-empty ordered selection of up to `max` distinct names. */
function arrangements(names: string[], max = 2): string[][] {
  const out: string[][] = [];
  const extend = (prefix: string[]) => {
    if (prefix.length > 0) out.push(prefix);
    if (prefix.length === max) return;
    for (const name of names) if (!prefix.includes(name)) extend([...prefix, name]);
  };
  extend([]);
  return out;
}

/** Each bucket but MONTH alone and after `other` (every arrangement of all would be many new shapes to plan). */
const withBuckets = (other: string): string[][] =>
  ["DAY", "WEEK", "QUARTER", "YEAR"].flatMap((bucket) => [[bucket], [other, bucket]]);

describe("groups (contract §7, v1 additions) on the fixture graph", () => {
  let service: RunningService;
  before(async () => {
    await loadFixtures();
    service = await startService();
  });
  after(() => service.close());

  const roundStats = (groups: Row[], properties: string[]) =>
    groups.map((g) => ({
      ...g,
      ...Object.fromEntries(properties.map((p) => [p, round(g[p] as Stats)])),
    }));

  describe("decisionGroups agree with the decisions list, for every order of up to two dimensions and filters", () => {
    for (const filters of [
      "",
      'topicId: "t1"',
      'since: "2025-03-31"',
      'until: "2025-03-30"',
      "status: DECIDED",
    ]) {
      it(`decisionGroups(${filters})`, async () => {
        const comma = filters === "" ? "" : `${filters}, `;
        const listed = await data(
          service,
          `{ decisions(${comma}limit: 100) { status decidedAt regretScore executionGapDays topic { id } decidedBy { id } } }`,
        );
        for (const by of [
          ...arrangements(["STATUS", "TOPIC", "DECIDED_BY", "MONTH"]),
          ...withBuckets("TOPIC"),
          ["MONTH", "DECIDED_BY", "TOPIC", "STATUS"],
          ["YEAR", "QUARTER", "WEEK", "DAY"],
        ]) {
          const { decisionGroups } = await data(
            service,
            `{ decisionGroups(${comma}by: [${by.join(", ")}], limit: 100) {
              status topic { id } decidedBy { id } month day week quarter year count
              regretScore { count min max avg sum } executionGapDays { count min max avg sum } } }`,
          );
          const stats = ["regretScore", "executionGapDays"];
          expect(roundStats(decisionGroups ?? [], stats), by.join(", ")).to.deep.equal(
            oracle(listed.decisions ?? [], DECISION_DIMENSIONS, by, stats),
          );
        }
      });
    }
  });

  // Issue 22: a group by one indexed property over a whole label is counted from the index; the
  // rows without the property (the ingest wrote none) still form their own group.
  it("counts decisionGroups(by: [STATUS]) from the index, decisions without a status as one group", async () => {
    const query = "{ decisionGroups(by: [STATUS], limit: 100) { status count } }";
    const before = (await data(service, query)).decisionGroups ?? [];
    const driver = testDriver();
    await driver.executeQuery(
      "CREATE (:Decision {id: 'd-no-status', title: 'No status yet'})",
      {},
      {
        database: testDatabase,
      },
    );
    try {
      const after = (await data(service, query)).decisionGroups ?? [];
      // Count descending, then the status, nulls last.
      // Count descending, then the status, nulls last ("~" sorts after every enum value).
      const status = (row: Row) => (row.status === null ? "~" : (row.status as string));
      const expected = [...before, { status: null, count: 1 }].sort(
        (x, y) =>
          (y.count as number) - (x.count as number) ||
          (status(x) < status(y) ? -1 : status(x) > status(y) ? 1 : 0),
      );
      expect(after).to.deep.equal(expected);
    } finally {
      await driver.executeQuery(
        "MATCH (d:Decision {id: 'd-no-status'}) DETACH DELETE d",
        {},
        {
          database: testDatabase,
        },
      );
    }
  });

  // Two stored values near the largest Float: their mean is one, their sum is not (contract §7: a
  // statistic is null only when there are no values; §3: what the schema cannot write is a field error).
  it("averages values near the largest Float, and answers a sum past it as a field error, not a null", async () => {
    const driver = testDriver();
    await driver.executeQuery(
      `CREATE (t:Topic {id: 't-huge', name: 'Huge'})
       CREATE (:Decision {id: 'd-huge-1', title: 'Huge 1', status: 'DECIDED', regretScore: 1.7e308})-[:ABOUT]->(t)
       CREATE (:Decision {id: 'd-huge-2', title: 'Huge 2', status: 'DECIDED', regretScore: 1.0e308})-[:ABOUT]->(t)
       CREATE (:Decision {id: 'd-huge-3', title: 'Huge 3', status: 'PROPOSED', regretScore: 1.7e308})-[:ABOUT]->(t)
       CREATE (:Decision {id: 'd-huge-4', title: 'Huge 4', status: 'PROPOSED', regretScore: -1.0e308})-[:ABOUT]->(t)`,
      {},
      { database: testDatabase },
    );
    try {
      const { status, body } = await service.graphql(
        '{ decisionGroups(topicId: "t-huge", by: [STATUS]) { status count regretScore { count max avg total: sum } } }',
      );
      expect(status).to.equal(200);
      const [decided, proposed, ...none] = (body.data as { decisionGroups: Row[] }).decisionGroups;
      expect(none).to.deep.equal([]);
      // 1.7e308 + 1.0e308 overflows: the mean is Neo4j's own.
      expect(decided).to.deep.equal({
        status: "DECIDED",
        count: 2,
        regretScore: { count: 2, max: 1.7e308, avg: 1.35e308, total: null },
      });
      // Neo4j's running mean of 1.7e308 and -1.0e308 overflows (its step x - avg): sum / count.
      const stats = proposed?.regretScore as { avg: number; total: number };
      expect(proposed?.status).to.equal("PROPOSED");
      expect(stats.avg / 3.5e307).to.be.closeTo(1, 1e-9);
      expect(stats.total / 7e307).to.be.closeTo(1, 1e-9);
      expect(body.errors).to.have.length(1);
      const [error] = body.errors as { message: string; path: unknown[]; extensions: { code: string } }[];
      expect(error?.path).to.deep.equal(["decisionGroups", 0, "regretScore", "total"]);
      expect(error?.extensions.code).to.equal("invalid_stored_value");
      expect(error?.message).to.match(/sum that Float cannot write/);
    } finally {
      await driver.executeQuery(
        "MATCH (n {id: 't-huge'}) OPTIONAL MATCH (d:Decision)-[:ABOUT]->(n) DETACH DELETE n, d",
        {},
        {
          database: testDatabase,
        },
      );
    }
  });

  it("featureGroups agree with the features list (nulls, the team `platform` beside `Platform`)", async () => {
    for (const filters of ["", "shipped: false", 'ownerId: "p1"']) {
      const comma = filters === "" ? "" : `${filters}, `;
      const listed = await data(
        service,
        `{ features(${comma}limit: 100) { stage team shipped owner { id } } }`,
      );
      for (const by of [
        ...arrangements(Object.keys(FEATURE_DIMENSIONS)),
        ["OWNER", "SHIPPED", "TEAM", "STAGE"],
      ]) {
        const { featureGroups } = await data(
          service,
          `{ featureGroups(${comma}by: [${by.join(", ")}], limit: 100) { stage team shipped owner { id } count } }`,
        );
        expect(featureGroups, `${filters} ${by.join(", ")}`).to.deep.equal(
          oracle(listed.features ?? [], FEATURE_DIMENSIONS, by),
        );
      }
    }
  });

  it("disagreementGroups and customerGroups agree with their lists", async () => {
    const listed = await data(service, "{ disagreements(limit: 100) { topic { id } resolved raisedAt } }");
    for (const by of [...arrangements(["TOPIC", "RESOLVED", "MONTH"], 3), ...withBuckets("RESOLVED")]) {
      const { disagreementGroups } = await data(
        service,
        `{ disagreementGroups(by: [${by.join(", ")}], limit: 100) { topic { id } resolved month day week quarter year count } }`,
      );
      expect(disagreementGroups, by.join(", ")).to.deep.equal(
        oracle(listed.disagreements ?? [], DISAGREEMENT_DIMENSIONS, by),
      );
    }
    const { customerGroups } = await data(service, "{ customerGroups(by: [HEALTH]) { health count } }");
    expect(customerGroups).to.deep.equal([
      { health: "AT_RISK", count: 1 },
      { health: "CHURNED", count: 1 },
      { health: "HEALTHY", count: 1 },
    ]);
  });

  it("states the fixture's groups by status with their NumberStats over non-null values", async () => {
    const { decisionGroups } = await data(
      service,
      "{ decisionGroups(by: [STATUS]) { status count regretScore { count min max avg sum } executionGapDays { count sum } } }",
    );
    expect(roundStats(decisionGroups ?? [], ["regretScore"])).to.deep.equal([
      {
        status: "DECIDED",
        count: 5,
        regretScore: { count: 3, min: 0.2, max: 1, avg: 0.566666667, sum: 1.7 },
        executionGapDays: { count: 1, sum: 0 },
      },
      {
        status: "EXECUTED",
        count: 2,
        regretScore: { count: 1, min: 0.2, max: 0.2, avg: 0.2, sum: 0.2 },
        executionGapDays: { count: 2, sum: 20 },
      },
      {
        status: "SUPERSEDED",
        count: 2,
        regretScore: { count: 0, min: null, max: null, avg: null, sum: null },
        executionGapDays: { count: 0, sum: null },
      },
      {
        status: "PROPOSED",
        count: 1,
        regretScore: { count: 0, min: null, max: null, avg: null, sum: null },
        executionGapDays: { count: 0, sum: null },
      },
      {
        status: "REVERSED",
        count: 1,
        regretScore: { count: 1, min: 0.9, max: 0.9, avg: 0.9, sum: 0.9 },
        executionGapDays: { count: 1, sum: 30 },
      },
    ]);
  });

  it("answers each NumberStats field alone, under aliases, as it does among the others", async () => {
    // The statement aggregates only what the selected fields need (`avg`: `sum` and `count`).
    const all = await data(
      service,
      "{ decisionGroups(by: [STATUS]) { status regretScore { count min max avg sum } executionGapDays { sum } } }",
    );
    const alone = await data(
      service,
      `{ decisionGroups(by: [STATUS]) { status a: regretScore { avg } m: regretScore { max }
          n: regretScore { min } t: regretScore { __typename } executionGapDays { sum } } }`,
    );
    const expected = (all.decisionGroups ?? []).map((group) => {
      const stats = group.regretScore as Row;
      return {
        status: group.status,
        a: { avg: stats.avg },
        m: { max: stats.max },
        n: { min: stats.min },
        t: { __typename: "NumberStats" },
        executionGapDays: group.executionGapDays,
      };
    });
    expect(expected).to.have.length(5);
    expect(alone.decisionGroups).to.deep.equal(expected);
  });

  it("answers a link's field selected under two aliases", async () => {
    const { decisionGroups } = await data(
      service,
      "{ decisionGroups(by: [TOPIC], limit: 1) { topic { id again: id } count } }",
    );
    expect(decisionGroups).to.deep.equal([{ topic: { id: "t1", again: "t1" }, count: 4 }]);
  });

  it("groups a month in UTC, whatever offset an instant was written with, and cuts to `limit`", async () => {
    const { decisionGroups } = await data(
      service,
      "{ decisionGroups(by: [MONTH], limit: 2) { month count } }",
    );
    // d10 is 2025-03-31T23:59:59.999Z written on April 1st (+02:00); d5 is April 1st 00:00Z.
    expect(decisionGroups).to.deep.equal([
      { month: "2025-03", count: 8 },
      { month: null, count: 2 },
    ]);
  });

  // Contract §7 part 2: ISO 8601 weeks belong to the week-year of their Thursday.
  it("numbers weeks at year edges as ISO 8601 does, in UTC, and writes each bucket", async () => {
    const driver = testDriver();
    const at = [
      ["w1", "2020-12-31T12:00:00Z"],
      ["w2", "2021-01-03T23:30:00Z"],
      // 2021-01-04 (a Monday) in Paris, still Sunday 2021-01-03 in UTC.
      ["w3", "2021-01-04T00:30:00+01:00"],
      ["w4", "2024-12-30T00:00:00Z"],
      ["w5", "2024-12-29T23:59:59.999Z"],
      ["w6", "2027-01-01T00:00:00Z"],
    ];
    await driver.executeQuery(
      `CREATE (t:Topic {id: 't-weeks', name: 'Weeks'})
       WITH t UNWIND $at AS row
       CREATE (:Decision {id: row[0], title: row[0], status: 'DECIDED', decidedAt: datetime(row[1])})-[:ABOUT]->(t)`,
      { at },
      { database: testDatabase },
    );
    try {
      const groupsBy = async (dimension: string) =>
        (
          await data(
            service,
            `{ decisionGroups(topicId: "t-weeks", by: [${dimension}], orderBy: DIMENSIONS) { day week quarter year month count } }`,
          )
        ).decisionGroups;
      const only = (field: string, rows: [string, number][]) =>
        rows.map(([value, count]) => ({
          day: null,
          week: null,
          quarter: null,
          year: null,
          month: null,
          [field]: value,
          count,
        }));
      expect(await groupsBy("WEEK")).to.deep.equal(
        only("week", [
          ["2020-W53", 3],
          ["2024-W52", 1],
          ["2025-W01", 1],
          ["2026-W53", 1],
        ]),
      );
      expect(await groupsBy("DAY")).to.deep.equal(
        only("day", [
          ["2020-12-31", 1],
          ["2021-01-03", 2],
          ["2024-12-29", 1],
          ["2024-12-30", 1],
          ["2027-01-01", 1],
        ]),
      );
      expect(await groupsBy("QUARTER")).to.deep.equal(
        only("quarter", [
          ["2020-Q4", 1],
          ["2021-Q1", 2],
          ["2024-Q4", 2],
          ["2027-Q1", 1],
        ]),
      );
      expect(await groupsBy("YEAR")).to.deep.equal(
        only("year", [
          ["2020", 1],
          ["2021", 2],
          ["2024", 2],
          ["2027", 1],
        ]),
      );
      for (const [, instant] of at) expect(isoWeek(new Date(instant as string))).to.match(/^\d{4}-W\d{2}$/);
    } finally {
      await driver.executeQuery(
        "MATCH (n) WHERE n.id IN ['t-weeks', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6'] DETACH DELETE n",
        {},
        {
          database: testDatabase,
        },
      );
    }
  });

  describe("orderBy: GroupOrder agrees with the oracle for every group list", () => {
    for (const order of ["COUNT_DESC", "COUNT_ASC", "DIMENSIONS"] as const) {
      it(`orders groups ${order}, ties by the dimensions ascending, nulls last`, async () => {
        const listed = await data(
          service,
          "{ decisions(limit: 100) { status decidedAt topic { id } decidedBy { id } } disagreements(limit: 100) { topic { id } resolved raisedAt } features(limit: 100) { stage team shipped owner { id } } }",
        );
        for (const by of [
          ["STATUS"],
          ["TOPIC", "WEEK"],
          ["DAY", "STATUS"],
          ["DECIDED_BY"],
          ["YEAR", "TOPIC"],
        ]) {
          const { decisionGroups } = await data(
            service,
            `{ decisionGroups(by: [${by.join(", ")}], orderBy: ${order}, limit: 100) { status topic { id } decidedBy { id } month day week quarter year count } }`,
          );
          expect(decisionGroups, by.join(", ")).to.deep.equal(
            oracle(listed.decisions ?? [], DECISION_DIMENSIONS, by, [], order),
          );
        }
        for (const by of [["TOPIC"], ["RESOLVED", "QUARTER"]]) {
          const { disagreementGroups } = await data(
            service,
            `{ disagreementGroups(by: [${by.join(", ")}], orderBy: ${order}) { topic { id } resolved month day week quarter year count } }`,
          );
          expect(disagreementGroups, by.join(", ")).to.deep.equal(
            oracle(listed.disagreements ?? [], DISAGREEMENT_DIMENSIONS, by, [], order),
          );
        }
        const { featureGroups } = await data(
          service,
          `{ featureGroups(by: [TEAM, SHIPPED], orderBy: ${order}) { stage team shipped owner { id } count } }`,
        );
        expect(featureGroups).to.deep.equal(
          oracle(listed.features ?? [], FEATURE_DIMENSIONS, ["TEAM", "SHIPPED"], [], order),
        );
      });
    }

    it("reads orderBy: null as COUNT_DESC and takes it from a variable", async () => {
      const expected = await data(service, "{ customerGroups(by: [HEALTH]) { health count } }");
      expect(
        await data(service, "{ customerGroups(by: [HEALTH], orderBy: null) { health count } }"),
      ).to.deep.equal(expected);
      const { status, body } = await service.graphql(
        "query ($o: GroupOrder) { customerGroups(by: [HEALTH], orderBy: $o) { health count } }",
        { o: "DIMENSIONS" },
      );
      expect(status).to.equal(200);
      expect(body.data.customerGroups.map((g: Row) => g.health)).to.deep.equal([
        "AT_RISK",
        "CHURNED",
        "HEALTHY",
      ]);
    });
  });

  describe("refusals (422 validation_failed) on both sides of `by`'s limits", () => {
    const refused = async (query: string) => {
      const { status, body } = await service.graphql(query);
      expect(status, JSON.stringify(body)).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
      return body.errors[0].message as string;
    };

    it("takes 1 and 4 distinct dimensions, refuses none and a repeated one", async () => {
      await data(service, "{ decisionGroups(by: [MONTH]) { count } }");
      await data(service, "{ decisionGroups(by: [STATUS, TOPIC, DECIDED_BY, MONTH]) { count } }");
      expect(await refused("{ decisionGroups(by: []) { count } }")).to.equal(
        'Argument "by" on field "Query.decisionGroups" must name 1 to 4 distinct dimensions; got [].',
      );
      expect(await refused("{ featureGroups(by: [TEAM, STAGE, TEAM]) { count } }")).to.equal(
        'Argument "by" on field "Query.featureGroups" must name 1 to 4 distinct dimensions; got [TEAM, STAGE, TEAM].',
      );
      const viaVariable = await service.graphql(
        "query ($by: [CustomerDimension!]!) { customerGroups(by: $by) { count } }",
        { by: ["HEALTH", "HEALTH"] },
      );
      expect(viaVariable.status).to.equal(422);
      await refused("{ decisionGroups(by: [STATUS], limit: 0) { count } }");
      await refused("{ decisionGroups(by: [COLOUR]) { count } }");
    });
  });

  it("costs a group list as a list of its `limit`, its links and NumberStats as objects (§5)", async () => {
    const { body } = await service.graphql(
      "{ decisionGroups(by: [TOPIC], limit: 10) { topic { name } count regretScore { avg } } }",
    );
    expect(body.extensions.cost).to.deep.equal({ requested: 30, limit: 50000 });
  });
});
