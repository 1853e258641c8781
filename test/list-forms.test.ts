// One question, every form of it (contract §7): a list, a shorter page of it, its connection read
// whole and paged by cursors, and (for a root list without a search) its group list summed; root
// lists with any filters, search and order, and nested lists under one parent row. Each form is
// compiled by other code (lists.ts, connections.ts, cursor.ts, groups.ts, the estimates' starts),
// so a property asking them to agree finds where one keeps or orders rows differently. Run over
// the fixture graph and the one the ingest got wrong, by a service that reads row estimates and one
// that does not, whose rows must agree too.
import { expect } from "chai";
import fc from "fast-check";
import { isEnumType, isObjectType, type GraphQLSchema } from "graphql";
import { isDate, isInt } from "neo4j-driver";
import { DOMAIN, ELEMENT_TYPES, type ElementType, type Filter } from "../src/domain/table.js";
import { loadBadValues, loadFixtures } from "./support/fixtures.js";
import { timeLimit } from "./support/fuzz.js";
import { buildTestSchema, startCountingService, type RunningService } from "./support/service.js";
import { readGraph, type StoredGraph } from "./support/where-oracle.js";

/** The element types with a root list, and what their list field takes. */
const LISTS = ELEMENT_TYPES.flatMap((type) => {
  const list = DOMAIN[type].list;
  return list === undefined ? [] : [{ type, list, groups: DOMAIN[type].groups }];
});

/** Days around the fixtures' instants, their zones' edges included. */
const DAYS = [
  "2024-12-31",
  "2025-01-01",
  "2025-03-30",
  "2025-03-31",
  "2025-04-01",
  "2025-04-02",
  "2026-01-01",
];

/** A GraphQL literal of `value`. */
const literal = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : String(value);

/** The values a generated argument takes for a filter: the graph's own, and a few it does not hold. */
function candidates(
  schema: GraphQLSchema,
  graph: StoredGraph,
  type: ElementType,
  filter: Filter,
): { argument: string; values: string[] }[] {
  if (filter.kind === "dayRange")
    return [filter.since, filter.until].map((argument) => ({ argument, values: DAYS.map(literal) }));
  const declared = (DOMAIN[type].properties[filter.property] ?? "String").replace(/!$/, "");
  const enumType = schema.getType(declared);
  if (isEnumType(enumType))
    return [{ argument: filter.argument, values: enumType.getValues().map((value) => value.name) }];
  if (declared === "Boolean") return [{ argument: filter.argument, values: ["true", "false"] }];
  const stored = graph.nodes
    .filter((node) => node.label === type)
    .map((node) => node.properties[filter.property])
    .map((value) => (isInt(value) ? value.toNumber() : value));
  // Only what the argument's type takes: text in a number property, or a fraction in an Int, is not asked.
  const own = stored.filter((value) =>
    declared === "String"
      ? typeof value === "string"
      : typeof value === "number" &&
        (declared === "Int" ? Number.isInteger(value) && Math.abs(value) < 2 ** 31 : Number.isFinite(value)),
  );
  const more = declared === "String" ? ["nobody's"] : declared === "Int" ? [0, 100] : [0, 0.5, -1];
  return [{ argument: filter.argument, values: [...new Set([...own, ...more])].map(literal) }];
}

/** Words of the rows' searched text (and their starts), and one word no row holds. */
function searchWords(graph: StoredGraph, type: ElementType, properties: readonly string[]): string[] {
  const words = graph.nodes
    .filter((node) => node.label === type)
    .flatMap((node) => properties.map((property) => node.properties[property]))
    .filter((text): text is string => typeof text === "string")
    .flatMap((text) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== ""));
  return [...new Set([...words, ...words.map((word) => word.slice(0, 2)), "zzyzx", "a AND (b"])];
}

/**
 * `where` conditions on the properties a list orders by (where-seeks.ts starts a page from such a
 * bound): a comparison with one of the stored values, or `isNull`, maybe negated.
 */
