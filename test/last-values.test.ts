// Issue 32: what known statements were last answered with, for pre-planning to run them again
// after a restart. Pure logic: bounded by the last round's texts.
import { expect } from "chai";
import { LastValues } from "../src/planning/last-values.js";

describe("the last values of known statements", () => {
  it("keeps a known text's last values and nothing of an unknown text", () => {
    const values = new LastValues();
    values.answered("MATCH (a) RETURN a", { id: "t0" });
    values.expectOnly(["MATCH (a) RETURN a"]);
    expect(values.valuesOf("MATCH (a) RETURN a"), "answered before it was known").to.equal(undefined);
    values.answered("MATCH (a) RETURN a", { id: "t1" });
    values.answered("MATCH (a) RETURN a", { id: "t2" });
    values.answered("MATCH (b) RETURN b", { id: "t3" });
    expect(values.valuesOf("MATCH (a) RETURN a")).to.deep.equal({ id: "t2" });
    expect(values.valuesOf("MATCH (b) RETURN b")).to.equal(undefined);
  });

  it("drops the values of a text the next round no longer plans, and keeps those it still does", () => {
    const values = new LastValues();
    values.expectOnly(["A", "B"]);
    values.answered("A", { a: 1 });
    values.answered("B", { b: 1 });
    values.expectOnly(["B", "C"]);
    expect(values.valuesOf("A")).to.equal(undefined);
    expect(values.valuesOf("B")).to.deep.equal({ b: 1 });
    values.answered("A", { a: 2 });
    expect(values.valuesOf("A")).to.equal(undefined);
    // Known as soon as a round plans it, before the round ends.
    values.expect("A");
    values.answered("A", { a: 3 });
    expect(values.valuesOf("A")).to.deep.equal({ a: 3 });
  });
});
