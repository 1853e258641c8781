// Layout of Cypher text: the statements read as they would be written by hand, one clause a line.

/** `WHERE a\n  AND b…`; `WHERE true` for no condition. */
export function where(conditions: readonly string[]): string {
  return ["WHERE " + (conditions[0] ?? "true"), ...conditions.slice(1).map((c) => `  AND ${c}`)].join("\n");
}

/** `WHERE …` for some conditions, nothing for none. */
export function whereAny(conditions: readonly string[]): string[] {
  return conditions.length === 0 ? [] : [where(conditions)];
}

/** Each line of a block, two spaces in. */
export function indent(block: readonly string[]): string[] {
  return block.flatMap((line) => line.split("\n")).map((line) => `  ${line}`);
}

/** The lines as one text. */
export function lines(...block: readonly string[]): string {
  return block.join("\n");
}

/** `CALL (imports) {` … `}` around a block. */
export function call(imports: readonly string[], block: readonly string[], optional = false): string[] {
  return [`${optional ? "OPTIONAL " : ""}CALL (${imports.join(", ")}) {`, ...indent(block), "}"];
}
