import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";
import type { DocumentRefused } from "../errors/catalogue.js";

/** What a document came to: its parsed and valid document, or why it was refused. */
export type DocumentOutcome = { document: DocumentNode } | { refusal: DocumentRefused };

/** Remembered documents: at most this many, and this many characters of their text. */
const REMEMBERED = { documents: 1_000, characters: 1_000_000 };

/**
 * The documents of recent requests by the SHA-256 of their text, parsed and validated once
 * (src/graphql/validation-stage.ts): dashboards send the same few documents again and again, and a
 * document's validity depends on its text alone (variables are checked later). It is also Apollo's
 * document store, so Apollo reads the document the validation stage parsed and never parses it
 * again; Apollo's own writes are ignored, as every document it sees was stored here first.
 */
export class ParsedDocuments {
  private readonly outcomes = new LRUCache<string, DocumentOutcome>({
    max: REMEMBERED.documents,
    maxSize: REMEMBERED.characters,
  });

  get(hash: string): DocumentOutcome | undefined {
    return this.outcomes.get(hash);
  }

  remember(hash: string, outcome: DocumentOutcome, characters: number): void {
    this.outcomes.set(hash, outcome, { size: Math.max(1, characters) });
  }

  /** Apollo's document store (`KeyValueCache<DocumentNode>`), keyed `<schema hash>:<SHA-256>`. */
  readonly apolloStore = {
    get: (key: string): Promise<DocumentNode | undefined> => {
      const outcome = this.outcomes.get(key.slice(key.lastIndexOf(":") + 1));
      return Promise.resolve(outcome !== undefined && "document" in outcome ? outcome.document : undefined);
    },
    set: (): Promise<void> => Promise.resolve(),
    delete: (): Promise<boolean> => Promise.resolve(false),
  };
}
