import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect } from "chai";
import { Kind, parse, print } from "graphql";
import { SETTINGS } from "../src/config.js";
import { seedDemoData } from "../src/demo-data/seed.js";
import { ERROR_CATALOGUE } from "../src/errors/catalogue.js";
import { projectRoot } from "../src/project-root.js";
import { loadFixtures } from "./support/fixtures.js";
import { startService, type RunningService } from "./support/service.js";
import { testDatabase, testDriver } from "./support/test-neo4j.js";

/** The README stays a page a newcomer reads in five minutes; the rest belongs in docs/. */
const README_MAX_LINES = 185;

/** The README and every page of docs/, by path from the project root. */
const PAGES = [
  "README.md",
  ...readdirSync(join(projectRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

const read = (page: string) => readFileSync(join(projectRoot, page), "utf8");

/** A page's `## title` section, up to the next `## ` heading. */
function section(page: string, title: string): string {
  const text = read(page);
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`${page} has no section "## ${title}"`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of `language` in a text, in order. */
const blocks = (text: string, language: string) =>
  [...text.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```", "gm"))].map(
    (match) => match[1] as string,
  );

interface Example {
  page: string;
  text: string;
  /** Its first line: a `#` comment saying what it asks, which names it below; else its first field. */
  title: string;
}

/** An example's first line that says something: its comment, else its first field. */
const titleOf = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .find((line) => !/^(\{|query|\()/.test(line) && line !== "") ?? "";

/** Every ```graphql block of the README and of docs/. */
const EXAMPLES: Example[] = PAGES.flatMap((page) =>
  blocks(read(page), "graphql").map((text) => ({ page, text, title: titleOf(text) })),
);

/**
 * Examples that page through a connection with a `$after` variable, by title: run as the text
 * around them says, first without `after`, then with the last `endCursor` until `hasNextPage` is
 * false. An example declaring variables must be listed here or in {@link NOT_RUN}: none is
 * skipped silently.
 */
const PAGING_LOOPS = new Set(["# Every decision about a topic since March, 50 at a time, with the total."]);

/** Examples shown but not sent, by title, with the reason. None today. */
const NOT_RUN: Readonly<Record<string, string>> = {};

/** The operation's variables, by name. */
function variablesOf(example: Example): string[] {
  return parse(example.text).definitions.flatMap((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION
      ? (definition.variableDefinitions ?? []).map((variable) => variable.variable.name.value)
      : [],
  );
}

/**
 * The ids of the headings of a Markdown text as GitHub writes them: lower case, punctuation
 * dropped, spaces as hyphens, a repeated one suffixed `-1`, `-2`….
 */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(text).matchAll(/^#{1,6} (.*)$/gm)) {
    const base = (heading ?? "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${String(n)}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** A Markdown text without its fenced blocks and with its code spans emptied: what renders as prose. */
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "`…`");

describe("README and docs/: every example runs on the demo data", () => {
  let service: RunningService;

  before(async function () {
    this.timeout(120_000);
    // The examples name the demo organisation's ids (`topic-01`): the data `npm start` loads.
    await seedDemoData(testDriver(), testDatabase, "small", 42, () => undefined);
    service = await startService();
  });
  after(async () => {
    await service.close();
    await loadFixtures();
  });

  it("finds the examples of the README and of the query guide", () => {
    expect(EXAMPLES.filter((example) => example.page === "README.md")).to.have.length(3);
    expect(EXAMPLES.filter((example) => example.page === "docs/queries.md")).to.have.length.of.at.least(8);
  });

  it("handles every example with variables explicitly, and lists no example that is gone", () => {
    const unhandled = EXAMPLES.filter(
      (example) =>
        variablesOf(example).length > 0 && !PAGING_LOOPS.has(example.title) && !(example.title in NOT_RUN),
    );
    expect(unhandled.map((example) => `${example.page}: ${example.title}`)).to.deep.equal([]);
    const titles = new Set(EXAMPLES.map((example) => example.title));
    expect([...PAGING_LOOPS, ...Object.keys(NOT_RUN)].filter((title) => !titles.has(title))).to.deep.equal(
      [],
    );
  });

  for (const [index, example] of EXAMPLES.entries()) {
    if (example.title in NOT_RUN) continue;
    it(`${example.page} example ${String(index + 1)}: ${example.title}`, async () => {
      if (PAGING_LOOPS.has(example.title)) {
        await pageThrough(example);
        return;
      }
      const { status, body } = await service.graphql(example.text);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.errors).to.equal(undefined);
      // Each root field finds something in the demo data: a newcomer trying it sees an answer.
      for (const [field, value] of Object.entries(body.data as Record<string, unknown>)) {
        expect(value, `${field} of ${JSON.stringify(body.data)}`).not.to.equal(null);
        if (Array.isArray(value)) expect(value, field).not.to.deep.equal([]);
      }
    });
  }

  describe("the README's first query", () => {
    const first = section("README.md", "A first query");
    const [query] = blocks(first, "graphql");
    const [curl] = blocks(first, "sh");
    const [answer] = blocks(first, "json");
    const payload = /-d '(.*)'/.exec(curl ?? "")?.[1];

    it("is sent with curl as it is shown", () => {
      if (query === undefined || payload === undefined) throw new Error("no query or no curl -d '…'");
      const sent = JSON.parse(payload) as { query: string };
      expect(print(parse(sent.query))).to.equal(print(parse(query)));
    });

    it("answers exactly as shown, cost included", async () => {
      if (payload === undefined || answer === undefined) throw new Error("no curl -d '…' or no answer");
      const { status, body } = await service.request("/api/v1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: payload,
      });
      expect(status).to.equal(200);
      expect(body).to.deep.equal(JSON.parse(answer));
    });
  });

  /** Sends a paging example with `after` set to the last `endCursor` until `hasNextPage` is false. */
  async function pageThrough(example: Example): Promise<void> {
    let after: string | null = null;
    let rows = 0;
    let total: number | undefined;
    for (let page = 1; ; page++) {
      expect(page, "pages").to.be.at.most(20);
      const { status, body } = await service.graphql(example.text, after === null ? {} : { after });
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.errors).to.equal(undefined);
      const [connection] = Object.values(body.data as Record<string, ConnectionPage>);
      if (connection === undefined) throw new Error("no connection in the answer");
      rows += connection.edges.length;
      total = connection.totalCount;
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(rows, "rows over all pages").to.equal(total).and.to.be.greaterThan(0);
  }
});

interface ConnectionPage {
  totalCount: number;
  edges: unknown[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

describe("README and docs/: what they say about the code", () => {
  it(`keeps the README to at most ${String(README_MAX_LINES)} lines`, () => {
    expect(read("README.md").split("\n").length).to.be.at.most(README_MAX_LINES);
  });

  it("sends README readers to every page of docs/", () => {
    const linked = new Set([...read("README.md").matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]));
    expect(PAGES.filter((page) => page.startsWith("docs/") && !linked.has(page))).to.deep.equal([]);
  });

  it("names in the project layout every folder and file under src/, every top-level folder and docs/ file", () => {
    const layout = blocks(section("docs/development.md", "Project layout"), "")[0] ?? "";
    const named = new Set(layout.split("\n").map((line) => line.split(/\s{2,}/)[0]));
    const entries = (folder: string) =>
      readdirSync(join(projectRoot, folder), { withFileTypes: true }).map((entry) =>
        entry.isDirectory() ? `${folder}/${entry.name}/` : `${folder}/${entry.name}`,
      );
    // Folders git ignores (node_modules/, a build's dist/) are no part of the layout.
    const ignored = new Set(
      readFileSync(join(projectRoot, ".gitignore"), "utf8")
        .split("\n")
        .filter((line) => /^[\w.-]+\/$/.test(line))
        .map((line) => line.slice(0, -1)),
    );
    const topFolders = readdirSync(projectRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !ignored.has(entry.name))
      .map((entry) => `${entry.name}/`)
      .filter((folder) => folder !== "src/" && folder !== "docs/");
    const missing = [...entries("src"), ...entries("docs"), ...topFolders].filter((path) => !named.has(path));
    expect(missing).to.deep.equal([]);
  });

  it("lists in the configuration table exactly the settings src/config.ts reads", () => {
    const table = section("docs/operations.md", "Configuration");
    const named = [...table.matchAll(/^\| ([^|]*)\|/gm)].flatMap((row) =>
      [...(row[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] as string),
    );
    expect([...new Set(named)].sort()).to.deep.equal([...SETTINGS].sort());
  });

  it("names every code of the error catalogue where the query guide lists the errors", () => {
    const errors = section("docs/queries.md", "Errors");
    const missing = Object.keys(ERROR_CATALOGUE).filter((code) => !errors.includes(`\`${code}\``));
    expect(missing).to.deep.equal([]);
  });

  it("links only inside the repository, to files and headings that exist", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const prose = withoutCode(read(page));
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^(https?|mailto):/.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? join(projectRoot, page) : resolve(projectRoot, dirname(page), path);
        if (relative(projectRoot, file).startsWith(".."))
          broken.push(`${page}: ${target} leaves the repository`);
        else if (!existsSync(file)) broken.push(`${page}: ${target} does not exist`);
        else if (anchor !== undefined && !anchorsOf(readFileSync(file, "utf8")).has(anchor))
          broken.push(`${page}: ${target} names no heading`);
      }
      if (read(page).includes("../shared")) broken.push(`${page}: names ../shared`);
    }
    expect(broken).to.deep.equal([]);
  });
});
