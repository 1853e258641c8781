// A node's neighborhood and its shortest paths (contract §7 part 4), each one subquery expression
// of the request's query, read from the node at hand (`s`). Work is bounded by the answer, not by
// the graph: the neighborhood walks layer by layer, keeps at most `limit + 1` nodes of a layer
// (the nearest in the answer's order, a top-k over the layer's links), and reads the next layer
// only while the layers read so far fit in `limit`; the paths grow link by link from the start,
// at most `limit` of them, along shortest routes (`SHORTEST 1` searches). Names carry the field's
// number (`n`): a subquery expression sees every variable of the query around it.
import { LINK_TYPES, NODE_TYPES, labelOf } from "../domain/graph.js";
import { indent, lines } from "./text.js";
import { LIMITS } from "../contract.js";

/** Part 4's integer arguments, each with its range and its default for an absent or null value. */
export const GRAPH_DEFAULTS = { neighborhood: LIMITS.graph.neighborhood, pathsTo: LIMITS.graph.pathsTo };

const LINKS_PER_NODE = String(LIMITS.graph.linksPerNode);

/** The test that node `x` has `label`: a label expression on a variable, else a look at its labels. */
const hasLabel = (x: string, label: string): string =>
  /^\w+$/.test(x) ? `${x}:${label}` : `'${label}' IN labels(${x})`;

/** A `NodeType` value's rank in declared order, as Cypher (`CASE WHEN x:Decision THEN 0 …`). */
export const nodeRank = (x: string): string =>
  `CASE ${NODE_TYPES.map(([, label], rank) => `WHEN ${hasLabel(x, label)} THEN ${String(rank)}`).join(" ")} END`;

/** A node's `NodeType` value, as Cypher. */
export const nodeTypeOf = (x: string): string =>
  `CASE ${NODE_TYPES.map(([type, label]) => `WHEN ${hasLabel(x, label)} THEN '${type}'`).join(" ")} END`;

/** A node's element type (the GraphQL type a `Node` resolves to), as Cypher. */
export const elementTypeOf = (x: string): string =>
  `CASE ${NODE_TYPES.map(([, label]) => `WHEN ${hasLabel(x, label)} THEN '${label}'`).join(" ")} END`;

/** A relationship type's rank in `LinkType`'s declared order, as Cypher. */
const linkRank = (t: string): string =>
  `CASE ${t} ${LINK_TYPES.map((type, rank) => `WHEN '${type}' THEN ${String(rank)}`).join(" ")} END`;

/** The relationship types a pattern may follow: the given `LinkType`s, else all of them. */
const relationshipTypes = (linkTypes: unknown): string =>
  `:${(Array.isArray(linkTypes) ? LINK_TYPES.filter((type) => linkTypes.includes(type)) : LINK_TYPES).join("|")}`;

/** The test that node `x` is of an allowed type, or none when every type is. */
const allowedNode = (x: string, nodeTypes: unknown): string[] =>
  Array.isArray(nodeTypes)
    ? [
        `(${NODE_TYPES.filter(([type]) => nodeTypes.includes(type))
          .map(([, label]) => `${x}:${label}`)
          .join(" OR ")})`,
      ]
    : [];

/** A link map of relationship type `t` from `a` to `b`, as `Link` serves it. */
const linkMap = (t: string, a: string, b: string): string =>
  `{type: ${t}, fromType: ${nodeTypeOf(a)}, fromId: ${a}.id, toType: ${nodeTypeOf(b)}, toId: ${b}.id}`;

const integer = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isInteger(value) ? value : fallback;

/** A nested graph field's arguments as its statement reads them: absent and null take part 4's defaults. */
export function graphArguments(
  field: keyof typeof GRAPH_DEFAULTS,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const read: Record<string, unknown> = { ...args };
  const ranges: Readonly<Record<string, { default: number }>> = GRAPH_DEFAULTS[field];
  for (const [name, range] of Object.entries(ranges)) read[name] = integer(args[name], range.default);
  return read;
}

/**
 * The neighborhood of node `s` (contract §7 part 4) as one map `{nodes, links, truncated}`, its
 * `nodes` the `Reached` maps `{distance, node}`. Reads `$limit`; `depth`, `linkTypes` and
 * `nodeTypes` are written into the text (they shape it).
 */
