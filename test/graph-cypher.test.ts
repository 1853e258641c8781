import { expect } from "chai";
import type { GraphQLSchema } from "graphql";
import { neighborhoodOf, pathsOf } from "../src/cypher/graph.js";
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe("neighborhoods and paths compiled to Cypher, without a database (src/cypher/graph.ts)", () => {
  let schema: GraphQLSchema;
  before(async () => {
    schema = await translatingSchema();
  });
  const cypher = async (document: string) => {
    const [query] = await translateDocument(schema, document);
    if (query === undefined) throw new Error("no query");
    return query;
  };

  it("reads one layer a level of depth, at most limit + 1 nodes each, the next only while the nearer ones fit", () => {
    for (const depth of [1, 2, 3]) {
      const text = neighborhoodOf("s", { depth, limit: 50 }, 7);
      // One read of the start's links, one of each further layer's frontier, one of the links among them.
      expect(count(text, /MATCH \(/g), `depth ${String(depth)}`).to.equal(depth + 1);
      expect(count(text, /LIMIT \$limit \+ 1\b/g)).to.equal(1);
      expect(count(text, /LIMIT 2 \* \$limit \+ 2/g)).to.equal(depth - 1);
      expect(count(text, /\) <= \$limit THEN/g)).to.equal(depth - 1);
      expect(text).to.include("LIMIT 4 * $limit + 1");
    }
  });

  it("follows only the link types given, both ways, and reaches only the node types given", () => {
    const all = neighborhoodOf("s", { depth: 2 }, 1);
    expect(all).to.include(
      "MATCH (s)-[:DECIDED_BY|ABOUT|PARTICIPATED_IN|OWNS|REQUESTED|COMMITTED_TO|FOLLOWS_FROM]-(m1)",
    );
    expect(all).not.to.match(/\(m1:/);
    const some = neighborhoodOf(
      "s",
      { depth: 2, linkTypes: ["OWNS", "ABOUT"], nodeTypes: ["TOPIC", "PERSON"] },
      1,
    );
    expect(some).to.include("MATCH (s)-[:ABOUT|OWNS]-(m1)");
    expect(count(some, /\(m1:Person OR m1:Topic\)/g)).to.equal(2);
    // Links are read in their stored direction, among the start and the nodes returned.
    expect(some).to.include("MATCH (a1)-[rel1:ABOUT|OWNS]->(b1)");
  });

  it("finds the shortest length up to maxLength, then grows at most limit paths link by link along shortest routes", () => {
    const text = pathsOf("s", { type: "CUSTOMER", id: "c42", maxLength: 6, linkTypes: ["REQUESTED"] }, 3);
    expect(text).to.include("MATCH (t3:Customer {id: $id})");
    expect(text).to.include("MATCH p3 = SHORTEST 1 (s)-[:REQUESTED]-{0,6}(t3)");
    // A candidate is looked up in the target's ball of its step once a step starts from a hub,
    // before the sort (the balls kept out of the sorted rows), else searched for on its own after it.
    const flat = text.replace(/\s+/g, " ");
    expect(flat).to.include(
      "WHERE (j3 < len3 OR x3 = t3) AND (bs3 IS NULL OR bs3 = [] OR x3 IN bs3[len3 - j3]) WITH DISTINCT k3, pre3, x3, type(r3) AS ty3, startNode(r3) = a3 AS out3, bs3 IS NULL OR bs3 = [] AS look3 ORDER BY",
    );
    expect(flat).to.include(
      "WITH pre3, x3, ty3, out3, look3 WHERE x3 = t3 OR NOT look3 OR EXISTS { WITH * WHERE look3 MATCH q3 = SHORTEST 1 (x3)-[:REQUESTED]-{1,5}(t3) WHERE length(q3) <= len3 - j3 }",
    );
    expect(text).to.include("WHERE COUNT { (e3)-[:REQUESTED]-() } > 1000)");
    expect(text).to.include(
      "reduce(b3 = [[t3]], d3 IN range(1, len3 - j3) | b3 + [COLLECT { UNWIND b3[-1] AS y3 MATCH (y3)-[:REQUESTED]-{0,1}(z3) RETURN DISTINCT z3 LIMIT 100000 }])",
    );
    expect(text).to.include("LIMIT $limit");
    // No enumeration of every shortest path: the text's size does not grow with maxLength either.
    expect(text).not.to.include("ALL SHORTEST");
    expect(text).not.to.include("c42");
    const one = pathsOf("s", { type: "CUSTOMER", id: "c42", maxLength: 1 }, 3);
    expect(one).not.to.match(/EXISTS|COUNT/);
  });

  it("binds part 4's defaults for absent and null arguments, and never splices an id", async () => {
    const { text, parameters } = await cypher(
      '{ node(type: TOPIC, id: "t9") { a: neighborhood(limit: null) { truncated } b: pathsTo(type: PERSON, id: "p9", limit: null, maxLength: null) { length } } }',
    );
    expect(text).not.to.match(/t9|p9/);
    expect(text).to.include("MATCH (n:Topic {id: $id})");
    expect(text).to.include("{0,4}");
    expect(parameters).to.deep.include({ id: "t9" });
    const limits = Object.entries(parameters).filter(([name]) => name.endsWith("_limit"));
    expect(limits.map(([, value]) => Number(value))).to.deep.equal([50, 1]);
  });

  it("projects a Node's interface fields once, and in a branch for each type a fragment names its own", async () => {
    const { text } = await cypher(
      '{ node(type: DECISION, id: "d1") { id ... on Decision { title } ... on Person { name } } }',
    );
    expect(text).to.match(
      /\[(m\d+) IN \[\{`id`: n\.id, `@type`: CASE WHEN n:Decision THEN 'Decision' .* END\}\] \| CASE WHEN n:Decision THEN \1 \{\.\*, `title`: n\.title\} WHEN n:Person THEN \1 \{\.\*, `name`: n\.name\} ELSE \1 END\]\[0\]/,
    );
    const plain = await cypher('{ node(type: TOPIC, id: "t1") { id } }');
    expect(plain.text).not.to.match(/CASE WHEN n:Decision THEN [{m]/);
    // A graph field of the interface is written once, whatever the fragments beside it.
    const graph = await cypher(
      '{ node(type: TOPIC, id: "t1") { neighborhood { nodes { node { id } } } ... on Topic { name } ... on Person { name } } }',
    );
    expect(graph.text.match(/ALL SHORTEST|WITH n AS s\d+/g)).to.have.length(1);
    // A key both select: each branch renders the merged selection, the other types the interface's.
    const both = await cypher(
      '{ node(type: TOPIC, id: "t1") { neighborhood { truncated } ... on Topic { neighborhood { nodes { distance } } } } }',
    );
    expect(both.text.match(/WITH n AS s\d+/g)).to.have.length(2);
    expect(both.text).to.match(/WHEN n:Topic THEN m\d+ \{\.\*, `neighborhood`: .*`nodes`.*`truncated`/s);
    expect(both.text).to.match(/ELSE m\d+ \{\.\*, `neighborhood`: /);
  });
});