function whereConditions(graph: StoredGraph, type: ElementType): string[] {
  const rows = graph.nodes.filter((node) => node.label === type);
  return [...new Set(Object.values(DOMAIN[type].orders))].flatMap((property) => {
    const declared = (DOMAIN[type].properties[property] ?? "String").replace(/!$/, "");
    const operands = rows.flatMap((node): string[] => {
      const value = node.properties[property];
      const instant = node.instants[property];
      if (declared === "DateTime")
        return instant === undefined
          ? []
          : [
              JSON.stringify(
                new Date(instant.seconds * 1000 + Math.floor(instant.nanosecond / 1e6)).toISOString(),
              ),
            ];
      if (declared === "Date") return isDate(value) ? [JSON.stringify(value.toString())] : [];
      const number = isInt(value) ? value.toNumber() : value;
      if (declared === "String") return typeof number === "string" ? [JSON.stringify(number)] : [];
      if (typeof number !== "number" || !Number.isFinite(number)) return [];
      return declared === "Int" && !(Number.isInteger(number) && Math.abs(number) < 2 ** 31)
        ? []
        : [String(number)];
    });
    const tests = [
      // A StringFilter compares by equality and parts, not by range.
      ...(declared === "String" ? ["eq", "startsWith"] : ["eq", "gte", "lt"]).flatMap((operator) =>
        operands.map((operand) => `{ ${operator}: ${operand} }`),
      ),
      "{ isNull: true }",
    ];
    return tests.flatMap((test) => [`{ ${property}: ${test} }`, `{ NOT: { ${property}: ${test} } }`]);
  });
}

interface Question {
  type: ElementType;
  field: string;
  /** The filters, `where` and search, as GraphQL arguments (`status: DECIDED, search: "x"`), without the order. */
  filters: string;
  /** The filters and `where`: what the group list takes. */
  groupFilters: string;
  orderBy: string;
  pageSize: number;
  groups?: { field: string; by: string };
}

function questionArbitrary(schema: GraphQLSchema, graph: StoredGraph): fc.Arbitrary<Question> {
  return fc.constantFrom(...LISTS).chain(({ type, list, groups }) => {
    const filterArguments = list.filters.flatMap((filter) => candidates(schema, graph, type, filter));
    const parentIds = list.parent
      ? graph.nodes
          .filter((node) => node.label === DOMAIN[type].links[list.parent?.link ?? ""]?.to)
          .map((node) => node.properties.id)
          .filter((id): id is string => typeof id === "string")
      : [];
    const given = [
      ...filterArguments,
      ...(list.parent
        ? [{ argument: list.parent.argument, values: [...parentIds, "nobody"].map(literal) }]
        : []),
    ];
    const dimensions = (groups?.dimensions ?? []).map((row) => ("by" in row ? row.by : "MONTH"));
    return fc
      .record({
        given: fc
          .subarray(given)
          .chain((chosen) =>
            fc.tuple(
              ...chosen.map(({ argument, values }) =>
                fc.constantFrom(...values).map((v) => `${argument}: ${v}`),
              ),
            ),
          ),
        search: fc.option(fc.constantFrom(...searchWords(graph, type, list.search.properties)), { freq: 3 }),
        where: fc.option(fc.constantFrom(...whereConditions(graph, type)), { freq: 2 }),
        order: fc.option(
          fc.record({
            field: fc.constantFrom(...Object.keys(DOMAIN[type].orders)),
            direction: fc.constantFrom("ASC", "DESC"),
          }),
        ),
        pageSize: fc.integer({ min: 1, max: 4 }),
        by: dimensions.length === 0 ? fc.constant(undefined) : fc.constantFrom(...dimensions),
      })
      .map(({ given, search, where, order, pageSize, by }): Question => {
        const conditions = [...given, ...(where === null ? [] : [`where: ${where}`])];
        const filters = [...conditions, ...(search === null ? [] : [`search: ${JSON.stringify(search)}`])];
        return {
          type,
          field: list.field,
          filters: filters.join(", "),
          groupFilters: conditions.join(", "),
          orderBy: order === null ? "" : `orderBy: { field: ${order.field}, direction: ${order.direction} }`,
          pageSize,
          ...(groups !== undefined && by !== undefined && search === null
            ? { groups: { field: groups.field, by } }
            : {}),
        };
      });
  });
}

const args = (...parts: string[]) => parts.filter((part) => part !== "").join(", ");

