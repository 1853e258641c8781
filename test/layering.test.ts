import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect } from "chai";
import { projectRoot } from "../src/project-root.js";

const SRC = join(projectRoot, "src");

/** A module's unit: its folder under src/, or the file's own name for files directly in src/. */
const unitOf = (file: string) => {
  const [first, second] = relative(SRC, file).split("/");
  return second === undefined ? (first ?? "").replace(/\.[jt]s$/, "") : (first ?? "");
};

/** Every unit each unit imports (type-only imports included: they couple too). */
function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(SRC, name));
  for (const file of files) {
    const from = unitOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(
      /from\s+"(\.{1,2}\/[^"]+)"|import\("(\.{1,2}\/[^"]+)"\)/g,
    )) {
      const target = unitOf(resolve(dirname(file), specifier ?? ""));
      if (target !== from) edges.add(target);
    }
  }
  return graph;
}

describe("layering of src/", () => {
  const graph = unitGraph();

  it("keeps the error catalogue, the contract's numbers and the domain table leaves: they import nothing of ours", () => {
    expect([...(graph.get("errors") ?? [])]).to.deep.equal([]);
    expect([...(graph.get("contract") ?? [])]).to.deep.equal([]);
    expect([...(graph.get("domain") ?? [])]).to.deep.equal([]);
  });

  it("has no folder that imports a folder importing it back, directly or through others", () => {
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (unit: string, path: string[]) => {
      if (state.get(unit) === "done") return;
      if (state.get(unit) === "visiting") {
        cycles.push([...path.slice(path.indexOf(unit)), unit].join(" → "));
        return;
      }
      state.set(unit, "visiting");
      for (const next of graph.get(unit) ?? []) visit(next, [...path, unit]);
      state.set(unit, "done");
    };
    for (const unit of graph.keys()) visit(unit, []);
    expect(cycles).to.deep.equal([]);
  });

  it("has the service at the top: nothing imports main, only main the service, only the service the assembly, only those two the app", () => {
    for (const [unit, edges] of graph) {
      expect(edges.has("main"), `${unit} imports main`).to.equal(false);
      if (unit !== "main") expect(edges.has("service"), `${unit} imports service`).to.equal(false);
      if (unit !== "service") expect(edges.has("assembly"), `${unit} imports assembly`).to.equal(false);
      if (unit !== "service" && unit !== "assembly")
        expect(edges.has("app"), `${unit} imports app`).to.equal(false);
    }
  });
});
