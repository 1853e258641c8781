// A TypeScript oracle for neighborhoods and paths (contract §7, v1 additions part 4), over the
// suite database's domain graph read back whole with plain Cypher (where-oracle.ts's readGraph): a
// plain breadth-first search and an enumeration of every shortest path, as the contract words
// them, independently of src/cypher/.
import { LINK_TYPES, NODE_TYPES } from "../../src/domain/graph.js";
import { byCodePoint } from "./code-points.js";
import type { StoredGraph, StoredNode } from "./where-oracle.js";

export interface OracleLink {
  type: string;
  fromType: string;
  fromId: unknown;
  toType: string;
  toId: unknown;
}

export interface OracleNeighborhood {
  nodes: { distance: number; type: string; id: unknown }[];
  links: OracleLink[];
  truncated: boolean;
}

export interface OraclePath {
  length: number;
  nodes: { type: string; id: unknown }[];
  links: OracleLink[];
}

const TYPE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  NODE_TYPES.map(([type, label]) => [label, type]),
);
const typeRank = (type: string) => NODE_TYPES.findIndex(([name]) => name === type);
const linkRank = (type: string) => LINK_TYPES.indexOf(type as (typeof LINK_TYPES)[number]);

/** Neo4j's order of ids: numbers before strings (ids are strings here, but the ingest may differ). */
function compareIds(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return byCodePoint(a, b);
  if (typeof a === typeof b) return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
  return typeof a === "number" ? -1 : 1;
}

export class GraphOracle {
  private readonly byKey: Map<string, StoredNode>;
  /** Each node's relationships in both directions: the other end, the type, and whether it leaves this node. */
  private readonly adjacent = new Map<string, { other: string; type: string; out: boolean }[]>();

  constructor(private readonly graph: StoredGraph) {
    this.byKey = new Map(graph.nodes.map((node) => [node.key, node]));
    for (const { type, from, to } of graph.relationships) {
      if (!this.byKey.has(from) || !this.byKey.has(to)) continue;
      this.edges(from).push({ other: to, type, out: true });
      this.edges(to).push({ other: from, type, out: false });
    }
  }

  private edges(key: string) {
    let list = this.adjacent.get(key);
    if (list === undefined) this.adjacent.set(key, (list = []));
    return list;
  }

  /** The node of a type (`DECISION`) and an id. */
  key(type: string, id: string): string {
    const node = this.graph.nodes.find((n) => TYPE_OF[n.label] === type && n.properties.id === id);
    if (node === undefined) throw new Error(`no ${type} ${id} in the graph`);
    return node.key;
  }

  private typeOf = (key: string) => TYPE_OF[this.byKey.get(key)?.label ?? ""] ?? "";
  private idOf = (key: string) => this.byKey.get(key)?.properties.id;

  private compareNodes = (a: string, b: string) =>
    typeRank(this.typeOf(a)) - typeRank(this.typeOf(b)) || compareIds(this.idOf(a), this.idOf(b));

  private link(type: string, from: string, to: string): OracleLink {
    return {
      type,
      fromType: this.typeOf(from),
      fromId: this.idOf(from),
      toType: this.typeOf(to),
      toId: this.idOf(to),
    };
  }

  neighborhood(
    start: string,
    {
      depth = 1,
      limit = 50,
      linkTypes,
      nodeTypes,
    }: { depth?: number; limit?: number; linkTypes?: string[]; nodeTypes?: string[] },
  ): OracleNeighborhood {
    const distance = new Map<string, number>([[start, 0]]);
    let frontier = [start];
    for (let d = 1; d <= depth; d++) {
      const next: string[] = [];
      for (const key of frontier)
        for (const { other, type } of this.adjacent.get(key) ?? []) {
          if (linkTypes !== undefined && !linkTypes.includes(type)) continue;
          if (nodeTypes !== undefined && !nodeTypes.includes(this.typeOf(other))) continue;
          if (distance.has(other)) continue;
          distance.set(other, d);
          next.push(other);
        }
      frontier = next;
    }
    const reached = [...distance]
      .filter(([key]) => key !== start)
      .sort(([a, da], [b, db]) => da - db || this.compareNodes(a, b));
    const kept = reached.slice(0, limit);
    const inSet = new Set([start, ...kept.map(([key]) => key)]);
    const seen = new Set<string>();
    const links: [string, string, string][] = [];
    for (const { type, from, to } of this.graph.relationships) {
      if (!inSet.has(from) || !inSet.has(to)) continue;
      if (linkTypes !== undefined && !linkTypes.includes(type)) continue;
      const id = `${type} ${from} ${to}`;
      if (seen.has(id)) continue;
      seen.add(id);
      links.push([type, from, to]);
    }
    links.sort(
      ([ta, fa, xa], [tb, fb, xb]) =>
        linkRank(ta) - linkRank(tb) ||
        compareIds(this.idOf(fa), this.idOf(fb)) ||
        compareIds(this.idOf(xa), this.idOf(xb)) ||
        typeRank(this.typeOf(fa)) - typeRank(this.typeOf(fb)) ||
        typeRank(this.typeOf(xa)) - typeRank(this.typeOf(xb)),
    );
    return {
      nodes: kept.map(([key, d]) => ({ distance: d, type: this.typeOf(key), id: this.idOf(key) })),
      links: links.slice(0, 4 * limit).map(([type, from, to]) => this.link(type, from, to)),
      truncated: reached.length > limit || links.length > 4 * limit,
    };
  }

  pathsTo(
    start: string,
    target: string | undefined,
    { maxLength = 4, limit = 1, linkTypes }: { maxLength?: number; limit?: number; linkTypes?: string[] },
  ): OraclePath[] {
    if (target === undefined) return [];
    // Distances from the target, then every walk from the start that gets one link nearer each step.
    const toTarget = new Map<string, number>([[target, 0]]);
    let frontier = [target];
    for (let d = 1; d <= maxLength && !toTarget.has(start); d++) {
      const next: string[] = [];
      for (const key of frontier)
        for (const { other, type } of this.adjacent.get(key) ?? []) {
          if (linkTypes !== undefined && !linkTypes.includes(type)) continue;
          if (toTarget.has(other)) continue;
          toTarget.set(other, d);
          next.push(other);
        }
      frontier = next;
    }
    const length = toTarget.get(start);
    if (length === undefined) return [];
    const paths: { nodes: string[]; links: OracleLink[] }[] = [];
    const walk = (at: string, nodes: string[], links: OracleLink[]) => {
      if (at === target) {
        paths.push({ nodes, links });
        return;
      }
      const seen = new Set<string>();
      for (const { other, type, out } of this.adjacent.get(at) ?? []) {
        if (linkTypes !== undefined && !linkTypes.includes(type)) continue;
        if (toTarget.get(other) !== (toTarget.get(at) ?? 0) - 1) continue;
        // Several relationships of one type between two nodes are one link.
        const id = `${type} ${other} ${String(out)}`;
        if (seen.has(id)) continue;
        seen.add(id);
        walk(
          other,
          [...nodes, other],
          [...links, out ? this.link(type, at, other) : this.link(type, other, at)],
        );
      }
    };
    walk(start, [start], []);
    paths.sort((a, b) => {
      for (let i = 0; i < a.nodes.length; i++) {
        const order = this.compareNodes(a.nodes[i] ?? "", b.nodes[i] ?? "");
        if (order !== 0) return order;
      }
      return 0;
    });
    return paths.slice(0, limit).map(({ nodes, links }) => ({
      length,
      nodes: nodes.map((key) => ({ type: this.typeOf(key), id: this.idOf(key) })),
      links,
    }));
  }
}
