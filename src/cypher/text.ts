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

/** `COLLECT {` … `}` around a block ending in one `RETURN` column: an expression, one unit to plan. */
export function collected(block: readonly string[]): string {
  return ["COLLECT {", ...indent(block), "}"].join("\n");
}

/** `CALL (imports) {` … `}` around a block. */
export function call(imports: readonly string[], block: readonly string[]): string[] {
  return [`CALL (${imports.join(", ")}) {`, ...indent(block), "}"];
}

/**
 * Renames `$name` parameters outside string literals, quoted names and comments. Cypher escapes
 * inside literals with a backslash; a quoted name doubles its backtick, which reads here as two
 * quoted names in a row, the same text.
 */
export function renameParameters(text: string, rename: (name: string) => string): string {
  const special = /['"`$]|\/[/*]/g;
  const name = /[A-Za-z_]\w*/y;
  let out = "";
  let copied = 0;
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    const at = match.index;
    const token = match[0];
    let end: number;
    if (token === "$") {
      name.lastIndex = at + 1;
      const found = name.exec(text)?.[0];
      if (found === undefined) continue;
      out += `${text.slice(copied, at)}$${rename(found)}`;
      copied = at + 1 + found.length;
      special.lastIndex = copied;
      continue;
    }
    if (token === "//" || token === "/*") {
      const close = token === "//" ? "\n" : "*/";
      const found = text.indexOf(close, at + 2);
      end = found === -1 ? text.length : found + close.length;
    } else {
      end = at + 1;
      while (end < text.length && text[end] !== token) end += text[end] === "\\" && token !== "`" ? 2 : 1;
      end = Math.min(end + 1, text.length);
    }
    special.lastIndex = end;
  }
  return out + text.slice(copied);
}
