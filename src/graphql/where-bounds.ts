// The bounds of one `where` argument (contract §7, v1 additions part 3), checked on the value
// GraphQL coerced, before any Cypher is built, in one pass over it: at most 30 operators in all
// (an operator of a filter input counts 1; `some`, `none`, `all`, `count` and a single-link field
// 1 more; `AND`, `OR`, `NOT` nothing), at most 4 link levels (a `…Where` given to a single link or
// to `some`/`none`/`all` is one level deeper), at most 100 values in an `in`.
import { count, LIMITS } from "../contract.js";
import { DOMAIN, type ElementType } from "../domain/table.js";

const { operators: MAX_OPERATORS, linkLevels: MAX_LEVELS, inValues: MAX_IN } = LIMITS.where;

const given = (value: unknown): [string, unknown][] =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.entries(value).filter(([, field]) => field !== null && field !== undefined)
    : [];

/** What one `where` of `type` breaks, as the end of a sentence, or `undefined` within its bounds. */
export function whereBoundProblem(type: ElementType, where: unknown): string | undefined {
  let operators = 0;
  let deepest = 0;
  let widestIn = 0;
  const filter = (value: unknown) => {
    for (const [operator, operand] of given(value)) {
      operators++;
      if (operator === "in" && Array.isArray(operand)) widestIn = Math.max(widestIn, operand.length);
    }
  };
  const visit = (owner: ElementType, value: unknown, level: number) => {
    deepest = Math.max(deepest, level);
    const row = DOMAIN[owner];
    for (const [field, held] of given(value)) {
      if (field === "AND" || field === "OR") {
        for (const item of Array.isArray(held) ? held : []) visit(owner, item, level);
      } else if (field === "NOT") visit(owner, held, level);
      else if (row.properties[field] !== undefined) filter(held);
      else {
        const link = row.links[field];
        if (link === undefined) continue;
        if (link.kind === "single") {
          operators++;
          visit(link.to, held, level + 1);
          continue;
        }
        for (const [form, condition] of given(held)) {
          operators++;
          if (form === "count") filter(condition);
          else visit(link.to, condition, level + 1);
        }
      }
    }
  };
  visit(type, where, 0);
  if (widestIn > MAX_IN) return `has an \`in\` of ${count(widestIn)} values; at most ${count(MAX_IN)}`;
  if (deepest > MAX_LEVELS) return `nests ${count(deepest)} link levels; at most ${count(MAX_LEVELS)}`;
  if (operators > MAX_OPERATORS)
    return `holds ${count(operators)} operators; at most ${count(MAX_OPERATORS)}`;
  return undefined;
}
