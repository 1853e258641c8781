import { Kind, parse, visit, type ASTNode, type StringValueNode } from "graphql";
import { STATEMENTS } from "./cypher-templates.js";

/** One `@cypher(statement: …)` of an SDL file: its `Type.field` and where the string literal lies. */
export interface CypherField {
  field: string;
  statement: string;
  node: StringValueNode;
}

/** The `@cypher` statements of one SDL source, with their type and field names. */
export function cypherFields(source: string): CypherField[] {
  const found: CypherField[] = [];
  const types: string[] = [];
  const enterType = (node: { name: { value: string } }) => {
    types.push(node.name.value);
  };
  const leaveType = () => {
    types.pop();
  };
  visit(parse(source), {
    ObjectTypeDefinition: { enter: enterType, leave: leaveType },
    ObjectTypeExtension: { enter: enterType, leave: leaveType },
    FieldDefinition(node) {
      const cypher = node.directives?.find((directive) => directive.name.value === "cypher");
      const value = cypher?.arguments?.find((argument) => argument.name.value === "statement")?.value;
      if (value?.kind !== Kind.STRING) return;
      found.push({ field: `${types.at(-1) ?? "?"}.${node.name.value}`, statement: value.value, node: value });
    },
  });
  return found;
}

/**
 * The SDL source with every `@cypher` statement replaced by its template's ({@link STATEMENTS}):
 * a one-line statement as a string, a longer one as a block string. Formatting is left to
 * Prettier. Throws for a `@cypher` field that has no template.
 */
export function withTemplateStatements(source: string): string {
  let text = source;
  // From the end, so that earlier offsets stay valid.
  for (const { field, node } of cypherFields(source).reverse()) {
    const statement = STATEMENTS[field];
    if (statement === undefined) throw new Error(`${field} has a @cypher statement but no template`);
    const { start, end } = location(node);
    text = text.slice(0, start) + literal(statement) + text.slice(end);
  }
  return text;
}

function literal(statement: string): string {
  if (!statement.includes("\n")) return JSON.stringify(statement);
  if (statement.includes('"""')) throw new Error('a statement cannot hold """');
  return `"""\n${statement}\n"""`;
}

function location(node: ASTNode): { start: number; end: number } {
  if (node.loc === undefined) throw new Error("parsed without locations");
  return { start: node.loc.start, end: node.loc.end };
}