export function neighborhoodOf(s: string, args: Readonly<Record<string, unknown>>, n: number): string {
  const { depth: range } = GRAPH_DEFAULTS.neighborhood;
  const depth = Math.min(range.max, Math.max(range.min, integer(args.depth, range.default)));
  const types = relationshipTypes(args.linkTypes);
  const id = String(n);
  // The start, named apart: the subquery's own clauses carry it from one to the next.
  const [start, m, a] = named(id, "s", "m", "a");
  const layer = (k: number) => `l${String(k)}_${id}`;
  const order = `ORDER BY ${nodeRank(m)}, ${m}.id`;
  const allowed = allowedNode(m, args.nodeTypes);
  // Each read is a `COLLECT {}` of its rows in order: Neo4j 5.26 refuses an aggregation inside a
  // `CALL` inside a subquery expression of a projection.
  const clauses = [
    `WITH ${s} AS ${start}, COLLECT {`,
    ...indent([
      `MATCH (${s})-[${types}]-(${m})`,
      `WHERE ${[`${m} <> ${s}`, ...allowed].join(" AND ")}`,
      `WITH DISTINCT ${m} ${order} LIMIT $limit + 1`,
      `RETURN ${m}`,
    ]),
    `} AS ${layer(1)}`,
  ];
  const layers = [layer(1)];
  for (let k = 2; k <= depth; k++) {
    // Read only while the nearer layers are whole and fit in `limit`; the layer's nodes are its
    // neighbours' nearest in the answer's order, less those of the nearer layers (at most
    // `limit + 1` of them: the read takes that many more).
    const previous = layer(k - 1);
    const candidates = `c${String(k)}_${id}`;
    const kept = layers.map((name) => `size(${name})`).join(" + ");
    clauses.push(
      `WITH ${start}, ${layers.join(", ")}, COLLECT {`,
      ...indent([
        `UNWIND CASE WHEN ${kept} <= $limit THEN ${previous} ELSE [] END AS ${a}`,
        `MATCH (${a})-[${types}]-(${m})`,
        ...(allowed.length === 0 ? [] : [`WHERE ${allowed.join("")}`]),
        `WITH DISTINCT ${m} ${order} LIMIT 2 * $limit + 2`,
        `RETURN ${m}`,
      ]),
      `} AS ${candidates}`,
      `WITH ${start}, ${layers.join(", ")}, [x IN ${candidates} WHERE x <> ${start} AND NOT x IN ${layers.join(" + ")}][..$limit + 1] AS ${layer(k)}`,
    );
    layers.push(layer(k));
  }
  const [reached, nodes, b, t, links] = named(id, "r", "nodes", "b", "t", "links");
  const all = `[${start}] + [x IN ${nodes} | x.node]`;
  return lines(
    "COLLECT {",
    ...indent([
      ...clauses,
      `WITH ${start}, ${layers.map((name, k) => `[x IN ${name} | {distance: ${String(k + 1)}, node: x}]`).join(" + ")} AS ${reached}`,
      `WITH ${start}, ${reached}[..$limit] AS ${nodes}, size(${reached}) > $limit AS cut${id}`,
      // Links only among the start and the nodes returned: each pair checked from its cheaper end.
      `WITH ${nodes}, cut${id}, COLLECT {`,
      ...indent([
        `UNWIND ${all} AS ${a}`,
        `UNWIND ${all} AS ${b}`,
        `MATCH (${a})-[rel${id}${types}]->(${b})`,
        // Several relationships of one type between two nodes are one link.
        `WITH DISTINCT type(rel${id}) AS ${t}, ${a}, ${b}`,
        `ORDER BY ${linkRank(t)}, ${a}.id, ${b}.id, ${nodeRank(a)}, ${nodeRank(b)}`,
        `LIMIT ${LINKS_PER_NODE} * $limit + 1`,
        `RETURN ${linkMap(t, a, b)}`,
      ]),
      `} AS ${links}`,
      `RETURN {nodes: ${nodes}, links: ${links}[..${LINKS_PER_NODE} * $limit], truncated: cut${id} OR size(${links}) > ${LINKS_PER_NODE} * $limit} AS h${id}`,
    ]),
    "}[0]",
  );
}

