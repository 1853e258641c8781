import { expect } from "chai";
import fc from "fast-check";
import type { DocumentNode } from "graphql";
import { reworded } from "../bench/cold-shapes.js";
import { canonicalSelection, withResponseKeys } from "../src/cypher/canonical.js";
import type { Selection } from "../src/cypher/request.js";
import { translatingSchema } from "../src/graphql/schema.js";
import { translateDocument } from "../src/graphql/translate.js";
import { queriesSent } from "../src/neo4j/combine.js";
import { validatedDocumentArbitrary } from "./support/fuzz.js";

const ELEMENTS = new Set(["Decision", "Person", "Topic"]);

/** A selection of `name` with `fields` below it on `type` (each `[responseKey, selection]`). */
const field = (
  name: string,
  alias = name,
  below: Record<string, Record<string, Selection>> = {},
): Selection => ({
  name,
  alias,
  args: {},
  fieldsByTypeName: below,
});
const on = (type: string, ...fields: Selection[]) => ({
  [type]: Object.fromEntries(fields.map((selected) => [selected.alias, selected])),
});
/** Each type's keys below `selection`, in order, with each key's field name. */
const keysOf = (selection: Selection) =>
  Object.fromEntries(
    Object.entries(selection.fieldsByTypeName).map(([type, fields]) => [
      type,
      Object.entries(fields).map(([key, selected]) => `${key}=${selected.name}`),
    ]),
  );

describe("canonicalSelection", () => {
  it("keys each field by its name, in the order of the keys, and needs no renaming without aliases", () => {
    const asked = field(
      "topic",
      "topic",
      on(
        "Topic",
        field("name"),
        field("id"),
        field("decisions", "decisions", on("Decision", field("title"))),
      ),
    );
    const { selection, responseKeys } = canonicalSelection(asked, ELEMENTS);
    expect(keysOf(selection)).to.deep.equal({ Topic: ["decisions=decisions", "id=id", "name=name"] });
    expect(responseKeys).to.equal(undefined);
  });

  it("writes the same selection for the same question under other aliases and in another order", () => {
    const one = field(
      "topic",
      "topic",
      on("Topic", field("id"), field("decisions", "decisions", on("Decision", field("title"), field("id")))),
    );
    const other = field(
      "topic",
      "t",
      on(
        "Topic",
        field("decisions", "list", on("Decision", field("id", "key"), field("title", "heading"))),
        field("id", "topicId"),
      ),
    );
    const a = canonicalSelection(one, ELEMENTS);
    const b = canonicalSelection(other, ELEMENTS);
    expect(JSON.stringify(b.selection.fieldsByTypeName)).to.equal(
      JSON.stringify(a.selection.fieldsByTypeName),
    );
    expect(a.responseKeys).to.equal(undefined);
    expect(b.responseKeys).not.to.equal(undefined);
  });

  it("keys a field asked under several response keys by each of them, and leaves __typename to GraphQL", () => {
    const asked = field(
      "topic",
      "topic",
      on(
        "Topic",
        field("decisions", "b", on("Decision", field("id"))),
        field("decisions", "a", on("Decision", field("id"))),
        field("__typename", "kind"),
      ),
    );
    const { selection, responseKeys } = canonicalSelection(asked, ELEMENTS);
    expect(keysOf(selection)).to.deep.equal({
      Topic: ["__typename=__typename", "decisions@1=decisions", "decisions@2=decisions"],
    });
    expect(responseKeys?.always.map(([written, responseKey]) => `${written}→${responseKey}`)).to.deep.equal([
      "decisions@1→a",
      "decisions@2→b",
    ]);
    expect(
      canonicalSelection(field("topic", "topic", on("Topic", field("__typename", "kind"))), ELEMENTS)
        .responseKeys,
    ).to.equal(undefined);
  });

  it("keeps an element type's fragment fields apart under an interface", () => {
    const asked = field("node", "node", {
      ...on("Node", field("id", "key")),
      ...on("Decision", field("title", "x")),
      ...on("Person", field("name", "x")),
    });
    const { responseKeys } = canonicalSelection(asked, ELEMENTS);
    expect(responseKeys?.always).to.deep.equal([["id", "key", undefined]]);
    expect(responseKeys?.byType).to.deep.equal({
      Decision: [["title", "x", undefined]],
      Person: [["name", "x", undefined]],
    });
  });
});

