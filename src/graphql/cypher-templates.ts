// The `@cypher` statements of typeDefs/, generated from the few shapes below so that each rule of
// contract §7 is spelled once: `npm run typedefs` writes them into the committed SDL files, and
// test/typedefs.test.ts fails when a file and its template drift apart. Only what contract §8
// names is read: no derived property, no helper label, so a graph written by the ingest job a
// moment ago answers correctly.

/** A list's order (contract §7). Every order ends with the `id` tie-break, so it is total. */
export type ListOrder =
  /** Newest instant first, whatever zone it was written in; rows without one last. */
  | { newestFirst: string }
  /** Earliest `DATE` first; rows without one last. */
  | { earliestFirst: string }
  /** By `name` in Neo4j's order for stored strings. */
  | "name";

/**
 * `ORDER BY` for a list of `v`. Neo4j orders two `DATETIME`s at one instant by their zones
 * (`+02:00` after `Z` after `-05:00`), so instants are compared as epoch seconds and nanoseconds,
 * which ties them for the `id` tie-break. `IS NULL` first: a descending order would put nulls first.
 */
export function orderBy(v: string, order: ListOrder): string {
  if (order === "name") return `${v}.name, ${v}.id`;
  if ("newestFirst" in order) {
    const at = `${v}.${order.newestFirst}`;
    return `${at} IS NULL, ${at}.epochSeconds DESC, ${at}.nanosecond DESC, ${v}.id`;
  }
  const on = `${v}.${order.earliestFirst}`;
  return `${on} IS NULL, ${on}, ${v}.id`;
}

/** The earliest `DATETIME` Neo4j can hold: every stored instant is at or after it. */
const EARLIEST_INSTANT = "datetime('-999999999-01-01T00:00:00+18:00')";

/** The page size: the request pipeline has refused a `limit` outside 1..100; `null` means 20. */
const LIMIT = "toInteger(coalesce($limit, 20))";

/** A node found by its unique `id`, or none. */
export function lookupById(label: string, v: string): string {
  return `MATCH (${v}:${label} {id: $id}) RETURN ${v} LIMIT 1`;
}

/** A single-valued link (`decidedBy`, `topic`…): with several targets, the lowest `id` (§7). */
export function singleLink(pattern: string, v: string): string {
  return `MATCH ${pattern} RETURN ${v} ORDER BY ${v}.id LIMIT 1`;
}

/**
 * A list under one parent node (`this`): its relationships are few, so they are sorted as they
 * come. `DISTINCT`: duplicate relationships count once (§7).
 */
