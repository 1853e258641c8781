import { ApolloArmor } from "@escape.tech/graphql-armor";
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type DocumentNode,
  type SelectionSetNode,
  type ValidationRule,
} from "graphql";
import type { ErrorCode } from "../errors/catalogue.js";
import { count, LIMITS } from "../contract.js";
import { perFragment } from "./fragments.js";

type ArmorConfig = NonNullable<ConstructorParameters<typeof ApolloArmor>[0]>;
type RejectCallback = NonNullable<NonNullable<ArmorConfig["maxDepth"]>["onReject"]>[number];

const {
  depth: MAX_DEPTH,
  fieldsPerSelectionSet: MAX_FIELDS_PER_SELECTION_SET,
  aliases: MAX_ALIASES,
  directives: MAX_DIRECTIVES,
} = LIMITS;

/**
 * Reports Armor's rejection as the contract's error: Armor's own message starts "Syntax Error:"
 * and ends "found <n>."; the count is kept, the rest said for the reader.
 */
function reject(code: ErrorCode, message: (found: string) => string): RejectCallback {
  return (context, error) => {
    const found = /found (\d+)\.?$/.exec(error.message)?.[1] ?? "too many";
    // Apollo replaces extensions.code of validation errors; contract-errors.ts restores it.
    context?.reportError(new GraphQLError(message(found), { extensions: { code } }));
  };
}

/**
 * GraphQL Armor's depth rule (fragments flattened, `__schema` exempt), reporting through
 * {@link reject} alone (`propagateOnRejection: false`). Armor's token limit is
 * off (it turns every syntax error into a 500 on Apollo; the 10,000-character cap guards
 * instead), and its cost limit too (it ignores `limit` and variables: see cost.ts).
 */
const armorRules = new ApolloArmor({
  maxDepth: {
    n: MAX_DEPTH,
    flattenFragments: true,
    ignoreIntrospection: true,
    propagateOnRejection: false,
    onReject: [reject("query_too_deep", (n) => `Query nests ${n} levels; the maximum is ${MAX_DEPTH}.`)],
  },
  // Counted over the whole document by MaxAliasesAndDirectivesRule: Armor counts each operation
  // apart, and a fragment's second spread without the spread's own directives.
  maxAliases: { enabled: false },
  maxDirectives: { enabled: false },
  maxTokens: { enabled: false },
  costLimit: { enabled: false },
  // "Did you mean …?" helps the people writing queries; the schema is public anyway.
  blockFieldSuggestion: { enabled: false },
}).protect().validationRules;

/**
 * At most 50 field selections in any one selection set, counting every occurrence (`id id` is 2)
 * with fragments inlined where they are spread (contract §5). Every selection set of the
 * document is measured, so a fragment's own sets count too; the first one over (in document
 * order) is reported.
 * Each fragment's count is computed once and remembered: re-walking a fragment at every spread
 * made a document of fragments that each spread the next one twice cost 2^depth.
 */
export const MaxFieldsPerSelectionSetRule: ValidationRule = (context) => {
  // Made for each document when it is entered; a cycle's fields count once.
  let countFragment: (name: string) => number = () => 0;
  const countFields = (selectionSet: SelectionSetNode): number => {
    let count = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) count += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += countFields(selection.selectionSet);
      else count += countFragment(selection.name.value);
    }
    return count;
  };
  return {
    // Measured when the document is entered, before the other rules visit a selection set, so
    // that the contract's own code and count come first among the errors (graphql-js stops at
    // 100 errors), and a refused document never reaches field merging (validation-stage.ts).
    Document(document) {
      countFragment = perFragment(document, (fragment) => countFields(fragment.selectionSet), 0);
      const widest = firstTooWide(document);
      if (widest === undefined) return;
      context.reportError(
        new GraphQLError(
          `A selection set selects ${count(widest.count)} fields (fragments included); the maximum is ${MAX_FIELDS_PER_SELECTION_SET}.`,
          { nodes: widest.selectionSet, extensions: { code: "query_too_wide" satisfies ErrorCode } },
        ),
      );
    },
  };

  /** The first selection set of the document, in document order, with more than 50 fields. */
  function firstTooWide(
    document: DocumentNode,
  ): { selectionSet: SelectionSetNode; count: number } | undefined {
    const pending: SelectionSetNode[] = [];
    for (const definition of [...document.definitions].reverse()) {
      if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION)
        pending.push(definition.selectionSet);
    }
    for (let selectionSet = pending.pop(); selectionSet !== undefined; selectionSet = pending.pop()) {
      const count = countFields(selectionSet);
      if (count > MAX_FIELDS_PER_SELECTION_SET) return { selectionSet, count };
      for (const selection of [...selectionSet.selections].reverse()) {
        if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet !== undefined) {
          pending.push(selection.selectionSet);
        }
      }
    }
    return undefined;
  }
};

