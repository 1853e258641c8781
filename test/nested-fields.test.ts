import { expect } from "chai";
import fc from "fast-check";
import { reworded } from "../bench/cold-shapes.js";
import { LIMITS } from "../src/contract.js";
import { exceedsCodePoints } from "../src/http/request-body.js";
import { countingDriver } from "./support/counting-driver.js";
import { described, printingFirstFailure, timeLimit, validatedDocumentArbitrary } from "./support/fuzz.js";
import { buildTestSchema, startCountingService, type RunningService } from "./support/service.js";

/** `value` with one leading `k_` taken off every key, as {@link reworded} put it on. */
const unworded = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(unworded)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value).map(([key, held]) => [key.replace(/^k_/, ""), unworded(held)]),
        )
      : value;

describe("nested fields on the fixture graph", () => {
  let service: RunningService;
  let counter: ReturnType<typeof countingDriver>;
  before(async () => {
    ({ service, counter } = await startCountingService());
  });
  after(() => service.close());

  it("answers topic → decisions → decidedBy with exactly one Cypher query", async () => {
    counter.reset();
    const { status, body } = await service.graphql(
      '{ topic(id: "t1") { name decisions(limit: 20) { id title decidedAt decidedBy { name email } topic { name } } } }',
    );
    expect(status).to.equal(200);
    expect(counter.queries()).to.equal(1);
    expect(body.data.topic.decisions.map((d: { id: string }) => d.id)).to.deep.equal([
      "d1",
      "d2",
      "d8",
      "d4",
    ]);
  });

  it("runs one Cypher query per request, however deep its selection", async () => {
    counter.reset();
    const { body } = await service.graphql(
      "{ topics(limit: 2) { decisions(limit: 5) { decidedBy { decisionsMade(limit: 5) { topic { disagreements(limit: 5) { participants(limit: 5) { id } } } } } } } }",
    );
    expect(body.errors).to.equal(undefined);
    expect(counter.queries()).to.equal(1);
  });

  it("sends one Cypher text for one question, whatever its aliases and the order of its fields, answering under the request's own keys in its order", async () => {
    const ask = async (query: string) => {
      counter.reset();
      const { status, body } = await service.graphql(query);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.errors).to.equal(undefined);
      return {
        data: body.data,
        texts: counter
          .recorded()
          .map(({ text }) => text)
          .sort(),
      };
    };
    type Row = { id: string; title: string; decidedBy: { name: string } | null };
    const plain = await ask(
      '{ topic(id: "t1") { name decisions(limit: 3) { id title decidedBy { name } } } }',
    );
    const topic = plain.data.topic as { name: string; decisions: Row[] };
    expect(topic.decisions).to.have.length(3);
    const worded = await ask(
      '{ t: topic(id: "t1") { decisions(limit: 3) { decidedBy { who: name } heading: title key: id } label: name } }',
    );
    expect(worded.texts).to.deep.equal(plain.texts);
    expect(worded.data).to.deep.equal({
      t: {
        decisions: topic.decisions.map((row) => ({
          decidedBy: row.decidedBy === null ? null : { who: row.decidedBy.name },
          heading: row.title,
          key: row.id,
        })),
        label: topic.name,
      },
    });
    expect(Object.keys(worded.data.t)).to.deep.equal(["decisions", "label"]);
    expect(Object.keys(worded.data.t.decisions[0])).to.deep.equal(["decidedBy", "heading", "key"]);

    // A field asked twice at one level, each under its own key.
    const twice = await ask(
      '{ topic(id: "t1") { b: decisions(limit: 1) { id } a: decisions(limit: 3) { id again: id } } }',
    );
    const ids = topic.decisions.map((row) => row.id);
    expect(twice.data.topic).to.deep.equal({
      b: [{ id: ids[0] }],
      a: ids.map((id) => ({ id, again: id })),
    });

    // Root fields in another order: the same statements.
    const roots = [
      "features(stage: IDEA) { id }",
      "decisions(limit: 2) { id title }",
      'topic(id: "t1") { name }',
    ];
    const forth = await ask(`{ ${roots.join(" ")} }`);
    const back = await ask(`{ ${[...roots].reverse().join(" ")} }`);
    expect(back.texts).to.deep.equal(forth.texts);
    expect(back.data).to.deep.equal(forth.data);
    expect(Object.keys(back.data)).to.deep.equal(["topic", "decisions", "features"]);
  });

  it("answers any valid generated document reworded (aliases, fields reversed) with the same data and errors under its own keys (property)", async function () {
    this.timeout(240_000);
    const schema = await buildTestSchema();
    let sent = 0;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        validatedDocumentArbitrary(schema),
        printingFirstFailure(async ({ text, variables, valid }) => {
          if (valid === undefined) return;
          // Aliases lengthen a document: one the limit refuses only once reworded says nothing of
          // the wording either.
          const rewording = reworded(text, LIMITS.aliases);
          if (exceedsCodePoints(rewording, LIMITS.queryCharacters)) return;
          sent++;
          const asked = await service.graphql(text, variables);
          const again = await service.graphql(rewording, variables);
          // A first asking past the suite's query timeout (504), or shed (503), says nothing of the
          // wording: the reworded one is planned by then.
          const busy = (status: number) => status === 503 || status === 504;
          if (busy(asked.status) || busy(again.status)) return;
          expect(again.status, text).to.equal(asked.status);
          if (asked.status !== 200) return;
          // Each error's message and path (response keys without `k_`), in one order: the reworded
          // document's fields run in reverse order.
          const errors = (body: typeof asked.body) =>
            ((body.errors ?? []) as { message: string; path?: unknown[] }[])
              .map(({ message, path }) =>
                JSON.stringify([
                  message,
                  path?.map((key) => (typeof key === "string" ? key.replace(/^k_/, "") : key)),
                ]),
              )
              .sort();
          expect(unworded(again.body.data), text).to.deep.equal(asked.body.data);
          expect(errors(again.body), text).to.deep.equal(errors(asked.body));
          compared++;
        }, described),
      ),
      // On a slow machine the runs stop short of 60 rather than fail the suite's timeout.
      { numRuns: 60, plugins: timeLimit(this.timeout(), false) },
    );
    // Most generated documents are valid; some of those are refused (limits, arguments).
    expect(sent).to.be.above(10);
    expect(compared).to.be.above(0);
  });

  it("asks a new document's five root fields apart, then, once it repeats, as one combined query, answering exactly what five requests answer", async () => {
    const fields = [
      "decisions(topicId: $topic, limit: 3) { id title decidedBy { name } }",
      "again: decisions(status: DECIDED, limit: $limit) { id status }",
      "topic(id: $topic) { name decisions(limit: 2) { id } }",
      "features(stage: IDEA) { id name owner { id } }",
      "people(limit: $limit) { id openCommitments { decision { id } } }",
    ];
    const variables = { topic: "t1", limit: 2 };
    const declare = (selection: string) => {
      const used = [
        ["$topic", "$topic: ID!"],
        ["$limit", "$limit: Int"],
      ].filter(([name]) => selection.includes(name ?? ""));
      const definitions = used.map(([, definition]) => definition).join(", ");
      return `query${definitions === "" ? "" : `(${definitions})`} { ${selection} }`;
    };
    const alone = [];
    const aloneTexts: string[] = [];
    for (const field of fields) {
      counter.reset();
      const { body } = await service.graphql(declare(field), variables);
      expect(body.errors, field).to.equal(undefined);
      alone.push(body.data);
      aloneTexts.push(counter.recorded()[0]?.text ?? "");
    }

    const expected = Object.assign({}, ...alone) as Record<string, unknown>;
    expect(
      Object.values(expected).every((value) => value !== null && JSON.stringify(value) !== "[]"),
    ).to.equal(true);
    const ask = async () => {
      counter.reset();
      const { status, body } = await service.graphql(declare(fields.join(" ")), variables);
      expect(status).to.equal(200);
      expect(body.data).to.deep.equal(expected);
      return counter.recorded().filter((query) => !query.text.startsWith("EXPLAIN"));
    };

    // The combination is new: it is asked apart, in at most four statements, each a root field's
    // query as the five requests above sent it or a combination of a few, three times; then Neo4j
    // is asked to plan the whole combination.
    for (let asking = 0; asking < 3; asking++) {
      const sent = await ask();
      expect(sent.length).to.be.within(2, 4);
      for (const { text } of sent)
        expect(aloneTexts.includes(text) || /^CYPHER 5\nRETURN COLLECT \{/.test(text), text).to.equal(true);
      expect(sent.filter(({ text }) => aloneTexts.includes(text)).length).to.be.at.least(1);
    }
    let combined: { text: string }[] = [];
    for (let asking = 0; asking < 50 && combined.length === 0; asking++) {
      const sent = await ask();
      if (sent.length === 1) combined = sent;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(combined).to.have.length(1);
    expect(combined[0]?.text).to.match(/^CYPHER 5\nRETURN COLLECT \{/);
  });

  it("links a decision to its decider and topic, null when there is none", async () => {
    const { body } = await service.graphql(
      '{ a: decision(id: "d1") { decidedBy { id } topic { id } } b: decision(id: "d5") { decidedBy { id } topic { id } } }',
    );
    expect(body.data).to.deep.equal({
      a: { decidedBy: { id: "p1" }, topic: { id: "t1" } },
      b: { decidedBy: null, topic: { id: "t3" } },
    });
  });

  it("returns the lowest id when a single-valued link has several targets", async () => {
    const { body } = await service.graphql(
      '{ decision(id: "d2") { decidedBy { id } } d8: decision(id: "d8") { topic { id } } people(limit: 1) { openCommitments { id decision { id } } } }',
    );
    expect(body.data.decision.decidedBy).to.deep.equal({ id: "p2" });
    expect(body.data.d8.topic).to.deep.equal({ id: "t1" });
    expect(body.data.people[0].openCommitments).to.deep.include({ id: "m4", decision: { id: "d2" } });
  });

  it("lists open commitments earliest dueOn first, undated last, without DONE ones", async () => {
    const { body } = await service.graphql(
      "{ people(limit: 1) { id openCommitments { id dueOn status owner { id } } } }",
    );
    expect(body.data.people).to.deep.equal([
      {
        id: "p1",
        openCommitments: [
          { id: "m4", dueOn: "2025-04-01", status: "OPEN", owner: { id: "p1" } },
          { id: "m1", dueOn: "2025-05-01", status: "OPEN", owner: { id: "p1" } },
          { id: "m2", dueOn: null, status: "OPEN", owner: { id: "p1" } },
        ],
      },
    ]);
  });

  it("counts duplicate relationships once in lists", async () => {
    const { body } = await service.graphql(
      '{ disagreements(topicId: "t1") { id participants { id } } features(limit: 1) { requestedBy { id } } people(limit: 1) { decisionsMade { id } } }',
    );
    expect(body.data.disagreements).to.deep.equal([
      { id: "g2", participants: [{ id: "p3" }] },
      { id: "g1", participants: [{ id: "p1" }, { id: "p2" }] },
    ]);
    expect(body.data.features).to.deep.equal([{ requestedBy: [{ id: "c2" }, { id: "c1" }] }]);
    expect(body.data.people[0].decisionsMade).to.deep.equal([
      { id: "d1" },
      { id: "d6" },
      { id: "d3" },
      { id: "d7" },
    ]);
  });

  it("orders a topic's decisions and disagreements like the root fields", async () => {
    const { body } = await service.graphql(
      '{ topic(id: "t2") { decisions { id } disagreements { id topic { id } } } customers { id requestedFeatures { id owner { id } } } }',
    );
    expect(body.data.topic).to.deep.equal({
      // d6 and d9 share an instant (Z and Europe/Paris): id breaks the tie.
      decisions: [{ id: "d6" }, { id: "d9" }, { id: "d3" }],
      disagreements: [
        { id: "g4", topic: { id: "t2" } },
        { id: "g3", topic: { id: "t2" } },
      ],
    });
    expect(body.data.customers).to.deep.equal([
      {
        id: "c2",
        requestedFeatures: [
          { id: "f1", owner: { id: "p1" } },
          { id: "f2", owner: { id: "p3" } },
        ],
      },
      { id: "c3", requestedFeatures: [] },
      { id: "c1", requestedFeatures: [{ id: "f1", owner: { id: "p1" } }] },
    ]);
  });

  it("orders every nested list exactly as its root list with the parent filter", async () => {
    for (const topic of ["t1", "t2", "t3"]) {
      const { body } = await service.graphql(
        `{ topic(id: "${topic}") { decisions { id } disagreements { id } } decisions(topicId: "${topic}") { id } disagreements(topicId: "${topic}") { id } }`,
      );
      expect(body.data.topic.decisions, topic).to.deep.equal(body.data.decisions);
      expect(body.data.topic.disagreements, topic).to.deep.equal(body.data.disagreements);
    }
    const { body } = await service.graphql("{ people { id decisionsMade { id decidedBy { id } } } }");
    expect(body.data.people.map((p: { decisionsMade: unknown[] }) => p.decisionsMade)).to.deep.equal([
      [
        { id: "d1", decidedBy: { id: "p1" } },
        { id: "d6", decidedBy: { id: "p1" } },
        { id: "d3", decidedBy: { id: "p1" } },
        { id: "d7", decidedBy: { id: "p1" } },
      ],
      [
        { id: "d2", decidedBy: { id: "p2" } },
        { id: "d4", decidedBy: { id: "p3" } },
      ],
      [
        { id: "d9", decidedBy: { id: "p2" } },
        { id: "d2", decidedBy: { id: "p2" } },
      ],
    ]);
  });

  it("applies a nested limit", async () => {
    const { body } = await service.graphql('{ topic(id: "t1") { decisions(limit: 2) { id } } }');
    expect(body.data.topic.decisions).to.deep.equal([{ id: "d1" }, { id: "d2" }]);
  });
});