export function nestedList(pattern: string, v: string, order: ListOrder): string {
  return lines(
    `MATCH ${pattern}`,
    `WITH DISTINCT ${v}`,
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${LIMIT}`,
  );
}

/** A root list field's source: its label and the argument-driven conditions on each row. */
export interface RootList {
  label: string;
  v: string;
  /** Row conditions, each true when its argument is null (`$status IS NULL OR d.status = $status`). */
  filters: string[];
  /**
   * A filter naming one parent node: with it, the list starts from that node (found through the
   * `id` constraint's index) and the label's own indexes are not read at all.
   */
  parent?: { argument: string; label: string; v: string; relationship: string };
}

/** `$argument IS NULL OR v.property = $argument`: a filter that an absent argument leaves open. */
export function equals(v: string, property: string, argument = property): string {
  return `($${argument} IS NULL OR ${v}.${property} = $${argument})`;
}

/** An inclusive lower bound; a row whose value is null never matches a given bound (§7). */
export function atLeast(v: string, property: string, argument: string): string {
  return `($${argument} IS NULL OR ${v}.${property} >= $${argument})`;
}

/**
 * A root list ordered newest `property` first. The label's range index on `property` is read in
 * descending order up to one page of rows that pass the filters; that index holds only rows with
 * a value, so:
 *
 * - rows at the page's last instant but in another zone (or cut by the LIMIT) may lie just past
 *   it in the index: the second read takes that instant's neighbourhood (±1 s);
 * - undated rows come last, in `id` order: the third read walks the `id` constraint's index, and
 *   only when the dated rows did not fill the page (and no date bound excludes undated rows).
 *
 * The three reads together hold the page; the final `ORDER BY` puts it in contract order.
 * `since` (`sinceArgument`) keeps instants from 00:00 UTC of that date: the index range starts a
 * second early, because a `DATETIME` at that very instant written with a negative offset orders
 * before the UTC one; the exact bound compares epoch seconds.
 */
export function newestFirstRootList(list: RootList, property: string, sinceArgument?: string): string {
  const { label, v } = list;
  const at = `${v}.${property}`;
  const since =
    sinceArgument === undefined ? undefined : `datetime({date: date($${sinceArgument}), timezone: 'Z'})`;
  const filters = [
    ...(since === undefined
      ? []
      : [`($${sinceArgument} IS NULL OR ${at}.epochSeconds >= ${since}.epochSeconds)`]),
    ...list.filters,
  ];
  const from =
    since === undefined
      ? `${at} IS NOT NULL`
      : `${at} >= CASE WHEN $${sinceArgument} IS NULL THEN ${EARLIEST_INSTANT} ELSE ${since} - duration('PT1S') END`;
  const labelReads = [
    "CALL () {",
    ...indent([
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${property})`,
      where([from, ...filters]),
      `WITH ${v} ORDER BY ${at} DESC LIMIT ${LIMIT}`,
      `RETURN collect(${v}) AS page`,
    ]),
    "}",
    "CALL (page) {",
    ...indent([
      `WITH page[-1].${property} AS edge WHERE size(page) = ${LIMIT}`,
      `MATCH (${v}:${label})`,
      `USING INDEX ${v}:${label}(${property})`,
      where([`${at} >= edge - duration('PT1S') AND ${at} <= edge + duration('PT1S')`, ...list.filters]),
      `RETURN collect(${v}) AS ties`,
    ]),
    "}",
    // OPTIONAL CALL around a guard: planned as Apply over a Filter, so the `id` index is not
    // touched when the page is full (a plain `WITH … WHERE` was merged into the scan's filter).
    "OPTIONAL CALL (page) {",
    ...indent([
      `WITH page WHERE size(page) < ${LIMIT}${sinceArgument === undefined ? "" : ` AND $${sinceArgument} IS NULL`}`,
      "CALL () {",
      ...indent([
        `MATCH (${v}:${label})`,
        `USING INDEX ${v}:${label}(id)`,
        where([`${v}.id IS NOT NULL AND ${at} IS NULL`, ...list.filters]),
        `WITH ${v} ORDER BY ${v}.id LIMIT ${LIMIT}`,
        `RETURN collect(${v}) AS undated`,
      ]),
      "}",
      "RETURN undated",
    ]),
    "}",
    // `page[..0]`, not `[]`: an untyped empty list makes the rows of unknown type, and Neo4j 5.26
    // then answers null for the second read of one property (`{ .id, a: this0.id }`: a field
    // selected under two aliases).
    `UNWIND page + ties + coalesce(undated, page[..0]) AS ${v}`,
    `RETURN ${v}`,
  ];
  return rootList(list, filters, labelReads, { newestFirst: property });
}

/**
 * A root list ordered by `name`: the label's range index on `name` is read in order, the filters
 * are checked as rows come, and the `id` tie-break sorts only rows of one name (a partial top).
 */