/** What a part of a document holds towards contract §5's document-wide counts. */
interface Tally {
  aliases: number;
  directives: number;
}

/** Sums that stop at the largest exact integer: doubling spreads can multiply a count past it. */
const add = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER);

/**
 * At most 30 aliases and 50 directives in the document (contract §5): every operation's, summed,
 * with a fragment's counted at each of its spreads (as its fields are), and a spread's own
 * directives at each spread. Each fragment's tally is computed once and remembered, so a
 * document of fragments spreading the next one twice costs time linear in its length.
 */
export const MaxAliasesAndDirectivesRule: ValidationRule = (context) => ({
  Document(document) {
    // A cycle's contents count once.
    const tallyFragment = perFragment(
      document,
      (fragment): Tally =>
        tallySelections(fragment.selectionSet, { aliases: 0, directives: fragment.directives?.length ?? 0 }),
      { aliases: 0, directives: 0 },
    );
    const tallySelections = (selectionSet: SelectionSetNode | undefined, tally: Tally): Tally => {
      for (const selection of selectionSet?.selections ?? []) {
        tally.directives = add(tally.directives, selection.directives?.length ?? 0);
        if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const spread = tallyFragment(selection.name.value);
          tally.aliases = add(tally.aliases, spread.aliases);
          tally.directives = add(tally.directives, spread.directives);
        } else {
          if (selection.kind === Kind.FIELD && selection.alias !== undefined)
            tally.aliases = add(tally.aliases, 1);
          tallySelections(selection.selectionSet, tally);
        }
      }
      return tally;
    };
    const total: Tally = { aliases: 0, directives: 0 };
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      // The operation's own directives and its variables', then its selections'.
      for (const directives of [
        definition.directives,
        ...(definition.variableDefinitions ?? []).map((v) => v.directives),
      ]) {
        total.directives = add(total.directives, directives?.length ?? 0);
      }
      tallySelections(definition.selectionSet, total);
    }
    const tooMany = (what: string, found: number, maximum: number) =>
      new GraphQLError(`Query uses ${count(found)} ${what}; the maximum is ${maximum}.`, {
        extensions: { code: "query_too_wide" satisfies ErrorCode },
      });
    if (total.aliases > MAX_ALIASES) context.reportError(tooMany("aliases", total.aliases, MAX_ALIASES));
    if (total.directives > MAX_DIRECTIVES) {
      context.reportError(tooMany("directives", total.directives, MAX_DIRECTIVES));
    }
  },
});

/**
 * Brackets (`{` and `[`) deeper than this are refused: graphql-js's recursive parser overflows its
 * stack at about 2,000 nested lists, which fit in 10,000 characters. The contract's own bounds
 * stay far below it (8 field levels; a `where` of 30 operators written as a chain of one-item
 * `AND`s nests about 60, with its four link levels a dozen more), and `AND`, `OR` and `NOT`,
 * which count toward no bound, have room to nest 4 times that. The Cypher a `where` compiles to
 * nests no deeper than its operators (where.ts), so this bound is the parser's alone.
 */
export const MAX_BRACKET_NESTING = 256;

