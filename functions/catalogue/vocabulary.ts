import type { D1Queries } from '../platform/d1-session.ts';
import { type Vocabulary, vocabularyOf } from './query-plan.ts';

/**
 * The catalogue's words for typos, split and joined words and "did you mean"
 * (query-plan.ts), read from the search index's vocabulary (`products_fts_vocab`, an FTS5
 * `fts5vocab` table over `products_fts`, migrations/0015_search_vocabulary.sql): one row per
 * word and column, so it holds exactly the words of the products on sale.
 *
 * Read once per Worker isolate and kept for a few minutes, so a search's cost stays flat with
 * the catalogue's size: the read walks the whole index, every request after it reads nothing.
 * A product added or edited since is found by its words at once (matching is FTS5's); only its
 * new words' typos and splits wait for the next read.
 */

/** How long an isolate keeps the vocabulary it read. */
export const VOCABULARY_MAX_AGE_MS = 5 * 60_000;

let cached: { at: number; vocabulary: Promise<Vocabulary> } | undefined;

/** The vocabulary of the products on sale, from the isolate's copy while it is fresher than VOCABULARY_MAX_AGE_MS. */
export function catalogueVocabulary(d1: D1Queries, now = Date.now()): Promise<Vocabulary> {
  if (cached && now - cached.at < VOCABULARY_MAX_AGE_MS) return cached.vocabulary;
  const vocabulary = readVocabulary(d1);
  cached = { at: now, vocabulary };
  // A failed read is not kept: the next search tries again.
  vocabulary.catch(() => {
    if (cached?.vocabulary === vocabulary) cached = undefined;
  });
  return vocabulary;
}

/** Drops the isolate's copy, so the next search reads the vocabulary again (tests that change products call it). */
export function forgetVocabulary(): void {
  cached = undefined;
}

async function readVocabulary(d1: D1Queries): Promise<Vocabulary> {
  const { results } = await d1.prepare('SELECT term, col FROM products_fts_vocab').all<{ term: string; col: string }>();
  return vocabularyOf(
    results.map((r) => r.term),
    results.filter((r) => r.col === 'name' || r.col === 'brand').map((r) => r.term),
  );
}
