import type { CategoryId } from '../../src/features/catalogue/categories.ts';
import { SYNONYMS, type SynonymGroup } from '../../src/features/catalogue/synonyms.ts';
import { INCH_MARK, searchWords } from '../../src/features/catalogue/search.ts';

/**
 * What a shopper's search words mean, worked out before any product is read
 * (docs/decisions/022-search-that-understands.md): pure, so the D1 search
 * (product-search.ts, in SQL) and the tests' reference (tests/api/search-reference.ts, over
 * arrays) apply the same plan and are held to the same answer.
 *
 * The words are cut into slots; a product matches when it satisfies every slot, and a slot is
 * satisfied by any one of its alternatives (all of an alternative's terms start, or are, words
 * of the product's name, brand or description) or by the product's category when the slot names one:
 *   - a typed word is a prefix, as before (`iph` → iPhone), but a size in inches a whole number
 *     (`65 inch` → the word 65, not 65W);
 *   - a phrase of a synonym group (src/data/search/synonyms.json) brings every phrase of its group
 *     as whole words (`ps5` → `playstation 5`), and the group's category;
 *   - two typed words that are one catalogue word joined bring it (`play station` → playstation);
 *   - a word that starts no catalogue word brings the words it splits into (`powerbank` →
 *     `power bank`) and the catalogue's name and brand words within 1 edit (from 5 letters) or 2
 *     (from 9 letters) (`samsng` → samsung): the search engines' typo rule.
 */

/** A word of an alternative: the start of a catalogue word (as typed) or a whole catalogue word (put in its place). */
export interface Term {
  word: string;
  prefix: boolean;
}

export interface Alternative {
  kind: 'typed' | 'synonym' | 'joined' | 'split' | 'typo';
  terms: Term[];
}

export interface Slot {
  /** The words the shopper typed for this slot. */
  typed: string[];
  alternatives: Alternative[];
  /** Categories whose products satisfy the slot whatever their text. */
  categories: CategoryId[];
}

export interface QueryPlan {
  slots: Slot[];
  /** Every category the query names: their products come first. */
  categories: CategoryId[];
}

/**
 * The catalogue's words, from the search index of the products on sale (vocabulary.ts reads it
 * from D1; the reference builds it from its products).
 */
export interface Vocabulary {
  /** Every word of names, brands and descriptions, sorted by code unit: does a typed word start one. */
  all: readonly string[];
  /** The same as a set: is a split or joined word a catalogue word. */
  words: ReadonlySet<string>;
  /** Name and brand words, sorted: the candidates for typos and "did you mean" (descriptions are noisy). */
  names: readonly string[];
}

