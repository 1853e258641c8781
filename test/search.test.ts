import { expect } from "chai";
import { candidateQuery, searchWords } from "../src/cypher/search.js";
import { ingest, loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";

// Contract §7, v1 additions part 2: `search` keeps the rows whose text holds every word of the
// search string as a word or the start of one, case- and accent-insensitive; words are runs of
// letters and digits, and nothing else in the string has a meaning.

/** Titles the ingest wrote beside the fixture's (plain Cypher): accents, punctuation, Lucene's syntax, scripts. */
const MORE_DECISIONS = `
CREATE (:Decision {id: 's1', title: 'Crème brûlée pricing for Zürich', status: 'DECIDED'})
CREATE (:Decision {id: 's2', title: "O'Brien's plan: AT&T deal (v2.5)", status: 'PROPOSED'})
CREATE (:Decision {id: 's3', title: 'title:x*~ a AND (b', status: 'PROPOSED'})
CREATE (:Decision {id: 's4', title: 'E\u0301cole normale', status: 'PROPOSED'})
CREATE (:Decision {id: 's5', title: '日本語のテキスト', status: 'PROPOSED'})
CREATE (:Decision {id: 's6', title: 'Große Straße', status: 'PROPOSED'})
CREATE (:Decision {id: 's7', title: 42, status: 'PROPOSED'})
CREATE (:Decision {id: 's8', title: '서울 사무소 이전', status: 'PROPOSED'})
CREATE (:Decision {id: 's9', title: '석서 계약', status: 'PROPOSED'})
CREATE (:Decision {id: 's10', title: 'ᴀbc ɐbc ʙob', status: 'PROPOSED'})
CREATE (:Decision {id: 's11', title: 'Plan ① stage x₅', status: 'PROPOSED'})
CREATE (:Decision {id: 's12', title: '${"부산 지사".normalize("NFD")}', status: 'PROPOSED'})
`;

describe("search (contract §7, v1 additions part 2) on the ingest-style fixture", () => {
  let service: RunningService;
  before(async () => {
    await loadFixtures();
    await ingest(MORE_DECISIONS);
    service = await startService();
  });
  after(async () => {
    await service.close();
    await loadFixtures();
  });

  const ids = async (field: string, args: string, variables?: Record<string, unknown>) => {
    const query = variables === undefined ? `{ ${field}(${args}) { id } }` : args;
    const { status, body } = await service.graphql(query, variables);
    expect(body.errors, `${query}\n${JSON.stringify(body.errors)}`).to.equal(undefined);
    expect(status).to.equal(200);
    return (body.data[field] as { id: string }[]).map((row) => row.id);
  };
  const decisions = (search: string, more = "") =>
    ids("decisions", `search: ${JSON.stringify(search)}${more === "" ? "" : `, ${more}`}, limit: 100`);

  it("finds words and the starts of words, in any order, whatever their case and accents", async () => {
    // Newest first, the undated rows last by id (the list's own order).
    expect(await decisions("pricing")).to.deep.equal(["d66", "d1", "s1"]);
    expect(await decisions("PRIC")).to.deep.equal(["d10", "d66", "d1", "s1"]);
    for (const search of ["creme", "CRÈME BRU", "cre\u0300me", "brulee zur", "zürich crème"])
      expect(await decisions(search), search).to.deep.equal(["s1"]);
    // "rich" is inside "Zürich", not the start of a word.
    expect(await decisions("rich")).to.deep.equal([]);
    expect(await decisions("usage based")).to.deep.equal(["d1"]);
    expect(await decisions("based usage")).to.deep.equal(["d1"]);
    expect(await decisions("usage-bas")).to.deep.equal(["d1"]);
  });

  it("splits words on anything but letters and digits, the search's and the text's alike", async () => {
    expect(await decisions("brien")).to.deep.equal(["s2"]);
    expect(await decisions("O'Brien")).to.deep.equal(["s2"]);
    expect(await decisions("AT&T")).to.deep.equal(["s2"]);
    expect(await decisions("5")).to.deep.equal(["s2"]);
    expect(await decisions("v2")).to.deep.equal(["s2"]);
    // A text stored decomposed (E + U+0301) and a search written composed.
    expect(await decisions("école")).to.deep.equal(["s4"]);
    expect(await decisions("ECOLE norm")).to.deep.equal(["s4"]);
    // Accents are the marks Unicode decomposition separates; ß is a letter of its own.
    expect(await decisions("straße gro")).to.deep.equal(["s6"]);
    expect(await decisions("STRASSE")).to.deep.equal([]);
    // A run of Han, Hiragana and Katakana letters is one word: its start matches, its middle not.
    expect(await decisions("日本")).to.deep.equal(["s5"]);
    expect(await decisions("テキスト")).to.deep.equal([]);
    // Hangul, which decomposition splits into jamo: a syllable is a letter of its own, so 서 begins
    // neither 석 nor 석서, though the jamo of both begin with 서's.
    for (const search of ["서울", "서", "사무소 이전", "이"])
      expect(await decisions(search), search).to.deep.equal(["s8"]);
    expect(await decisions("석")).to.deep.equal(["s9"]);
    expect(await decisions("서울 석서")).to.deep.equal([]);
    // A text the ingest wrote decomposed (jamo), searched composed or decomposed.
    for (const search of ["부산", "지", "부산".normalize("NFD")])
      expect(await decisions(search), search).to.deep.equal(["s12"]);
    // Letters and digits the index folds to ASCII (ᴀ to a, ① to 1, ₅ to 5) are found as written.
    for (const search of ["ᴀbc", "ɐbc", "ʙob", "①", "x₅", "ᴀ ʙ"])
      expect(await decisions(search), search).to.deep.equal(
        search === "①" || search === "x₅" ? ["s11"] : ["s10"],
      );
    expect(await decisions("abc")).to.deep.equal([]);
  });

  it("gives Lucene's syntax no meaning: the words of `a AND (b` and `title:x*~` are plain words", async () => {
    expect(await decisions("a AND (b")).to.deep.equal(["s3"]);
    expect(await decisions("title:x*~")).to.deep.equal(["s3"]);
    expect(await decisions('+"x" -title')).to.deep.equal(["s3"]);
    expect(await decisions("x~2 || title^3")).to.deep.equal([]);
    // Nothing but punctuation: no word, so every row holds every word of it (none).
    expect(await decisions('\\ + - && || ! ( ) { } [ ] ^ " ~ * ? : /')).to.deep.equal(
      await ids("decisions", "limit: 100"),
    );
    // A title that is not a string holds no word.
    expect(await decisions("42")).to.deep.equal([]);
    expect(await decisions("zzz")).to.deep.equal([]);
  });

  it("combines with filters, a parent, orderBy, cursors and totalCount", async () => {
    expect(await decisions("pricing", "status: DECIDED")).to.deep.equal(["d1", "s1"]);
    expect(await decisions("pricing", 'topicId: "t1"')).to.deep.equal(["d1"]);
    expect(await decisions("pric", "orderBy: {field: TITLE, direction: ASC}")).to.deep.equal([
      "d1",
      "s1",
      "d10",
      "d66",
    ]);
    expect(await decisions("pric", 'since: "2025-03-31"')).to.deep.equal(["d10", "d66", "d1"]);
    // Walked one row at a time, in an order of its own, with the total on every page.
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const paging: string = after === null ? "" : `, after: "${after}"`;
      const { body } = await service.graphql(
        `{ decisionsConnection(search: "pric", orderBy: {field: TITLE, direction: DESC}, first: 1${paging}) {
          totalCount pageInfo { hasNextPage endCursor } nodes { id } } }`,
      );
      expect(body.errors).to.equal(undefined);
      const connection = body.data.decisionsConnection;
      expect(connection.totalCount).to.equal(4);
      seen.push(...connection.nodes.map((node: { id: string }) => node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor as string;
    }
    expect(seen).to.deep.equal(["d66", "d10", "s1", "d1"]);
    const counted = await service.graphql(
      '{ decisionsConnection(search: "a", status: PROPOSED) { totalCount } }',
    );
    // d4 "Consider annual plans", s2 "O'Brien's plan: AT&T…", s3 "title:x*~ a AND (b".
    expect(counted.body.data.decisionsConnection.totalCount).to.equal(3);
  });

  it("searches every root list: names, a topic's canonical answer, summaries", async () => {
    expect(await ids("topics", 'search: "billed"')).to.deep.equal(["t1"]);
    expect(await ids("topics", 'search: "pricing usage"')).to.deep.equal(["t1"]);
    expect(await ids("people", 'search: "ada"')).to.deep.equal(["p1"]);
    expect(await ids("features", 'search: "zebra"')).to.deep.equal(["f4", "f5"]);
    expect(await ids("customers", 'search: "glob"')).to.deep.equal(["c3"]);
    expect(await ids("disagreements", 'search: "paris hire"')).to.deep.equal(["g4"]);
    const { body } = await service.graphql(
      '{ peopleConnection(search: "a", first: 1) { totalCount nodes { id } } }',
    );
    expect(body.data.peopleConnection).to.deep.equal({ totalCount: 2, nodes: [{ id: "p1" }] });
    expect(
      await ids("decisions", "query ($s: String) { decisions(search: $s) { id } }", { s: "école" }),
    ).to.deep.equal(["s4"]);
  });

  it("refuses an empty, a blank and a 201-character search with 422 validation_failed; takes 200", async () => {
    for (const search of ["", "   ", "\t\n", "a".repeat(201), "é".repeat(201)]) {
      const { status, body } = await service.graphql(
        `{ decisionsConnection(search: ${JSON.stringify(search)}) { totalCount } }`,
      );
      expect(status, JSON.stringify(search)).to.equal(422);
      expect(body.errors[0].extensions.code).to.equal("validation_failed");
    }
    const viaVariable = await service.graphql("query ($s: String) { topics(search: $s) { id } }", { s: " " });
    expect(viaVariable.status).to.equal(422);
    expect(viaVariable.body.errors[0].message).to.equal(
      'Argument "search" on field "Query.topics" must not be empty or blank.',
    );
    const long = await service.graphql(`{ topics(search: "${"a".repeat(201)}") { id } }`);
    expect(long.body.errors[0].message).to.equal(
      'Argument "search" on field "Query.topics" must be at most 200 characters; got 201.',
    );
    expect(await decisions("é".repeat(200))).to.deep.equal([]);
  });
});

describe("search's candidate query (no database)", () => {
  it("asks the index with letters and digits only, each word a pattern of its folded letters", () => {
    expect(searchWords("a AND (b")).to.deep.equal(["a", "AND", "b"]);
    // Words that begin a stop word (which the index leaves out) ask the index nothing.
    expect(candidateQuery("a AND (b")).to.equal(undefined);
    expect(candidateQuery("AT&T thermal")).to.equal("+*t*h*e*r*m*a*l*");
    expect(candidateQuery('title:x*~ "quoted" \\')).to.equal("+*t*i*t*l*e* +*x* +*q*u*o*t*e*d*");
    expect(candidateQuery("Crème Straße")).to.equal("+*c*r*e*m*e* +*s*t*r*a*ss*e*");
    // Han characters are tokens of their own in the index; Katakana runs are not.
    expect(candidateQuery("日本 テキ")).to.equal("+日 +本 +*テ*キ*");
    // A letter the index may fold in a way not known here is left to a wildcard.
    expect(candidateQuery("ŋoz")).to.equal("+*o*z*");
    expect(candidateQuery("ΟΔΟΣ")).to.equal("+*ο*δ*ο*");
    // Hangul as the index holds a text written composed (syllables) or decomposed (jamo).
    expect(candidateQuery("서울")).to.equal("+(*서*울* *ᄉ*ᅥ*ᄋ*ᅮ*ᆯ*)");
    // Folded by the index to ASCII in ways not known here: ᴀ (U+1D00), ɐ (U+0250), ① and ₅.
    expect(candidateQuery("ᴀbc ɐx ① x₅")).to.equal("+*b*c* +*x*");
    expect(candidateQuery("?!")).to.equal(undefined);
  });
});
