import { expect } from "chai";
import { NODE_TYPES } from "../src/domain/graph.js";
import { ingest, loadBadValues, loadFixtures } from "./support/fixtures.js";
import { GraphOracle, type OracleLink } from "./support/graph-oracle.js";
import { startService, type RunningService } from "./support/service.js";
import { readGraph } from "./support/where-oracle.js";

const TYPE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  NODE_TYPES.map(([type, label]) => [label, type]),
);

const NEIGHBORHOOD =
  "nodes { distance node { __typename id } } links { type fromType fromId toType toId } truncated";
const PATH = "length nodes { __typename id } links { type fromType fromId toType toId }";

interface WireNeighborhood {
  nodes: { distance: number; node: { __typename: string; id: string } }[];
  links: OracleLink[];
  truncated: boolean;
}
interface WirePath {
  length: number;
  nodes: { __typename: string; id: string }[];
  links: OracleLink[];
}

/** A wire neighborhood in the oracle's shape. */
const neighborhood = (answer: WireNeighborhood) => ({
  nodes: answer.nodes.map(({ distance, node }) => ({
    distance,
    type: TYPE_OF[node.__typename],
    id: node.id,
  })),
  links: answer.links,
  truncated: answer.truncated,
});
const path = (answer: WirePath) => ({
  length: answer.length,
  nodes: answer.nodes.map((node) => ({ type: TYPE_OF[node.__typename], id: node.id })),
  links: answer.links,
});

/** Each neighborhood the suite asks of every node, by alias: its arguments as GraphQL and as the oracle takes them. */
const NEIGHBORHOODS: Record<string, [string, Parameters<GraphOracle["neighborhood"]>[1]]> = {
  byDefault: ["", {}],
  two: ["(depth: 2, limit: 4)", { depth: 2, limit: 4 }],
  three: ["(depth: 3, limit: 200)", { depth: 3, limit: 200 }],
  one: ["(depth: 3, limit: 1)", { depth: 3, limit: 1 }],
  links: ["(depth: 3, linkTypes: [ABOUT, DECIDED_BY])", { depth: 3, linkTypes: ["ABOUT", "DECIDED_BY"] }],
  nodes: ["(depth: 3, nodeTypes: [DECISION, PERSON])", { depth: 3, nodeTypes: ["DECISION", "PERSON"] }],
  nulls: ["(depth: null, limit: null, linkTypes: null, nodeTypes: null)", {}],
};

