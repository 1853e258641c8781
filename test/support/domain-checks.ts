// The checks that tie the domain table (src/domain/table.ts) to the SDL of typeDefs/ and to the
// index files of cypher/: each returns the disagreements it finds, as sentences, so a test can show
// them and can feed a damaged table to prove a check fails.
import {
  buildASTSchema,
  concatAST,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import { splitStatements } from "../../src/neo4j/apply-cypher.js";
import { GRAPH_FIELDS } from "../../src/cypher/graph.js";
import {
  argumentsOf,
  ELEMENT_TYPES,
  propertyType,
  type DomainTable as Table,
  type ElementType,
} from "../../src/domain/table.js";
import { fullTextIndexes, rangeIndexes } from "../../src/domain/indexes.js";

/**
 * The SDL of typeDefs/ as a schema, its placeholder directives (`@node`, `@cypher`) kept on the AST;
 * the library declares the two date scalars.
 */
export const sdlSchema = (typeDefs: readonly string[]): GraphQLSchema =>
  buildASTSchema(concatAST([parse("scalar Date scalar DateTime"), ...typeDefs.map((sdl) => parse(sdl))]), {
    assumeValidSDL: true,
  });

/** Arguments every root list, connection and group field has besides the table's filters. */
const LIST_ARGUMENTS = {
  list: ["limit", "orderBy", "search", "where"],
  connection: ["first", "after", "orderBy", "search", "where"],
  groups: ["by", "limit", "orderBy", "where"],
} as const;

/** The time buckets a `timeBucketsOf` row names in `by`. */
const TIME_BUCKETS = ["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"];

const cypherColumn = (field: GraphQLField<unknown, unknown>): string | undefined => {
  const directive = field.astNode?.directives?.find((d) => d.name.value === "cypher");
  const column = directive?.arguments?.find((a) => a.name.value === "columnName")?.value;
  return column?.kind === Kind.STRING ? column.value : undefined;
};

const sorted = (values: Iterable<string>) => [...values].sort().join(", ");

/** What the SDL and the table disagree on: properties, links, root fields, filter arguments, orders, dimensions. */
export function sdlProblems(schema: GraphQLSchema, table: Table): string[] {
  const problems: string[] = [];
  const differ = (what: string, sdl: Iterable<string>, tabled: Iterable<string>) => {
    if (sorted(sdl) !== sorted(tabled))
      problems.push(`${what}: the SDL has [${sorted(sdl)}], the table [${sorted(tabled)}]`);
  };
  const query = schema.getQueryType();
  if (query === null || query === undefined) return ["the SDL has no Query type"];
  const rootFields = query.getFields();
  const tabledRoots: string[] = [];

  /** `where` of a list field whose rows are `type`: the table's `…Where` of that type. */
  const checkWhere = (where: string, field: GraphQLField<unknown, unknown>, type: ElementType) => {
    const argument = field.args.find((a) => a.name === "where");
    if (argument === undefined || String(argument.type) !== `${type}Where`)
      problems.push(`${where}: no where: ${type}Where`);
  };

  /** `orderBy`'s `field` enum of a field whose rows are `type`, against the table's orders. */
  const checkOrderBy = (where: string, field: GraphQLField<unknown, unknown>, type: ElementType) => {
    const orderBy = field.args.find((a) => a.name === "orderBy");
    if (orderBy === undefined) return;
    const input = getNamedType(orderBy.type);
    const enumType = isInputObjectType(input) ? getNamedType(input.getFields().field?.type) : undefined;
    if (!isEnumType(enumType)) problems.push(`${where}: orderBy has no enum field`);
    else
      differ(
        `${where} orderBy`,
        enumType.getValues().map((v) => v.name),
        Object.keys(table[type].orders),
      );
  };

  for (const type of ELEMENT_TYPES) {
    const row = table[type];
    const object = schema.getType(type);
    if (!isObjectType(object)) {
      problems.push(`the SDL has no type ${type}`);
      continue;
    }
    const fields = Object.values(object.getFields());
    // Stored properties: the fields no statement computes.
    const stored = fields.filter((field) => cypherColumn(field) === undefined);
    differ(
      `${type}'s properties`,
      stored.map((f) => `${f.name}: ${String(f.type)}`),
      Object.entries(row.properties).map(([name, t]) => `${name}: ${t}`),
    );
    // Links: a single link's field, a list's field and its connection.
    // The `Node` interface's fields (contract §7 part 4) are every element type's, not the table's.
    const nested = fields.filter(
      (field) => cypherColumn(field) !== undefined && !(field.name in GRAPH_FIELDS),
    );
    const expected = Object.entries(row.links).flatMap(([name, link]) =>
      link.kind === "single"
        ? [`${name}: ${link.to} (${table[link.to].v})`]
        : [`${name}: [${link.to}!]! (${table[link.to].v})`, `${name}Connection: ${link.to}Connection! (c)`],
    );
    differ(
      `${type}'s links`,
      nested.map((f) => `${f.name}: ${String(f.type)} (${cypherColumn(f) ?? ""})`),
      expected,
    );
    for (const field of nested) {
      const link = row.links[field.name.replace(/Connection$/, "")];
      if (link === undefined) continue;
      checkOrderBy(`${type}.${field.name}`, field, link.to);
      if (link.kind === "list") checkWhere(`${type}.${field.name}`, field, link.to);
    }

    const { list, groups, lookup } = row;
    const filterArguments = (list?.filters ?? []).flatMap((filter) =>
      argumentsOf(filter).map((argument) => {
        const stored = table[type].properties[filter.property];
        const scalar =
          filter.kind === "dayRange" ? "Date" : stored === undefined ? "?" : propertyType(stored).name;
        return `${argument}: ${scalar}`;
      }),
    );
    if (list?.parent !== undefined) filterArguments.push(`${list.parent.argument}: ID`);
    const argumentsOfField = (name: string, kind: keyof typeof LIST_ARGUMENTS) => {
      tabledRoots.push(name);
      const field = rootFields[name];
      if (field === undefined) return problems.push(`the SDL has no Query.${name}`);
      const common = new Set<string>(LIST_ARGUMENTS[kind]);
      differ(
        `Query.${name}'s filters`,
        field.args.filter((a) => !common.has(a.name)).map((a) => `${a.name}: ${String(a.type)}`),
        filterArguments,
      );
      if (kind !== "groups") checkOrderBy(`Query.${name}`, field, type);
      checkWhere(`Query.${name}`, field, type);
      return undefined;
    };
    if (list !== undefined) {
      argumentsOfField(list.field, "list");
      argumentsOfField(`${list.field}Connection`, "connection");
      const rows = rootFields[list.field];
      if (rows !== undefined && cypherColumn(rows) !== row.v)
        problems.push(
          `Query.${list.field}: column ${cypherColumn(rows) ?? "none"}, the table's variable ${row.v}`,
        );
    }
    if (groups !== undefined) {
      argumentsOfField(groups.field, "groups");
      const by = rootFields[groups.field]?.args.find((a) => a.name === "by");
      const dimensionEnum = by === undefined ? undefined : getNamedType(by.type);
      const names = groups.dimensions.flatMap((d) => ("timeBucketsOf" in d ? TIME_BUCKETS : [d.by]));
      if (!isEnumType(dimensionEnum)) problems.push(`Query.${groups.field}: by is no enum list`);
      else
        differ(
          `Query.${groups.field}'s dimensions`,
          dimensionEnum.getValues().map((v) => v.name),
          names,
        );
      const groupType = schema.getType(groups.type);
      const groupFields = isObjectType(groupType) ? Object.keys(groupType.getFields()) : [];
      const tabledFields = [
        ...groups.dimensions.flatMap((d) =>
          "timeBucketsOf" in d
            ? TIME_BUCKETS.map((b) => b.toLowerCase())
            : ["property" in d ? d.property : d.link],
        ),
        "count",
        ...groups.stats,
      ];
      differ(`${groups.type}'s fields`, groupFields, tabledFields);
    }
    if (lookup !== undefined) {
      tabledRoots.push(lookup);
      const field = rootFields[lookup];
      const named = field === undefined ? undefined : field.type;
      if (
        named === undefined ||
        isNonNullType(named) ||
        isListType(named) ||
        getNamedType(named).name !== type
      )
        problems.push(`Query.${lookup} is not a nullable ${type}`);
    }
  }
  // Part 4's `node(type, id)` is every element type's, not one row's.
  differ("Query's fields", Object.keys(rootFields), [...tabledRoots, "node"]);
  return problems;
}

/** Label and property of `FOR (n:Label) ON (n.property)`, or label and properties of a full-text index. */
const RANGE = /^CREATE INDEX (\w+) IF NOT EXISTS FOR \(n:(\w+)\) ON \(n\.(\w+)\)$/;
const UNIQUE = /^CREATE CONSTRAINT (\w+) IF NOT EXISTS FOR \(n:(\w+)\) REQUIRE n\.id IS UNIQUE$/;
const FULL_TEXT = /^CREATE FULLTEXT INDEX (\w+) IF NOT EXISTS FOR \(n:(\w+)\) ON EACH \[([^\]]*)\]/;

