// `search` (contract §7, v1 additions part 2): the rows whose text holds every word of the search
// as a word or the start of one, case- and accent-insensitive, words being runs of letters and
// digits. A full-text index of cypher/03-search.cypher finds candidates; the exact rule is then
// checked on them in Cypher, so the index only has to find a superset. The caller's text never
// reaches Lucene's query syntax: the index is asked with patterns built here from letters and
// digits alone, and the exact rule is a regular expression built here too, read as a parameter.

import type { SearchIndex } from "../domain/table.js";

/** What separates words (contract §7): anything but a letter or a digit; a combining mark belongs to its letter. */
const WORD_SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;

/** Letters the index's ASCII folding writes as ASCII that Unicode decomposition does not. */
const FOLDED: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/**
 * The English stop words the index's analyzer leaves out (Lucene's list, measured on Neo4j
 * 5.26.30: none of them is found as a term). A search word that begins one of them may match a
 * row through that word alone, which the index does not hold: such a word asks the index nothing.
 */
const STOP_WORDS =
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  );

/**
 * Scripts the index's tokenizer (Unicode word breaks) writes one character per token: such a
 * character is asked for as a term of its own, never inside a pattern.
 */
const ONE_PER_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}]/u;
/**
 * The characters the index's ASCII folding (Lucene's `ASCIIFoldingFilter`) may write otherwise,
 * beyond FOLDED: the blocks of every character it changes (Latin, IPA and phonetic letters,
 * super- and subscripts, enclosed and dingbat numbers, ligatures, full-width forms; read off
 * Lucene 10.5's `foldToASCII` over the BMP). Such a character is left to a wildcard.
 */
const FOLDED_BY_THE_INDEX =
  /[\u0080-\u02AF\u1D00-\u1DBF\u1E00-\u1EFF\u2010-\u209F\u2184\u2460-\u24FF\u2750-\u27BF\u2C60-\u2C7F\u2E00-\u2E7F\uA720-\uA7FF\uFB00-\uFB06\uFF00-\uFFEF]/u;

/** The words of a search string (contract §7), as the caller wrote them. */
export function searchWords(search: string): string[] {
  return search.split(WORD_SEPARATORS).filter((word) => /[\p{L}\p{N}]/u.test(word));
}

/**
 * The query that asks the full-text index for a superset of the rows matching `search`: per word,
 * a pattern of its folded letters with `*` between them (a token holding them in order: the word
 * inside a longer token such as `O'Brien`, or written with combining marks between its letters),
 * a letter the index may fold otherwise left to a `*`, and each Han or Hiragana character as a
 * term of its own; a word that begins a stop word, nothing. Undefined when no word gives the index anything to look for: the rows are then
 * read without it.
 */
export function candidateQuery(search: string): string | undefined {
  const clauses = new Set<string>();
  for (const word of searchWords(search)) {
    // Accents dropped as the index drops them. Hangul, which decomposition splits into jamo, is
    // asked for both ways: as the syllables of a text written composed (the usual form) and as
    // the jamo of one written decomposed; the index normalises neither.
    const stripped = word.normalize("NFD").replace(/\p{M}/gu, "");
    const patterns = new Set<string>();
    for (const form of new Set([stripped.normalize("NFC"), stripped])) {
      const letters = patternLetters(form, clauses);
      const folded = letters.join("");
      if (letters.length > 0 && !STOP_WORDS.some((stop) => stop.startsWith(folded)))
        patterns.add(`*${letters.join("*")}*`);
    }
    if (patterns.size > 0)
      clauses.add(patterns.size === 1 ? `+${[...patterns].join("")}` : `+(${[...patterns].join(" ")})`);
  }
  const query = [...clauses].join(" ");
  return query === "" ? undefined : query;
}

/**
 * The letters of a word's pattern, as the index holds them (lowercased, folded; a letter it may
 * fold otherwise left out, for the `*` around it); each Han or Hiragana character goes to
 * `clauses` as a term of its own.
 */