export function byNameRootList(list: RootList): string {
  const { label, v } = list;
  const labelReads = [
    `MATCH (${v}:${label})`,
    `USING INDEX ${v}:${label}(name)`,
    where([`${v}.name IS NOT NULL`, ...list.filters]),
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, "name")}`,
    `LIMIT ${LIMIT}`,
  ];
  return rootList(list, list.filters, labelReads, "name");
}

/**
 * The root skeleton: with a parent filter, that node's relationships (sorted as they come);
 * without, the label's ordered reads. `WITH $x AS x WHERE x IS NULL` is planned as a guard (Apply
 * over a Filter), so with a parent the label's indexes are not read. `UNION` drops duplicates.
 */
function rootList(list: RootList, filters: string[], labelReads: string[], order: ListOrder): string {
  const { label, v, parent } = list;
  if (parent === undefined) return lines(...labelReads);
  return lines(
    "CALL () {",
    ...indent([
      `MATCH (${parent.v}:${parent.label} {id: $${parent.argument}})${parent.relationship}(${v}:${label})`,
      `USING INDEX ${parent.v}:${parent.label}(id)`,
      `WITH DISTINCT ${v}`,
      ...(filters.length === 0 ? [] : [where(filters)]),
      `RETURN ${v}`,
      "UNION",
      `WITH $${parent.argument} AS ${parent.argument} WHERE ${parent.argument} IS NULL`,
      ...labelReads,
    ]),
    "}",
    `RETURN ${v}`,
    `ORDER BY ${orderBy(v, order)}`,
    `LIMIT ${LIMIT}`,
  );
}

function where(conditions: string[]): string {
  return ["WHERE " + (conditions[0] ?? "true"), ...conditions.slice(1).map((c) => `  AND ${c}`)].join("\n");
}

function indent(block: string[]): string[] {
  return block.flatMap((line) => line.split("\n")).map((line) => `  ${line}`);
}

function lines(...block: string[]): string {
  return block.join("\n");
}

const DECISION_FILTERS = [
  equals("d", "status"),
  atLeast("d", "regretScore", "regretScoreMin"),
  atLeast("d", "executionGapDays", "executionGapDaysMin"),
];

/** Every `@cypher` statement of typeDefs/, by `Type.field`. */
export const STATEMENTS: Readonly<Record<string, string>> = {
  "Query.decisions": newestFirstRootList(
    {
      label: "Decision",
      v: "d",
      filters: DECISION_FILTERS,
      parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
    },
    "decidedAt",
    "since",
  ),
  "Query.decision": lookupById("Decision", "d"),
  "Query.features": byNameRootList({
    label: "Feature",
    v: "f",
    filters: [equals("f", "stage"), equals("f", "team"), equals("f", "shipped")],
    parent: { argument: "ownerId", label: "Person", v: "p", relationship: "-[:OWNS]->" },
  }),
  "Query.topics": byNameRootList({ label: "Topic", v: "t", filters: [] }),
  "Query.topic": lookupById("Topic", "t"),
  "Query.customers": byNameRootList({ label: "Customer", v: "c", filters: [equals("c", "health")] }),
  "Query.people": byNameRootList({ label: "Person", v: "p", filters: [] }),
  "Query.disagreements": newestFirstRootList(
    {
      label: "Disagreement",
      v: "g",
      filters: [equals("g", "resolved")],
      parent: { argument: "topicId", label: "Topic", v: "t", relationship: "<-[:ABOUT]-" },
    },
    "raisedAt",
  ),

  "Decision.decidedBy": singleLink("(this)-[:DECIDED_BY]->(p:Person)", "p"),
  "Decision.topic": singleLink("(this)-[:ABOUT]->(t:Topic)", "t"),
  "Person.decisionsMade": nestedList("(this)<-[:DECIDED_BY]-(d:Decision)", "d", { newestFirst: "decidedAt" }),
  "Person.openCommitments": nestedList("(this)-[:COMMITTED_TO]->(c:Commitment {status: 'OPEN'})", "c", {
    earliestFirst: "dueOn",
  }),
  "Commitment.owner": singleLink("(this)<-[:COMMITTED_TO]-(p:Person)", "p"),
  "Commitment.decision": singleLink("(this)-[:FOLLOWS_FROM]->(d:Decision)", "d"),
  "Topic.decisions": nestedList("(this)<-[:ABOUT]-(d:Decision)", "d", { newestFirst: "decidedAt" }),
  "Topic.disagreements": nestedList("(this)<-[:ABOUT]-(g:Disagreement)", "g", { newestFirst: "raisedAt" }),
  "Feature.owner": singleLink("(this)<-[:OWNS]-(p:Person)", "p"),
  "Feature.requestedBy": nestedList("(this)<-[:REQUESTED]-(c:Customer)", "c", "name"),
  "Customer.requestedFeatures": nestedList("(this)-[:REQUESTED]->(f:Feature)", "f", "name"),
  "Disagreement.topic": singleLink("(this)-[:ABOUT]->(t:Topic)", "t"),
  "Disagreement.participants": nestedList("(this)<-[:PARTICIPATED_IN]-(p:Person)", "p", "name"),
};