/**
 * How deep the query's brackets nest, counted on the lexer's tokens (no recursion, linear), when
 * it is over {@link MAX_BRACKET_NESTING}, and whether they first went over it in a value: inside
 * parentheses (an argument list, or the variables' definitions) opened within the field levels
 * the contract allows, so that the value, not its fields, nests too deep. `undefined` when they
 * do not, or when the text does not lex (the parser reports that). Read only for a query whose
 * brackets and parentheses all pair ({@link bracketSyntaxError}).
 */
export function excessBracketNesting(query: string): { levels: number; inValue: boolean } | undefined {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  let deepest = 0;
  let parentheses = 0;
  /** The brackets open around the outermost parentheses open. */
  let openedAt = 0;
  let inValue = false;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L) {
        if (++depth === MAX_BRACKET_NESTING + 1 && deepest === MAX_BRACKET_NESTING)
          inValue = parentheses > 0 && openedAt <= LIMITS.depth;
        deepest = Math.max(deepest, depth);
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R) {
        depth--;
      } else if (token.kind === TokenKind.PAREN_L) {
        if (parentheses++ === 0) openedAt = depth;
      } else if (token.kind === TokenKind.PAREN_R) {
        parentheses--;
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  return deepest > MAX_BRACKET_NESTING ? { levels: deepest, inValue } : undefined;
}

/**
 * Whether a request's `variables` nest objects and arrays deeper than
 * {@link MAX_BRACKET_NESTING}, the bound a document's own brackets have (the variables object is
 * level 1): counted without recursion, stopping at the first too deep. A `where` tree in a
 * variable (`{NOT: {NOT: …}}` thousands deep fits in 64 KiB) would otherwise reach graphql-js's
 * recursive coercion, and the Cypher compiler, that deep.
 */
export function excessValueNesting(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [held, depth] = next;
    if (typeof held !== "object" || held === null) continue;
    if (depth > MAX_BRACKET_NESTING) return true;
    for (const child of Array.isArray(held) ? held : Object.values(held)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Each opening bracket's closing one: braces, square brackets and parentheses pair alike. */
const CLOSING = new Map([
  [TokenKind.BRACE_L, TokenKind.BRACE_R],
  [TokenKind.BRACKET_L, TokenKind.BRACKET_R],
  [TokenKind.PAREN_L, TokenKind.PAREN_R],
]);

/**
 * The syntax error of a query whose brackets (parentheses too) do not close, found on the lexer's tokens (no
 * recursion, linear): a closing bracket of the other kind, or the end of the text with brackets
 * still open, in graphql-js's words and at its location. `undefined` when every bracket closes
 * (or the text does not lex: the parser reports that). Brackets nested past
 * {@link MAX_BRACKET_NESTING} are refused before the recursive parser runs; this tells a document
 * that could never parse (`parse_error`, contract §3's order) from one nested too deep.
 */
export function bracketSyntaxError(
  query: string,
): { message: string; locations: { line: number; column: number }[] } | undefined {
  const lexer = new Lexer(new Source(query));
  const open: TokenKind[] = [];
  const closing = (kind: TokenKind) => CLOSING.get(kind);
  try {
    for (let token = lexer.advance(); ; token = lexer.advance()) {
      const at = [{ line: token.line, column: token.column }];
      if (token.kind === TokenKind.EOF) {
        return open.length === 0 ? undefined : { message: "Syntax Error: Unexpected <EOF>.", locations: at };
      }
      if (CLOSING.has(token.kind)) open.push(token.kind);
      else if (
        token.kind === TokenKind.BRACE_R ||
        token.kind === TokenKind.BRACKET_R ||
        token.kind === TokenKind.PAREN_R
      ) {
        const expected = open.pop();
        if (expected === undefined || closing(expected) !== token.kind)
          return { message: `Syntax Error: Unexpected "${token.kind}".`, locations: at };
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
}

/** Validation rules for contract §5's depth and width limits. */
export const queryShapeRules: ValidationRule[] = [
  ...armorRules,
  MaxFieldsPerSelectionSetRule,
  MaxAliasesAndDirectivesRule,
];