/** A vocabulary from the words of every column and the words of names and brands. */
export function vocabularyOf(all: Iterable<string>, names: Iterable<string>): Vocabulary {
  const words = new Set(all);
  return { all: [...words].sort(byCodeUnit), words, names: [...new Set(names)].sort(byCodeUnit) };
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether some catalogue word starts with `prefix` (binary search in the sorted words). */
export function startsCatalogueWord(vocabulary: Vocabulary, prefix: string): boolean {
  const { all } = vocabulary;
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < all.length && all[lo]!.startsWith(prefix);
}

/**
 * The Damerau-Levenshtein distance (optimal string alignment: insert, delete, substitute, swap
 * two neighbours) between two words, or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How many typos a word may hold: none below 5 letters, 1 from 5, 2 from 9 (Algolia's and Meilisearch's rule). */
export function typosAllowed(word: string): number {
  return word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0;
}

/** The name and brand words within `max` edits of `word`, nearest first (ties in code unit order). */
function nearWords(vocabulary: Vocabulary, word: string, max: number): string[] {
  const found: { w: string; d: number }[] = [];
  for (const w of vocabulary.names) {
    if (w === word) continue;
    const d = editDistance(word, w, max);
    if (d <= max) found.push({ w, d });
  }
  return found.sort((x, y) => x.d - y.d || byCodeUnit(x.w, y.w)).map((x) => x.w);
}

const typed = (words: readonly string[]): Alternative => ({
  kind: 'typed',
  terms: words.map((word) => ({ word, prefix: true })),
});
const whole = (kind: Alternative['kind'], words: readonly string[]): Alternative => ({
  kind,
  terms: words.map((word) => ({ word, prefix: false })),
});

/** The synonym groups by phrase, and the longest phrase in words. */
function phraseIndex(groups: readonly SynonymGroup[]) {
  const byPhrase = new Map<string, SynonymGroup>();
  let longest = 1;
  for (const group of groups) {
    for (const phrase of group.phrases) {
      byPhrase.set(phrase, group);
      longest = Math.max(longest, phrase.split(' ').length);
    }
  }
  return { byPhrase, longest };
}

const STORE_PHRASES = phraseIndex(SYNONYMS);

/**
 * The plan for a query's search words (`searchTerms(q)`, in the order typed): synonym phrases
 * first (the longest that fits at each word), then two words that join into a catalogue word,
 * then single words, with typos and splits only for a word that starts no catalogue word (so
 * they never rank above, or crowd out, what the shopper typed exactly).
 */
export function planQuery(words: readonly string[], vocabulary: Vocabulary, groups = SYNONYMS): QueryPlan {
  const { byPhrase, longest } = groups === SYNONYMS ? STORE_PHRASES : phraseIndex(groups);
  const slots: Slot[] = [];
  let i = 0;
  while (i < words.length) {
    let group: SynonymGroup | undefined;
    let length = Math.min(longest, words.length - i);
    for (; length > 0; length--) {
      group = byPhrase.get(words.slice(i, i + length).join(' '));
      if (group) break;
    }
    if (group) {
      const phrase = words.slice(i, i + length);
      const said = phrase.join(' ');
      slots.push({
        typed: phrase,
        alternatives: [typed(phrase), ...group.phrases.filter((p) => p !== said).map((p) => whole('synonym', p.split(' ')))],
        categories: group.category ? [group.category] : [],
      });
      i += length;
      continue;
    }
    const word = words[i]!;
    if (word.endsWith(INCH_MARK)) {
      // A size in inches (searchTerms): the whole number, as TVs' names write it, never a prefix.
      slots.push({ typed: [word], alternatives: [whole('typed', [word.slice(0, -INCH_MARK.length)])], categories: [] });
      i += 1;
      continue;
    }
    const next = words[i + 1];
    if (next !== undefined && vocabulary.words.has(word + next)) {
      slots.push({ typed: [word, next], alternatives: [typed([word, next]), whole('joined', [word + next])], categories: [] });
      i += 2;
      continue;
    }
    const alternatives = [typed([word])];
    if (!startsCatalogueWord(vocabulary, word)) {
      for (let k = 2; k <= word.length - 2; k++) {
        const [a, b] = [word.slice(0, k), word.slice(k)];
        if (vocabulary.words.has(a) && vocabulary.words.has(b)) alternatives.push(whole('split', [a, b]));
      }
      const max = typosAllowed(word);
      if (max > 0) for (const w of nearWords(vocabulary, word, max)) alternatives.push(whole('typo', [w]));
    }
    slots.push({ typed: [word], alternatives, categories: [] });
    i += 1;
  }
  return { slots, categories: [...new Set(slots.flatMap((s) => s.categories))] };
}

/**
 * "Did you mean": the typed words with each word that can match nothing (one typed word of 4
 * letters or more, no other alternative, starting no catalogue word) replaced by the nearest name
 * or brand word within 2 edits; undefined when no word was replaced. The caller offers it only
 * when it finds products (a search never ends at a blank page when a near word would do).
 */
export function suggestQuery(plan: QueryPlan, vocabulary: Vocabulary): string | undefined {
  let replaced = false;
  const words = plan.slots.flatMap((slot) => {
    const [word] = slot.typed;
    if (slot.alternatives.length > 1 || slot.categories.length || slot.typed.length > 1 || !word || word.length < 4) {
      return slot.typed;
    }
    if (startsCatalogueWord(vocabulary, word)) return slot.typed;
    const [nearest] = nearWords(vocabulary, word, 2);
    if (!nearest) return slot.typed;
    replaced = true;
    return [nearest];
  });
  return replaced ? words.join(' ') : undefined;
}

/**
 * Whether a product's name and brand carry every word of `q` (each the start of one of their
 * words): of the shorter queries, one whose best match is named by all its words is offered
 * before one found only in descriptions ("65" finds the 65" TVs; "inch" only a phone's "6.3-inch").
 */
export function namedByAll(q: string, product: { name: string; brand: string }): boolean {
  const words = searchWords(`${product.brand} ${product.name}`);
  return searchWords(q).every((term) => words.some((word) => word.startsWith(term)));
}

/** The most words a query may have for shorterQueries() to try it without one of them. */
const SHORTER_UP_TO = 4;

/**
 * The query without one of its slots, for a search that found nothing as a whole although its
 * parts find something ("iphone 15 pro max" when the store sells the 17 Pro Max; "65 inch", as
 * the TVs are named 65"): each slot left out in turn, a number first (a model the store does not
 * carry), then from the last word to the first. Empty for one word, or more than SHORTER_UP_TO.
 */
export function shorterQueries(plan: QueryPlan): string[] {
  const { slots } = plan;
  if (slots.length < 2 || slots.length > SHORTER_UP_TO) return [];
  const order = slots
    .map((slot, i) => ({ i, number: slot.typed.every((w) => /^\d+$/.test(w)) }))
    .sort((a, b) => Number(b.number) - Number(a.number) || b.i - a.i);
  return order.map(({ i }) =>
    slots
      .filter((_, j) => j !== i)
      .flatMap((slot) => slot.typed)
      .join(' '),
  );
}