/** A nested list of one parent row (`topics(where: { id: { eq: "t1" } }) { decisions … }`), in an order. */
interface NestedQuestion {
  /** The root list reading the parent, and the parent's id. */
  parent: { field: string; id: string };
  link: string;
  orderBy: string;
  pageSize: number;
}

function nestedQuestionArbitrary(schema: GraphQLSchema, graph: StoredGraph): fc.Arbitrary<NestedQuestion> {
  const links = LISTS.flatMap(({ type, list }) =>
    Object.entries(DOMAIN[type].links)
      .filter(([, link]) => link.kind === "list")
      .map(([name, link]) => {
        const parent = schema.getType(type);
        const takesOrder =
          isObjectType(parent) &&
          parent.getFields()[name]?.args.some((argument) => argument.name === "orderBy") === true;
        const ids = graph.nodes
          .filter((node) => node.label === type)
          .map((node) => node.properties.id)
          .filter((id): id is string => typeof id === "string");
        return {
          field: list.field,
          name,
          orders: takesOrder ? Object.keys(DOMAIN[link.to].orders) : [],
          ids,
        };
      })
      .filter(({ ids }) => ids.length > 0),
  );
  return fc.constantFrom(...links).chain(({ field, name, orders, ids }) =>
    fc
      .record({
        id: fc.constantFrom(...ids),
        order:
          orders.length === 0
            ? fc.constant(null)
            : fc.option(
                fc.record({ field: fc.constantFrom(...orders), direction: fc.constantFrom("ASC", "DESC") }),
              ),
        pageSize: fc.integer({ min: 1, max: 3 }),
      })
      .map(({ id, order, pageSize }) => ({
        parent: { field, id },
        link: name,
        orderBy: order === null ? "" : `orderBy: { field: ${order.field}, direction: ${order.direction} }`,
        pageSize,
      })),
  );
}

interface Page {
  totalCount: number;
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
const PAGE = "totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor }";

/** What a form asks for: the selection of one field under the list's parent (the root, or a row). */
type Place = (selection: string) => string;
/** Reads the answer of {@link Place}'s selection back out of `data`; undefined when there is no parent row. */
type Found = (data: Record<string, unknown>) => Record<string, unknown> | undefined;

/**
 * Asks a list in every form, at `place`: the list whole and short, its connection whole and paged
 * by cursors, and (given) its groups summed. Undefined when a form answers with errors (a field
 * error for a value the ingest got wrong) or is shed; else the list's rows and what differs.
 */
async function formsOf(
  service: RunningService,
  at: { place: Place; found: Found },
  list: { field: string; connection: string; arguments: string; pageSize: number },
  groups?: string,
): Promise<{ rows: string[]; problems: string[] } | undefined> {
  const ask = async (selection: string) => {
    const query = at.place(selection);
    const { status, body } = await service.graphql(query);
    if (status === 503 || status === 504) return undefined;
    expect(status, `${query}\n${JSON.stringify(body)}`).to.equal(200);
    return body.errors === undefined ? at.found(body.data as Record<string, unknown>) : undefined;
  };
  const { field, connection: connectionField, pageSize } = list;
  const given = (...more: string[]) => args(list.arguments, ...more);
  const whole = await ask(
    `list: ${field}(${given("limit: 100")}) { id }
     short: ${field}(${given(`limit: ${String(pageSize)}`)}) { id }
     connection: ${connectionField}(${given("first: 100")}) { ${PAGE} }`,
  );
  if (whole === undefined) return undefined;
  const rows = (whole.list as { id: string }[]).map((row) => row.id);
  const connection = whole.connection as Page;
  const problems: string[] = [];
  const expectSame = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  };
  expectSame(
    "the connection's rows",
    connection.edges.map((edge) => edge.node.id),
    rows,
  );
  expectSame("totalCount", connection.totalCount, rows.length);
  expectSame(
    "the short page",
    (whole.short as { id: string }[]).map((row) => row.id),
    rows.slice(0, pageSize),
  );
  expectSame("the whole connection's hasNextPage", connection.pageInfo.hasNextPage, false);