function patternLetters(form: string, clauses: Set<string>): string[] {
  const letters: string[] = [];
  for (const character of form) {
    const lower = character.toLowerCase();
    if (ONE_PER_TOKEN.test(character)) clauses.add(`+${character}`);
    else if (/^[a-z0-9]$/.test(lower)) letters.push(lower);
    else if (FOLDED[lower] !== undefined) letters.push(FOLDED[lower]);
    // Sigma lowercases to σ or, ending a word, ς: either may be in the index.
    else if (
      lower.length === 1 &&
      !FOLDED_BY_THE_INDEX.test(lower) &&
      !/[σς]/u.test(lower) &&
      /[\p{L}\p{N}]/u.test(lower)
    )
      letters.push(lower);
  }
  return letters;
}

/** The vowel jamo a decomposed Hangul syllable ends with when it has no final consonant. */
const HANGUL_VOWEL = /^[\u1161-\u11A7\uD7B0-\uD7C6]$/u;
/** The final-consonant jamo, as a class of the rule's Java regular expression. */
const HANGUL_FINAL = "[\\x{11a8}-\\x{11ff}\\x{d7cb}-\\x{d7fb}]";

/** A word folded as the rule compares words: decomposed (NFD), its combining marks (the accents) dropped, lowercased. */
const folded = (word: string) =>
  word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\p{M}/gu, "");

/**
 * The exact rule as a Java regular expression (Cypher's `=~`, which must match the whole text) over
 * a text decomposed and lowercased in Cypher ({@link matchesSearch}): for every word of the search,
 * a place where a word of the text starts (the text's start, or after a character that is neither a
 * letter, a digit nor a mark) with the word's letters in order, any combining marks between them
 * passed over as if dropped. Each letter is written as its code point (`\x{…}`), so no character
 * of the caller's text is read as regular-expression syntax; letter, digit and mark classes never
 * overlap, so a match costs time linear in the text for each word.
 */
export function searchPattern(search: string): string {
  const words = searchWords(search).map((word) => {
    const characters = Array.from(folded(word));
    // Code point by code point: the rule's unit is a character, and marks are passed over anyway.
    const letters = characters
      .map((character) => `\\x{${(character.codePointAt(0) ?? 0).toString(16)}}`)
      .join("\\p{M}*");
    // A Hangul syllable is decomposed into its jamo: one without a final consonant (서) is not the
    // start of the syllable with one (석), whose jamo it begins.
    return HANGUL_VOWEL.test(characters.at(-1) ?? "") ? `${letters}(?!${HANGUL_FINAL})` : letters;
  });
  return `(?s)${words.map((word) => `(?=.*?(?:^|[^\\p{L}\\p{N}\\p{M}])\\p{M}*${word})`).join("")}.*`;
}

/**
 * A search as its statement reads it, the `$search` parameter (src/cypher/arguments.ts): the
 * pattern of its words and the index's candidate query. Both are values, not text, so that every
 * search of a list shares one statement, which Neo4j plans once (and the service admits as
 * planned, src/overload/first-askings.ts), whatever its words.
 */
export const searchParameter = (search: string) => ({
  pattern: searchPattern(search),
  query: candidateQuery(search) ?? null,
});

/**
 * Cypher that is true when row `v`'s searched text holds every word of the search, `$search.pattern`
 * being {@link searchPattern}. The searched properties are read as one text, a space between
 * them; a property that is not a string holds no word.
 */
export function matchesSearch(v: string, index: SearchIndex): string {
  const text = index.properties
    .map((property) => `CASE WHEN ${v}.${property} >= '' THEN ${v}.${property} ELSE '' END`)
    .join(" + ' ' + ");
  return `toLower(normalize(${text}, NFD)) =~ $search.pattern`;
}

/** The clause reading the candidates of the search's query (`$search.query`) from the index as row `v`. */
export const searchStart = (v: string, index: SearchIndex): string =>
  `CALL db.index.fulltext.queryNodes('${index.name}', $search.query) YIELD node AS ${v}`;

/** A request's search: whether the index has candidates to give, and the exact rule. */
export interface Search {
  /** The search has a candidate query ({@link candidateQuery}): the read starts from the index. */
  candidates: boolean;
  condition: string;
}

/**
 * The search a list field's `search` argument asks for, or none: a string without a word (the
 * request pipeline has refused an empty or blank one) keeps every row, as the contract's "every
 * word" of no word does.
 */
export function searchOf(v: string, index: SearchIndex, search: unknown): Search | undefined {
  if (typeof search !== "string" || searchWords(search).length === 0) return undefined;
  return { candidates: candidateQuery(search) !== undefined, condition: matchesSearch(v, index) };
}