describe("canonicalSelection under an interface", () => {
  it("keys a field the interface and a fragment both select from both selections merged, in every type's entry", () => {
    const neighborhood = (...fields: Selection[]) =>
      field("neighborhood", "nb", on("Neighborhood", ...fields));
    const asked = field("node", "node", {
      ...on("Node", neighborhood(field("nodes", "n", on("NeighborhoodNode", field("distance", "d"))))),
      ...on("Topic", neighborhood(field("truncated", "t"))),
    });
    const { selection, responseKeys } = canonicalSelection(asked, ELEMENTS);
    const below = (type: string) => keysOf(selection.fieldsByTypeName[type]?.neighborhood ?? field("none"));
    expect(below("Node")).to.deep.equal({ Neighborhood: ["nodes=nodes", "truncated=truncated"] });
    expect(below("Topic")).to.deep.equal(below("Node"));
    if (responseKeys === undefined) throw new Error("renaming expected");
    const value = { neighborhood: { nodes: [{ distance: 1 }], truncated: false }, "@type": "Topic" };
    expect(withResponseKeys(responseKeys, value)).to.deep.equal({
      nb: { n: [{ d: 1 }], t: false },
      "@type": "Topic",
    });
  });
});

describe("withResponseKeys", () => {
  const asked = field(
    "topics",
    "topics",
    on(
      "Topic",
      field("id", "key"),
      field("decisions", "first", on("Decision", field("title", "heading"))),
      field("decisions", "again", on("Decision", field("id"))),
    ),
  );
  const { responseKeys } = canonicalSelection(asked, ELEMENTS);

  it("gives every map of a value its response keys, a field asked twice under both, the compiler's @ keys as they are", () => {
    if (responseKeys === undefined) throw new Error("renaming expected");
    const row = {
      id: "t1",
      "decisions@2": [
        { title: "A", "@id": "d1" },
        { title: "B", "@id": "d2" },
      ],
      "decisions@1": [{ id: "d1" }],
    };
    expect(withResponseKeys(responseKeys, [row, null])).to.deep.equal([
      {
        key: "t1",
        "@id": "t1",
        first: [
          { heading: "A", "@id": "d1" },
          { heading: "B", "@id": "d2" },
        ],
        again: [{ id: "d1" }],
      },
      null,
    ]);
  });

  it("adds an element type's own fields only to a map of that type", () => {
    const node = field("node", "node", {
      ...on("Node", field("id", "key")),
      ...on("Decision", field("title", "x")),
      ...on("Person", field("name", "x")),
    });
    const keys = canonicalSelection(node, ELEMENTS).responseKeys;
    if (keys === undefined) throw new Error("renaming expected");
    expect(withResponseKeys(keys, { id: "p1", name: "Ada", "@type": "Person" })).to.deep.equal({
      key: "p1",
      x: "Ada",
      "@id": "p1",
      "@type": "Person",
    });
    expect(withResponseKeys(keys, { id: "d1", title: "T", "@type": "Decision" })).to.deep.equal({
      key: "d1",
      x: "T",
      "@id": "d1",
      "@type": "Decision",
    });
  });
});

describe("one text for one question (no database)", () => {
  it("sends the same Cypher for any valid generated document and the same document reworded (property)", async function () {
    this.timeout(120_000);
    const schema = await translatingSchema();
    const sent = async (document: DocumentNode, variables: Record<string, unknown>) =>
      queriesSent(await translateDocument(schema, document, variables))
        .map(({ text }) => text)
        .sort();
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(validatedDocumentArbitrary(schema), async ({ text, variables, valid: document }) => {
        if (document === undefined) return;
        const asked = await sent(document, variables);
        expect(await sent(reworded(document), variables), text).to.deep.equal(asked);
        if (asked.length > 0) compared++;
      }),
      { numRuns: 300 },
    );
    // Most valid documents reach the compiler.
    expect(compared).to.be.above(100);
  });
});
