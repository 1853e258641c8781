// The SDL of `where` (contract §7, v1 additions part 3), generated from the domain table: a filter
// input per stored type, a `…Where` per element type holding a filter per stored property and a
// condition per link, and a `…Links` per element type that a to-many link reaches. Adding a
// property or a link to the table adds its condition here; test/domain.test.ts and the schema test
// hold the result to the contract.
import { DOMAIN, ELEMENT_TYPES, propertyType, type ElementType, type Scalar } from "./table.js";

/** The operators of each filter input, with their descriptions' words. */
const OPERATORS = {
  eq: "equals this value exactly",
  in: "equals one of these values (at most 100; `[]` matches no row)",
  startsWith: 'starts with this text (case-sensitive; `""` matches every present value)',
  endsWith: 'ends with this text (case-sensitive; `""` matches every present value)',
  contains: 'contains this text (case-sensitive; `""` matches every present value)',
  lt: "is less than this value",
  lte: "is less than or equal to this value",
  gt: "is greater than this value",
  gte: "is greater than or equal to this value",
  isNull: "true: the value is missing (absent, null, or one the schema cannot serve); false: it is present",
} as const;

type Operator = keyof typeof OPERATORS;

/** Each stored scalar's filter input and its operators (contract §7 part 3). */
export const SCALAR_FILTERS: Readonly<Record<Scalar, readonly Operator[]>> = {
  ID: ["eq", "in"],
  String: ["eq", "in", "startsWith", "endsWith", "contains", "isNull"],
  Int: ["eq", "in", "lt", "lte", "gt", "gte", "isNull"],
  Float: ["eq", "in", "lt", "lte", "gt", "gte", "isNull"],
  Boolean: ["eq", "isNull"],
  Date: ["eq", "lt", "lte", "gt", "gte", "isNull"],
  DateTime: ["eq", "lt", "lte", "gt", "gte", "isNull"],
};

/** An enum's filter input's operators. */
export const ENUM_OPERATORS: readonly Operator[] = ["eq", "in"];

/** What `DateTime` and `Date` operands compare as. */
const COMPARED = {
  DateTime: " `DateTime`s compare as UTC instants to the millisecond, as served.",
  Date: " `Date`s compare as calendar days.",
} as const;

/** The filter input of a stored type: `StringFilter`, `DecisionStatusFilter`. */
export const filterInputOf = (type: string): string => `${type}Filter`;

/** The `…Where` input of an element type, and its `…Links` input. */
export const whereInputOf = (type: ElementType): string => `${type}Where`;
export const linksInputOf = (type: ElementType): string => `${type}Links`;

const quote = (text: string) => JSON.stringify(text);

function filterInput(type: string, operators: readonly Operator[]): string {
  const operand = (operator: Operator) =>
    operator === "isNull" ? "Boolean" : operator === "in" ? `[${type}!]` : type;
  const compared = type in COMPARED ? COMPARED[type as keyof typeof COMPARED] : "";
  return [
    quote(
      `Conditions on a ${type} value: every operator given must hold. A missing value (absent, null, or one the schema cannot serve) fails every operator but \`isNull\`.${compared}`,
    ),
    `input ${filterInputOf(type)} {`,
    ...operators.map(
      (operator) => `  ${quote(`The value ${OPERATORS[operator]}.`)}\n  ${operator}: ${operand(operator)}`,
    ),
    "}",
  ].join("\n");
}

const plural = (type: ElementType) => (type === "Person" ? "people" : `${type.toLowerCase()}s`);
const article = (type: ElementType) => (/^[AEIOU]/.test(type) ? "an" : "a");

function whereInput(type: ElementType): string {
  const row = DOMAIN[type];
  const self = whereInputOf(type);
  const one = `${article(type)} ${type.toLowerCase()}`;
  const fields = [
    [`Holds when every one of these holds (\`[]\` always holds).`, `AND: [${self}!]`],
    [`Holds when at least one of these holds (\`[]\` never holds).`, `OR: [${self}!]`],
    [
      `Holds when this does not (a missing value fails an operator, so \`NOT\` keeps its row).`,
      `NOT: ${self}`,
    ],
    ...Object.entries(row.properties).map(([property, stored]) => {
      const { name } = propertyType(stored);
      return [`Conditions on \`${property}\`.`, `${property}: ${filterInputOf(name)}`];
    }),
    ...Object.entries(row.links).map(([field, link]) =>
      link.kind === "single"
        ? [
            `Holds when \`${field}\` (the lowest-\`id\` target, as served) exists and matches; ${article(link.to)} ${type.toLowerCase()} without one never matches, even \`{}\`.`,
            `${field}: ${whereInputOf(link.to)}`,
          ]
        : [
            `Conditions on all of \`${field}\` (every one, distinct, never cut by a \`limit\`).`,
            `${field}: ${linksInputOf(link.to)}`,
          ],
    ),
  ];
  return [
    quote(
      `Conditions on ${one}: every field given must hold (\`{}\` holds for every ${type.toLowerCase()}). An explicit null anywhere means "not given".`,
    ),
    `input ${self} {`,
    ...fields.map(([description, field]) => `  ${quote(description ?? "")}\n  ${field ?? ""}`),
    "}",
  ].join("\n");
}

function linksInput(type: ElementType): string {
  const rows = plural(type);
  const where = whereInputOf(type);
  return [
    quote(`Conditions on a to-many link's ${rows}: every one given must hold; \`{}\` holds for every row.`),
    `input ${linksInputOf(type)} {`,
    `  ${quote(`Holds when at least one of the ${rows} matches.`)}\n  some: ${where}`,
    `  ${quote(`Holds when none of the ${rows} matches.`)}\n  none: ${where}`,
    `  ${quote(`Holds when every one of the ${rows} matches (true when there are none).`)}\n  all: ${where}`,
    `  ${quote(`Holds when the number of ${rows} satisfies this (\`{eq: 0}\`: none).`)}\n  count: IntFilter`,
    "}",
  ].join("\n");
}

/** The SDL of every filter, `…Where` and `…Links` input, from the table. */
export function whereInputsSdl(): string {
  const enums = new Set<string>();
  const scalars = new Set<string>(Object.keys(SCALAR_FILTERS));
  for (const type of ELEMENT_TYPES)
    for (const stored of Object.values(DOMAIN[type].properties)) {
      const { name } = propertyType(stored);
      if (!scalars.has(name)) enums.add(name);
    }
  const linked = new Set(
    ELEMENT_TYPES.flatMap((type) =>
      Object.values(DOMAIN[type].links).flatMap((link) => (link.kind === "list" ? [link.to] : [])),
    ),
  );
  return [
    "# Generated from the domain table (src/domain/where-inputs.ts): contract §7, v1 additions part 3.",
    ...Object.entries(SCALAR_FILTERS).map(([scalar, operators]) => filterInput(scalar, operators)),
    ...[...enums].sort().map((name) => filterInput(name, ENUM_OPERATORS)),
    ...ELEMENT_TYPES.map(whereInput),
    ...ELEMENT_TYPES.filter((type) => linked.has(type)).map(linksInput),
  ].join("\n\n");
}