  // Paged by cursors: the same rows and cursors, each page counting them all.
  const paged: Page["edges"] = [];
  let after: string | null = null;
  for (let pages = 0; pages <= rows.length / pageSize + 1; pages++) {
    const cursor = after === null ? "" : `after: ${JSON.stringify(after)}`;
    const data = await ask(
      `page: ${connectionField}(${given(`first: ${String(pageSize)}`, cursor)}) { ${PAGE} }`,
    );
    if (data === undefined) return undefined;
    const page = data.page as Page;
    expectSame(`page ${String(pages + 1)}'s totalCount`, page.totalCount, rows.length);
    paged.push(...page.edges);
    after = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) break;
  }
  expectSame("the pages' rows and cursors", paged, connection.edges);

  if (groups !== undefined) {
    const data = await ask(`groups: ${groups} { count }`);
    if (data === undefined) return undefined;
    const counts = (data.groups as { count: number }[]).map((group) => group.count);
    expectSame(
      `${groups}'s counts summed`,
      counts.reduce((sum, count) => sum + count, 0),
      rows.length,
    );
  }
  return { rows, problems };
}

const AT_THE_ROOT = {
  place: (selection: string) => `{ ${selection} }`,
  found: (data: Record<string, unknown>) => data,
};

/** A root list question in every form. */
const rootForms = (service: RunningService, question: Question) =>
  formsOf(
    service,
    AT_THE_ROOT,
    {
      field: question.field,
      connection: `${question.field}Connection`,
      arguments: args(question.filters, question.orderBy),
      pageSize: question.pageSize,
    },
    question.groups &&
      `${question.groups.field}(${args(question.groupFilters, `by: [${question.groups.by}]`, "limit: 100")})`,
  );

/** A nested list question in every form, under its one parent row. */
const nestedForms = (service: RunningService, question: NestedQuestion) =>
  formsOf(
    service,
    {
      place: (selection) =>
        `{ parent: ${question.parent.field}(where: { id: { eq: ${JSON.stringify(question.parent.id)} } }, limit: 1) { ${selection} } }`,
      found: (data) => (data.parent as Record<string, unknown>[])[0],
    },
    {
      field: question.link,
      connection: `${question.link}Connection`,
      arguments: question.orderBy,
      pageSize: question.pageSize,
    },
  );

describe("every form of a list question answers the same rows (list, connection, cursors, groups; root and nested)", () => {
  let schema: GraphQLSchema;
  let plain: RunningService;
  let estimating: RunningService;
  before(async () => {
    schema = await buildTestSchema();
    plain = (await startCountingService()).service;
    estimating = (await startCountingService()).service;
  });
  after(async () => {
    await plain.close();
    await estimating.close();
    await loadFixtures();
  });

  for (const [graphName, load] of [
    ["the fixture graph", loadFixtures],
    ["a graph the ingest got wrong", loadBadValues],
  ] as const) {
    it(`agrees on ${graphName}, with and without row estimates (property)`, async function () {
      this.timeout(240_000);
      await load();
      await estimating.readRowEstimates();
      const graph = await readGraph();
      let compared = 0;
      /** Asks one question of both services: each agrees with itself, and the two on the rows. */
      const agree = async (
        forms: (service: RunningService) => Promise<{ rows: string[]; problems: string[] } | undefined>,
        described: string,
      ) => {
        const answers = [];
        for (const service of [plain, estimating]) {
          const answer = await forms(service);
          if (answer === undefined) continue;
          expect(answer.problems, described).to.deep.equal([]);
          answers.push(answer.rows);
          compared++;
        }
        // Read from another start, or sorted rather than walked in order: the same rows.
        if (answers.length === 2) expect(answers[1], described).to.deep.equal(answers[0]);
      };
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            questionArbitrary(schema, graph).map((question) => ({ root: question })),
            nestedQuestionArbitrary(schema, graph).map((question) => ({ nested: question })),
          ),
          async (question) => {
            const described = JSON.stringify(question);
            if ("root" in question) await agree((service) => rootForms(service, question.root), described);
            else await agree((service) => nestedForms(service, question.nested), described);
          },
        ),
        // On a slow machine the runs stop short of 50 rather than fail the suite's timeout.
        { numRuns: 50, plugins: timeLimit(this.timeout(), false) },
      );
      expect(compared).to.be.above(20);
    });
  }
});