/** Each of `bases` followed by `id`: a subquery's own variable names, apart from its siblings'. */
function named<const T extends readonly string[]>(id: string, ...bases: T): { [K in keyof T]: string } {
  return bases.map((base) => `${base}${id}`) as { [K in keyof T]: string };
}

/**
 * Above this many links, a path's last node is a hub: its neighbours, the next step's candidates,
 * are tested against the target's ball (below) rather than by one shortest-route search each.
 */
const HUB_LINKS = 1000;

/** The most nodes the target's ball may hold; a larger one is given up, and each candidate searched. */
const BALL_NODES = 100_000;

/**
 * The shortest paths from node `s` to the node `type` + `$id` (contract §7 part 4), as a list of
 * `{length, nodes, links}` maps in order of their nodes' (`NodeType`, `id`) sequence. Reads `$id`
 * and `$limit`; `type`, `maxLength` and `linkTypes` are written into the text.
 *
 * Work is bounded by the answer, not by how many shortest paths there are (two people who decided
 * 300 decisions of one topic each have 90,000; `k` duplicate relationships on each of `L` links
 * make `k^L` walks): one `SHORTEST 1` search finds the length `L`, then the paths grow one link at
 * a time, at most `limit` of them, each step's candidates (the neighbours of the paths so far, in
 * the answer's order) kept while they still lie on a shortest route to the target, tested one by
 * one until `limit` pass. A path in the answer's order is made of prefixes in that order, so the
 * `limit` first prefixes of each length hold the `limit` first paths.
 *
 * A candidate `j` links from `s` lies on a shortest route when it is within `L − j` links of the
 * target (never fewer: the path is shortest). Tested one by one, that is a search per candidate,
 * and a search that meets a hub near the target reads the hub's links again for every candidate:
 * beside a topic of 20,000 decisions, that exhausts the query's memory. So once a step starts
 * from a hub ({@link HUB_LINKS}), the target's balls (the nodes within 0, 1, … `L − j` links of
 * it, each read once from the one before) are collected, and that step's candidates and every later
 * step's are looked up in the ball of their step; a ball past {@link BALL_NODES} is given up for the
 * searches.
 */
