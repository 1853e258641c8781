/**
 * The values each known statement was last answered with (issue 32). A Neo4j that has just
 * started plans at `EXPLAIN`, but builds a statement's runtime plan at its first execution, and its
 * page cache and compiled code are cold: a known document's first request after a restart took
 * 5–20× its warm time, pre-planned. So pre-planning runs a known statement it has values for
 * (read-only, as the request that gave them did) instead of only planning it, three times
 * (preplan.ts, `WARM_UP_RUNS`), and the dashboard's first request after a restart is a fourth one.
 *
 * Only the texts of the last pre-planning round are kept, each with the values of its last
 * answer: bounded by the round's size, in this process's memory only.
 */
export class LastValues {
  #known = new Set<string>();
  #values = new Map<string, Record<string, unknown>>();

  /** A text a pre-planning round plans: its values are kept from now on. */
  expect(text: string): void {
    this.#known.add(text);
  }

  /** The texts of a whole pre-planning round: their values are kept, any other text's dropped. */
  expectOnly(texts: Iterable<string>): void {
    this.#known = new Set(texts);
    for (const text of this.#values.keys()) if (!this.#known.has(text)) this.#values.delete(text);
  }

  /** A statement Neo4j answered: its values are kept when the text is a known one. */
  answered(text: string, parameters: Record<string, unknown>): void {
    if (this.#known.has(text)) this.#values.set(text, parameters);
  }

  /** What `text` was last answered with, if it is known and was asked since it became known. */
  valuesOf(text: string): Record<string, unknown> | undefined {
    return this.#values.get(text);
  }
}
