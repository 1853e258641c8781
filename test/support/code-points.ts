/**
 * Two texts in Neo4j's order for stored strings: by Unicode code point (contract §7: U+E000 before
 * U+1F600), where JavaScript's `<` compares UTF-16 code units (U+1F600 first).
 */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}