export function pathsOf(s: string, args: Readonly<Record<string, unknown>>, n: number): string {
  const { maxLength: range } = GRAPH_DEFAULTS.pathsTo;
  const maxLength = Math.min(range.max, Math.max(range.min, integer(args.maxLength, range.default)));
  const id = String(n);
  const types = relationshipTypes(args.linkTypes);
  const [target, length, path, search, done] = named(id, "t", "len", "p", "q", "done");
  const [acc, step, k, pre, a, r, x] = named(id, "acc", "j", "k", "pre", "a", "r", "x");
  const [type, out, ns, ls, i] = named(id, "ty", "out", "ns", "ls", "i");
  const [balls, ball, grown, end, d, y, z, look] = named(id, "bs", "b", "g", "e", "d", "y", "z", "look");
  const paths = `${acc}.qs`;
  // The balls once a path's last node is a hub, kept from then on; `[]` for balls given up.
  const ballsNow =
    `CASE WHEN ${acc}.bs IS NULL AND any(${end} IN [${pre} IN ${paths} | ${pre}.nodes[-1]] ` +
    `WHERE COUNT { (${end})-[${types}]-() } > ${String(HUB_LINKS)}) THEN ` +
    `[${grown} IN [reduce(${ball} = [[${target}]], ${d} IN range(1, ${length} - ${step}) | ${ball} + [COLLECT { ` +
    `UNWIND ${ball}[-1] AS ${y} MATCH (${y})-[${types}]-{0,1}(${z}) RETURN DISTINCT ${z} LIMIT ${String(BALL_NODES)} ` +
    `}])] | CASE WHEN size(${grown}[-1]) < ${String(BALL_NODES)} THEN ${grown} ELSE [] END][0] ` +
    `ELSE ${acc}.bs END`;
  // With the balls, a candidate outside its step's ball is dropped before the candidates are
  // sorted, and no search is made for one inside; without them (`searched`), each is searched for
  // after the sort, in order, until `limit` pass. The balls themselves stay out of the sorted rows:
  // Neo4j counts a row's every value against the query's memory, and a ball of 300 nodes in each
  // of a hub's 30,000 rows is more than it allows.
  const searched = `${balls} IS NULL OR ${balls} = []`;
  const inBall = maxLength === 1 ? [] : [`(${searched} OR ${x} IN ${balls}[${length} - ${step}])`];
  const looks = maxLength === 1 ? [] : [look];
  // On a shortest route: the target, in the ball of `L − j` links, or `L − j` links or fewer from it.
  const onRoute =
    maxLength === 1
      ? `${x} = ${target}`
      : `${x} = ${target} OR NOT ${look} OR EXISTS { WITH * WHERE ${look} ` +
        `MATCH ${search} = SHORTEST 1 (${x})-[${types}]-{1,${String(maxLength - 1)}}(${target}) WHERE length(${search}) <= ${length} - ${step} }`;
  return lines(
    "COLLECT {",
    ...indent([
      `MATCH (${target}:${labelOf(args.type)} {id: $id})`,
      `MATCH ${path} = SHORTEST 1 (${s})-[${types}]-{0,${String(maxLength)}}(${target})`,
      `WITH ${target}, length(${path}) AS ${length}`,
      // The paths of `j` links so far, `{nodes, links}`, each link `[type, leaves the node before it]`:
      // at each step, the neighbours of each path's last node (at the last step, the target only)
      // in the answer's order, tested in that order until `limit` lie on a shortest route.
      `WITH ${length}, reduce(${acc} = {qs: [{nodes: [${s}], links: []}], bs: null}, ${step} IN range(1, ${length}) | ` +
        `[${balls} IN [${maxLength === 1 ? "null" : ballsNow}] | {bs: ${balls}, qs: COLLECT {`,
      ...indent([
        `UNWIND range(0, size(${paths}) - 1) AS ${k}`,
        `WITH ${k}, ${paths}[${k}] AS ${pre}`,
        `WITH ${k}, ${pre}, ${pre}.nodes[-1] AS ${a}`,
        `MATCH (${a})-[${r}${types}]-(${x})`,
        `WHERE ${[`(${step} < ${length} OR ${x} = ${target})`, ...inBall].join(" AND ")}`,
        // Several relationships of one type between two nodes are one link.
        `WITH DISTINCT ${[k, pre, x, `type(${r}) AS ${type}`, `startNode(${r}) = ${a} AS ${out}`, ...looks.map((name) => `${searched} AS ${name}`)].join(", ")}`,
        `ORDER BY ${k}, ${nodeRank(x)}, ${x}.id, ${type}, ${out} DESC`,
        `WITH ${[pre, x, type, out, ...looks].join(", ")}`,
        `WHERE ${onRoute}`,
        `RETURN {nodes: ${pre}.nodes + [${x}], links: ${pre}.links + [[${type}, ${out}]]}`,
        "LIMIT $limit",
      ]),
      `}}][0]).qs AS ${done}`,
      `UNWIND ${done} AS ${path}`,
      `WITH ${length}, ${path}.nodes AS ${ns}, ${path}.links AS ${ls}`,
      `RETURN {length: ${length}, nodes: ${ns}, links: [${i} IN range(0, ${length} - 1) | ${linkMap(
        `${ls}[${i}][0]`,
        `(CASE WHEN ${ls}[${i}][1] THEN ${ns}[${i}] ELSE ${ns}[${i} + 1] END)`,
        `(CASE WHEN ${ls}[${i}][1] THEN ${ns}[${i} + 1] ELSE ${ns}[${i}] END)`,
      )}]} AS ${path}`,
    ]),
    "}",
  );
}

/** The graph fields every element type has (the `Node` interface's), by name. */
export const GRAPH_FIELDS: Readonly<
  Record<
    keyof typeof GRAPH_DEFAULTS,
    (s: string, args: Readonly<Record<string, unknown>>, n: number) => string
  >
> = { neighborhood: neighborhoodOf, pathsTo: pathsOf };
