import { describe, expect, it } from 'vitest';
import {
  editDistance,
  planQuery,
  startsCatalogueWord,
  suggestQuery,
  typosAllowed,
  vocabularyOf,
} from '../../functions/catalogue/query-plan.ts';
import { CatalogueError } from '../../src/features/catalogue/catalogue-error.ts';
import { SYNONYMS, validateSynonyms } from '../../src/features/catalogue/synonyms.ts';

/** The query plan (functions/catalogue/query-plan.ts) and the synonyms file's validation (decision 022). */

const words = ['samsung', 'galaxy', 'apple', 'iphone', '17', 'power', 'bank', 'playstation', '5', 'airpods', 'screen'];
const vocabulary = vocabularyOf(
  words,
  words.filter((w) => w !== 'screen'),
);
const alternatives = (q: string) =>
  planQuery(q.split(' '), vocabulary).slots.map((s) =>
    s.alternatives.map((a) => `${a.kind}:${a.terms.map((t) => t.word + (t.prefix ? '*' : '')).join('+')}`),
  );

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it('counts inserts, deletes, substitutions and neighbour swaps, and stops past the bound', () => {
    expect(editDistance('samsng', 'samsung', 2)).toBe(1);
    expect(editDistance('iphnoe', 'iphone', 2)).toBe(1);
    expect(editDistance('ipxxne', 'iphone', 2)).toBe(2);
    expect(editDistance('galaxy', 'galaxy', 2)).toBe(0);
    expect(editDistance('abc', 'xyzabc', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });

  it('allows no typo below 5 letters, 1 from 5, 2 from 9', () => {
    expect([4, 5, 8, 9].map((n) => typosAllowed('x'.repeat(n)))).toEqual([0, 1, 1, 2]);
  });
});

describe('planQuery', () => {
  it('keeps a word that starts a catalogue word as typed, and nothing else', () => {
    expect(startsCatalogueWord(vocabulary, 'iph')).toBe(true);
    expect(alternatives('iph')).toEqual([['typed:iph*']]);
  });

  it('adds name and brand words one edit away for a word that starts none (not description words)', () => {
    expect(alternatives('samsng galaxy')).toEqual([['typed:samsng*', 'typo:samsung'], ['typed:galaxy*']]);
    expect(alternatives('creen')).toEqual([['typed:creen*']]);
    expect(alternatives('ipone')).toEqual([['typed:ipone*', 'typo:iphone']]);
    // Under 5 letters: no typos.
    expect(alternatives('aple')).toEqual([['typed:aple*']]);
  });

  it('splits a word into two catalogue words and joins two typed words into one', () => {
    expect(alternatives('samsunggalaxy')).toEqual([['typed:samsunggalaxy*', 'split:samsung+galaxy']]);
    expect(alternatives('air pods')).toEqual([['typed:air*+pods*', 'joined:airpods']]);
  });

  it('brings every phrase of a synonym group, and the category of a group that names one', () => {
    const plan = planQuery(['ps5'], vocabulary);
    expect(plan.slots[0]!.alternatives.map((a) => a.terms.map((t) => t.word).join(' '))).toEqual([
      'ps5',
      'playstation 5',
      'play station 5',
    ]);
    const phones = planQuery(['samsung', 'phones'], vocabulary);
    expect(phones.categories).toEqual(['phones']);
    expect(phones.slots.map((s) => s.categories)).toEqual([[], ['phones']]);
    // The longest phrase at each word wins: "gta 6" before "gta".
    expect(planQuery(['gta', '6'], vocabulary).slots).toHaveLength(1);
  });
});

describe('suggestQuery', () => {
  it('replaces each word that can match nothing by the nearest name or brand word within 2 edits', () => {
    expect(suggestQuery(planQuery(['ipxxne'], vocabulary), vocabulary)).toBe('iphone');
    expect(suggestQuery(planQuery(['samsung', 'galxyy'], vocabulary), vocabulary)).toBe('samsung galaxy');
    expect(suggestQuery(planQuery(['zqwvkj'], vocabulary), vocabulary)).toBeUndefined();
    expect(suggestQuery(planQuery(['iphone'], vocabulary), vocabulary)).toBeUndefined();
  });
});

describe('the synonyms file', () => {
  it('is valid, and names categories the store has', () => {
    expect(SYNONYMS.length).toBeGreaterThan(10);
    expect(SYNONYMS.filter((g) => g.category).map((g) => g.category)).toContain('phones');
  });

  it('names the file, the group and the problem for a mistake', () => {
    const problems = (data: unknown) => {
      try {
        validateSynonyms('synonyms.json', data);
        return [];
      } catch (error) {
        if (error instanceof CatalogueError) return error.problems;
        throw error;
      }
    };
    expect(problems({})).toEqual(['synonyms.json: The synonyms file must hold a JSON list of groups']);
    expect(
      problems([
        { phrases: ['PS5', 'playstation 5'] },
        { category: 'fridges', phrases: ['fridge'] },
        { phrases: ['tv', 'television'] },
        { category: 'tvs', phrases: ['tv'] },
        { phrases: ['lonely'] },
      ]),
    ).toEqual([
      'synonyms.json: group #1 ("PS5"): phrases.0: Must be lower-case words of letters and digits, one space between words',
      expect.stringMatching(/^synonyms\.json: group #2 \("fridge"\): category: Must be a category id: phones, /),
      'synonyms.json: group #4 ("tv"): phrases.0: "tv" is already in group #3',
      'synonyms.json: group #5 ("lonely"): phrases: A group without a category needs at least two phrases',
    ]);
  });
});