/** What cypher/'s statements and the table disagree on: each index the table needs, none it does not. */
export function indexProblems(statements: readonly string[], table: Table): string[] {
  const problems: string[] = [];
  const ranges = new Set<string>();
  const uniques = new Set<string>();
  const fullTexts = new Set<string>();
  for (const statement of statements.map((s) => s.replace(/\s+/g, " "))) {
    const range = RANGE.exec(statement);
    const unique = UNIQUE.exec(statement);
    const fullText = FULL_TEXT.exec(statement);
    if (range !== null) ranges.add(`${range[2] ?? ""}.${range[3] ?? ""}`);
    else if (unique !== null) uniques.add(unique[2] ?? "");
    else if (fullText !== null)
      fullTexts.add(
        `${fullText[1] ?? ""} on ${fullText[2] ?? ""}(${(fullText[3] ?? "").replace(/n\./g, "")})`,
      );
    else if (!/^CREATE CONSTRAINT \w+ IF NOT EXISTS FOR \(n:ApiKey\)/.test(statement))
      problems.push(`cypher/ has a statement the check does not read: ${statement}`);
  }
  const needed = rangeIndexes(table);
  for (const { label, property, reasons } of needed)
    if (!ranges.has(`${label}.${property}`))
      problems.push(`cypher/ has no range index on ${label}.${property} (${reasons.join("; ")})`);
  const neededKeys = new Set(needed.map(({ label, property }) => `${label}.${property}`));
  for (const range of ranges)
    if (!neededKeys.has(range)) problems.push(`cypher/ indexes ${range}, which the table never reads by`);
  for (const type of ELEMENT_TYPES)
    if (!uniques.has(type)) problems.push(`cypher/ has no uniqueness constraint on ${type}.id`);
  const texts = fullTextIndexes(table).map(
    ({ name, label, properties }) => `${name} on ${label}(${properties.join(", ")})`,
  );
  if (sorted(texts) !== sorted(fullTexts))
    problems.push(`full-text indexes: cypher/ has [${sorted(fullTexts)}], the table [${sorted(texts)}]`);
  return problems;
}

/** The statements of every cypher/ file's text. */
export const statementsOf = (files: readonly string[]): string[] => files.flatMap(splitStatements);