describe("neighborhoods and paths (contract §7 part 4)", () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the wire, asserted by the tests
  const ask = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
    const { status, body } = await service.graphql(query, variables);
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    return body.data;
  };

  describe("on the ingest-style fixture", () => {
    let oracle: GraphOracle;
    let nodes: { type: string; id: string }[];
    before(async () => {
      await loadFixtures();
      const graph = await readGraph();
      oracle = new GraphOracle(graph);
      nodes = graph.nodes
        .map((node) => ({ type: TYPE_OF[node.label] ?? "", id: String(node.properties.id) }))
        .sort((a, b) => (a.type + a.id < b.type + b.id ? -1 : 1));
    });

    it("finds any node by type and id, of its own type, and null for none", async () => {
      const data = await ask(`{
        decision: node(type: DECISION, id: "d1") { __typename id ... on Decision { title } ... on Person { name } }
        person: node(type: PERSON, id: "p1") { __typename id ... on Decision { title } ... on Person { name } }
        wrongType: node(type: TOPIC, id: "d1") { id }
        none: node(type: CUSTOMER, id: "nope") { id }
      }`);
      expect(data).to.deep.equal({
        decision: { __typename: "Decision", id: "d1", title: "Adopt usage-based pricing" },
        person: { __typename: "Person", id: "p1", name: "Ada Lovelace" },
        wrongType: null,
        none: null,
      });
    });

    it("merges a field the interface and a fragment both select, for that type only", async () => {
      const selection = `id neighborhood(limit: 2) { truncated }
        ... on Topic { name neighborhood(limit: 2) { nodes { distance node { id } } } } ... on Person { name }`;
      const data = await ask(`{
        topic: node(type: TOPIC, id: "t1") { ${selection} }
        person: node(type: PERSON, id: "p1") { ${selection} }
        whole: node(type: TOPIC, id: "t1") { neighborhood(limit: 2) { truncated nodes { distance node { id } } } }
        personOwn: node(type: PERSON, id: "p1") { neighborhood(limit: 2) { truncated } }
      }`);
      const whole = data.whole as { neighborhood: { nodes: unknown[] } };
      expect(whole.neighborhood.nodes).to.have.length(2);
      expect(data.topic).to.deep.equal({ id: "t1", name: "Pricing", ...data.whole });
      expect(data.person).to.deep.equal({ id: "p1", name: "Ada Lovelace", ...data.personOwn });

      // The same under aliases, below the merged field too (the Cypher keys fields by name).
      const aliased = `key: id nb: neighborhood(limit: 2) { t: truncated }
        ... on Topic { label: name nb: neighborhood(limit: 2) { n: nodes { d: distance node { i: id } } } } ... on Person { label: name }`;
      const again = await ask(`{
        topic: node(type: TOPIC, id: "t1") { ${aliased} }
        person: node(type: PERSON, id: "p1") { ${aliased} }
      }`);
      type Whole = {
        neighborhood: { truncated: boolean; nodes: { distance: number; node: { id: string } }[] };
      };
      const { neighborhood } = data.whole as Whole;
      expect(again.topic).to.deep.equal({
        key: "t1",
        label: "Pricing",
        nb: {
          t: neighborhood.truncated,
          n: neighborhood.nodes.map(({ distance, node }) => ({ d: distance, node: { i: node.id } })),
        },
      });
      expect(again.person).to.deep.equal({
        key: "p1",
        label: "Ada Lovelace",
        nb: { t: (data.personOwn as Whole).neighborhood.truncated },
      });
    });

    it("answers every node's neighborhoods as the oracle's breadth-first search: distances, order, limit, links and truncated", async () => {
      const query = `query ($type: NodeType!, $id: ID!) { node(type: $type, id: $id) { ${Object.entries(
        NEIGHBORHOODS,
      )
        .map(([alias, [args]]) => `${alias}: neighborhood${args} { ${NEIGHBORHOOD} }`)
        .join(" ")} } }`;
      for (const { type, id } of nodes) {
        const data = await ask(query, { type, id });
        const start = oracle.key(type, id);
        for (const [alias, [, args]] of Object.entries(NEIGHBORHOODS))
          expect(neighborhood(data.node[alias]), `${type} ${id} ${alias}`).to.deep.equal(
            oracle.neighborhood(start, args),
          );
      }
    });

    it("answers each node's shortest paths to two nodes of every type as the oracle's enumeration: fewest links, order, limit, stored directions, none, itself", async () => {
      // Two targets of each type (at most 30 aliases a request, §5): every start asks each.
      const targets = NODE_TYPES.flatMap(([type]) => nodes.filter((node) => node.type === type).slice(0, 2));
      // One statement a target, asked for every start: each planned once.
      const query = `query ($type: NodeType!, $id: ID!, $targetType: NodeType!, $target: ID!) {
        node(type: $type, id: $id) { p: pathsTo(type: $targetType, id: $target, maxLength: 6, limit: 10) { ${PATH} } } }`;
      let several = 0;
      let none = 0;
      for (const { type, id } of nodes) {
        const data = { node: new Map<string, WirePath[]>() };
        for (const [i, target] of targets.entries()) {
          const answer = await ask(query, { type, id, targetType: target.type, target: target.id });
          data.node.set(`p${String(i)}`, answer.node.p);
        }
        const start = oracle.key(type, id);
        targets.forEach((target, i) => {
          const expected = oracle.pathsTo(start, oracle.key(target.type, target.id), {
            maxLength: 6,
            limit: 10,
          });
          if (expected.length > 1) several++;
          if (expected.length === 0) none++;
          expect(
            data.node.get(`p${String(i)}`)?.map(path),
            `${type} ${id} → ${target.type} ${target.id}`,
          ).to.deep.equal(expected);
        });
      }
      // The fixture holds pairs with several shortest paths and pairs with none.
      expect(several).to.be.above(10);
      expect(none).to.be.above(10);
    });

    it("keeps to maxLength, linkTypes and limit, and answers [] for no such target", async () => {
      const start = oracle.key("CUSTOMER", "c1");
      const cases: [string, Parameters<GraphOracle["pathsTo"]>[2], string, string][] = [
        ["maxLength: 2", { maxLength: 2 }, "DECISION", "d3"],
        ["maxLength: 3", { maxLength: 3 }, "DECISION", "d3"],
        ["linkTypes: [REQUESTED, OWNS]", { linkTypes: ["REQUESTED", "OWNS"] }, "PERSON", "p1"],
        ["linkTypes: [REQUESTED]", { linkTypes: ["REQUESTED"] }, "PERSON", "p1"],
        ["maxLength: 6, limit: 2", { maxLength: 6, limit: 2 }, "DECISION", "d2"],
        ["maxLength: null, limit: null, linkTypes: null", {}, "DECISION", "d3"],
        ["", {}, "DECISION", "d1"],
      ];
      for (const [args, oracleArgs, type, id] of cases) {
        const data = await ask(
          `{ node(type: CUSTOMER, id: "c1") { pathsTo(type: ${type}, id: "${id}"${args === "" ? "" : `, ${args}`}) { ${PATH} } } }`,
        );
        expect(data.node.pathsTo.map(path), args).to.deep.equal(
          oracle.pathsTo(start, oracle.key(type, id), oracleArgs),
        );
      }
      const none = await ask(
        `{ node(type: CUSTOMER, id: "c1") { pathsTo(type: DECISION, id: "nope") { length } } }`,
      );
      expect(none.node.pathsTo).to.deep.equal([]);
    });

    it("serves reached nodes with their own fields and nested links, and costs what §5 and part 4 say", async () => {
      const { status, body } = await service.graphql(
        '{ topic(id: "t1") { neighborhood(depth: 2) { nodes { node { id } } links { type } } } }',
      );
      expect(status).to.equal(200);
      // Contract §7 part 4's own example.
      expect(body.extensions.cost.requested).to.equal(302);
      const paths = await service.graphql(
        '{ node(type: CUSTOMER, id: "c1") { pathsTo(type: DECISION, id: "d3", maxLength: 5, limit: 3) { length nodes { id } links { type } } } }',
      );
      // node 1 + pathsTo 3 × (1 + nodes 6 × 1 + links 5 × 1).
      expect(paths.body.extensions.cost.requested).to.equal(1 + 3 * (1 + 6 + 5));
      const data =
        await ask(`{ topic(id: "t1") { neighborhood(nodeTypes: [DECISION], limit: 2) { nodes { node {
        ... on Decision { title decidedBy { id } topic { name } }
      } } } } }`);
      expect(data.topic.neighborhood.nodes).to.deep.equal([
        { node: { title: "Adopt usage-based pricing", decidedBy: { id: "p1" }, topic: { name: "Pricing" } } },
        { node: { title: "Hire a second SRE", decidedBy: { id: "p2" }, topic: { name: "Pricing" } } },
      ]);
    });
  });

  describe("on a supernode", () => {
    before(async () => {
      await loadFixtures();
      // A topic with 300 decisions, each decided by one of three people (as the ingest writes them).
      await ingest(`MATCH (t:Topic {id: 't1'})
        UNWIND range(100, 399) AS i
        CREATE (d:Decision {id: 'x' + toString(i), title: 'Bulk ' + toString(i), status: 'DECIDED'})-[:ABOUT]->(t)
        WITH d, i MATCH (p:Person {id: 'p' + toString(1 + i % 3)}) CREATE (d)-[:DECIDED_BY]->(p)`);
      // Eleven decisions each decided by the same ten people: more links among them than nodes.
      await ingest(`UNWIND range(0, 9) AS i CREATE (:Person {id: 'q' + toString(i), name: 'Q' + toString(i)})
        WITH count(*) AS people
        UNWIND range(0, 10) AS j
        CREATE (d:Decision {id: 'k' + toString(j), title: 'Committee ' + toString(j), status: 'DECIDED'})
        WITH d MATCH (p:Person) WHERE p.id STARTS WITH 'q' CREATE (d)-[:DECIDED_BY]->(p)`);
    });

    it("reads a layer's nearest nodes only, truncates nodes and links, and still finds what lies past it", async () => {
      const oracle = new GraphOracle(await readGraph());
      const start = oracle.key("TOPIC", "t1");
      const data = await ask(`{ topic(id: "t1") {
        small: neighborhood(depth: 3, limit: 5) { ${NEIGHBORHOOD} }
        wide: neighborhood(depth: 2, limit: 200) { ${NEIGHBORHOOD} }
        people: neighborhood(depth: 2, nodeTypes: [PERSON, DISAGREEMENT]) { ${NEIGHBORHOOD} }
        path: pathsTo(type: PERSON, id: "p3", limit: 10) { ${PATH} }
      } }`);
      expect(neighborhood(data.topic.small)).to.deep.equal(
        oracle.neighborhood(start, { depth: 3, limit: 5 }),
      );
      expect(data.topic.small.truncated).to.equal(true);
      const wide = neighborhood(data.topic.wide);
      expect(wide).to.deep.equal(oracle.neighborhood(start, { depth: 2, limit: 200 }));
      expect(wide.links).to.have.length(200);
      expect(neighborhood(data.topic.people)).to.deep.equal(
        oracle.neighborhood(start, { depth: 2, nodeTypes: ["PERSON", "DISAGREEMENT"] }),
      );
      expect(data.topic.path.map(path)).to.deep.equal(
        oracle.pathsTo(start, oracle.key("PERSON", "p3"), { limit: 10 }),
      );
    });

    it("answers at most four links a node, truncated when more lie among the nodes, and all of them when they fit", async () => {
      const oracle = new GraphOracle(await readGraph());
      const start = oracle.key("DECISION", "k0");
      const data = await ask(`{ node(type: DECISION, id: "k0") {
        capped: neighborhood(depth: 2, limit: 20) { ${NEIGHBORHOOD} }
        whole: neighborhood(depth: 2, limit: 28) { ${NEIGHBORHOOD} }
      } }`);
      const capped = neighborhood(data.node.capped);
      expect(capped).to.deep.equal(oracle.neighborhood(start, { depth: 2, limit: 20 }));
      // All 20 nodes within two links, 110 links among them and k0: 80 served.
      expect([capped.nodes.length, capped.links.length, capped.truncated]).to.deep.equal([20, 80, true]);
      const whole = neighborhood(data.node.whole);
      expect(whole).to.deep.equal(oracle.neighborhood(start, { depth: 2, limit: 28 }));
      expect([whole.nodes.length, whole.links.length, whole.truncated]).to.deep.equal([20, 110, false]);
    });
  });

  describe("on many shortest walks", () => {
    before(async () => {
      await loadFixtures();
      // Twenty copies of each relationship along a path of six links (the ingest may write
      // duplicates, §8): 20^6 walks, one path. Enumerating the walks took a minute.
      await ingest(`CREATE (p1:Person {id: 'w1', name: 'A'}), (p2:Person {id: 'w2', name: 'B'}),
          (t1:Topic {id: 'w1', name: 'T1'}), (t2:Topic {id: 'w2', name: 'T2'}),
          (d1:Decision {id: 'w1', title: 'x', status: 'DECIDED'}), (d2:Decision {id: 'w2', title: 'y', status: 'DECIDED'}),
          (d3:Decision {id: 'w3', title: 'z', status: 'DECIDED'})
        WITH * UNWIND range(1, 20) AS i
        CREATE (d1)-[:DECIDED_BY]->(p1), (d1)-[:ABOUT]->(t1), (d2)-[:ABOUT]->(t1),
               (d2)-[:DECIDED_BY]->(p2), (d3)-[:DECIDED_BY]->(p2), (d3)-[:ABOUT]->(t2)`);
    });

    it("reads what the answer needs, not every walk: one path of six links through twenty copies of each", async () => {
      const oracle = new GraphOracle(await readGraph());
      const data = await ask(`{ node(type: PERSON, id: "w1") {
        pathsTo(type: TOPIC, id: "w2", maxLength: 6, limit: 10) { ${PATH} } } }`);
      const expected = oracle.pathsTo(oracle.key("PERSON", "w1"), oracle.key("TOPIC", "w2"), {
        maxLength: 6,
        limit: 10,
      });
      expect(expected).to.have.length(1);
      expect(data.node.pathsTo.map(path)).to.deep.equal(expected);
    });
  });

  describe("on a graph holding bad values", () => {
    before(async () => {
      await loadBadValues();
      // The customer without an id asks for f1; d1 is also about the topic whose id is a number.
      await ingest(
        `MATCH (c:Customer) WHERE c.id IS NULL MATCH (f:Feature {id: 'f1'}) CREATE (c)-[:REQUESTED]->(f)`,
      );
      await ingest(`MATCH (t:Topic {id: 7}), (d:Decision {id: 'd1'}) CREATE (d)-[:ABOUT]->(t)`);
    });

    it("serves every reached node, its bad values as §3's field errors with their paths and §3's nulls", async () => {
      const { status, body } = await service.graphql(`{ node(type: PERSON, id: "p1") {
        neighborhood { nodes { distance node { id ... on Commitment { dueOn } } } }
      } }`);
      expect(status).to.equal(200);
      // None left out: d2 and d3 (decided by p1), then m1, m2 and m3, their bad dates null.
      expect(body.data.node.neighborhood.nodes).to.deep.equal([
        { distance: 1, node: { id: "d2" } },
        { distance: 1, node: { id: "d3" } },
        { distance: 1, node: { id: "m1", dueOn: null } },
        { distance: 1, node: { id: "m2", dueOn: null } },
        { distance: 1, node: { id: "m3", dueOn: "2025-02-01" } },
      ]);
      const errors = body.errors as {
        message: string;
        path: (string | number)[];
        extensions: { code: string };
      }[];
      expect(errors.map(({ path: at, extensions }) => [at.join("."), extensions.code])).to.deep.equal([
        ["node.neighborhood.nodes.2.node.dueOn", "invalid_stored_value"],
        ["node.neighborhood.nodes.3.node.dueOn", "invalid_stored_value"],
      ]);
      // A bad non-null field nulls its nearest nullable parent: here the node asked for.
      const strict = await service.graphql(`{ node(type: PERSON, id: "p2") {
        neighborhood { nodes { node { ... on Decision { status } } } }
      } }`);
      expect(strict.body.data.node).to.equal(null);
      expect(strict.body.errors[0].message).to.equal(
        'Decision "d3" has a status that is not one of the values of DecisionStatus.',
      );
      expect(strict.body.errors[0].path).to.deep.equal([
        "node",
        "neighborhood",
        "nodes",
        1,
        "node",
        "status",
      ]);
    });

    it("names a link's end whose id the schema cannot serve, nulling up to the nearest nullable field", async () => {
      const { status, body } = await service.graphql(`{ node(type: FEATURE, id: "f1") {
        neighborhood { nodes { node { __typename } } links { type fromId toId } }
      } }`);
      expect(status).to.equal(200);
      expect(body.data.node).to.equal(null);
      const errors = body.errors as {
        message: string;
        path: (string | number)[];
        extensions: { code: string };
      }[];
      expect(errors.map(({ message, extensions }) => [extensions.code, message])).to.deep.include([
        "invalid_stored_value",
        "Customer (without an id) has no id, which the schema requires.",
      ]);
      expect(errors[0]?.path.slice(0, 3)).to.deep.equal(["node", "neighborhood", "links"]);
    });

    it("names a link's end by the id it holds, whatever the field's alias", async () => {
      for (const selection of ["fromId toId", "from: fromId to: toId"]) {
        const { status, body } = await service.graphql(`{ node(type: DECISION, id: "d1") {
          neighborhood { links { type ${selection} } }
        } }`);
        expect(status).to.equal(200);
        expect((body.errors as { message: string }[]).map(({ message }) => message)).to.include(
          "Topic (whose id is not a string) has an id stored as another type than the schema's ID.",
        );
      }
    });
  });

  describe("bounds: 422 validation_failed before any Cypher", () => {
    before(loadFixtures);

    it("keeps §5's depth rule through neighborhoods and paths: 8 levels pass, 9 are 422 query_too_deep", async () => {
      // node 1, neighborhood 2, nodes 3, node 4, decidedBy 5, decisionsMade 6, topic 7, name 8.
      const eight = `{ node(type: TOPIC, id: "t1") { neighborhood { nodes { node { ... on Decision {
        decidedBy { decisionsMade { topic { name } } } } } } } } }`;
      expect((await service.graphql(eight)).status).to.equal(200);
      const nine = `{ node(type: TOPIC, id: "t1") { neighborhood { nodes { node { ... on Decision {
        decidedBy { decisionsMade { topic { decisions { id } } } } } } } } } }`;
      const { status, body } = await service.graphql(nine);
      expect(status).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("query_too_deep");
      // node 1, pathsTo 2, nodes 3, decisionsMade 4, topic 5, decisions 6, decidedBy 7, decisionsMade 8, id 9.
      const paths = `{ node(type: TOPIC, id: "t1") { pathsTo(type: PERSON, id: "p1") { nodes {
        ... on Person { decisionsMade { topic { decisions { decidedBy { decisionsMade { id } } } } } } } } } }`;
      expect((await service.graphql(paths)).status).to.equal(422);
    });
    const cases: [string, string, boolean][] = [
      ["neighborhood(depth: 1)", "depth", true],
      ["neighborhood(depth: 3)", "depth", true],
      ["neighborhood(depth: 0)", "depth", false],
      ["neighborhood(depth: 4)", "depth", false],
      ["neighborhood(limit: 1)", "limit", true],
      ["neighborhood(limit: 200)", "limit", true],
      ["neighborhood(limit: 0)", "limit", false],
      ["neighborhood(limit: 201)", "limit", false],
      ["neighborhood(linkTypes: [])", "linkTypes", false],
      ["neighborhood(nodeTypes: [])", "nodeTypes", false],
      ['pathsTo(type: TOPIC, id: "t2", maxLength: 1)', "maxLength", true],
      ['pathsTo(type: TOPIC, id: "t2", maxLength: 6)', "maxLength", true],
      ['pathsTo(type: TOPIC, id: "t2", maxLength: 0)', "maxLength", false],
      ['pathsTo(type: TOPIC, id: "t2", maxLength: 7)', "maxLength", false],
      ['pathsTo(type: TOPIC, id: "t2", limit: 10)', "limit", true],
      ['pathsTo(type: TOPIC, id: "t2", limit: 11)', "limit", false],
      ['pathsTo(type: TOPIC, id: "t2", limit: 0)', "limit", false],
      ['pathsTo(type: TOPIC, id: "t2", linkTypes: [])', "linkTypes", false],
    ];
    for (const [field, argument, passes] of cases)
      it(`${passes ? "takes" : "refuses"} ${field}`, async () => {
        const selection = field.startsWith("neighborhood") ? "{ truncated }" : "{ length }";
        const { status, body } = await service.graphql(`{ topic(id: "t1") { ${field} ${selection} } }`);
        if (passes) {
          expect(status, JSON.stringify(body)).to.equal(200);
          return;
        }
        expect(status).to.equal(422);
        expect(body.errors[0].extensions.code).to.equal("validation_failed");
        expect(body.errors[0].message).to.contain(
          `Argument "${argument}" on field "Topic.${field.split("(")[0]}"`,
        );
      });
  });
});
