import {
  namedByAll,
  planQuery,
  type QueryPlan,
  shorterQueries,
  type Slot,
  suggestQuery,
  vocabularyOf,
} from '../../functions/catalogue/query-plan.ts';
import { isInStock, type Product } from '../../src/features/catalogue/product.ts';
import {
  compareIds,
  compareNames,
  facetsFrom,
  PAGE_SIZE,
  type ProductPage,
  type ProductQuery,
  pageOf,
  type SortId,
  searchTerms,
  optionWords,
  searchWords,
  sortBrands,
} from '../../src/features/catalogue/search.ts';
import { nairaToKobo } from '../../src/lib/money.ts';

/**
 * The reference search the D1 search is held to (tests/api/product-search.test.ts): the
 * listing's contract worked out over an array, on the rules src/features/catalogue/search.ts
 * keeps for both (search words, SQLite's name order, facets, paging) and the plan of the
 * query's words (functions/catalogue/query-plan.ts: synonyms, typos, split and joined words,
 * category words; decision 022), evaluated word by word here where D1 evaluates it with FTS5,
 * so a difference in the SQL shows as a different answer.
 */

const byName = (a: Product, b: Product) => compareNames(a.name, b.name) || compareIds(a.id, b.id);

/** A product with its rank for the query: its category named (0) or not (1), where its words are (0 name, 1 name or brand, 2 anywhere). */
type Ranked = { p: Product; named: number; tier: number };

/** Spaces in a name (its words but one): SQL counts them as length(name) - length(replace(name, ' ', '')). */
const spaces = (name: string) => name.split(' ').length - 1;

const COMPARATORS: Record<SortId, (a: Ranked, b: Ranked) => number> = {
  name: (a, b) => byName(a.p, b.p),
  'price-asc': (a, b) => a.p.price - b.p.price || byName(a.p, b.p),
  'price-desc': (a, b) => b.p.price - a.p.price || byName(a.p, b.p),
  rating: (a, b) => b.p.rating - a.p.rating || b.p.reviews - a.p.reviews || byName(a.p, b.p),
  relevance: (a, b) =>
    a.named - b.named ||
    a.tier - b.tier ||
    spaces(a.p.name) - spaces(b.p.name) ||
    b.p.rating - a.p.rating ||
    Number(isInStock(b.p.stock)) - Number(isInStock(a.p.stock)) ||
    byName(a.p, b.p),
};

interface Words {
  name: string[];
  brand: string[];
  /** With its variants' labels (optionWords): the index's description and options columns. */
  description: string[];
}

/** Whether a slot is met by a product's category or, by one of its alternatives, in these words. */
function meets(slot: Slot, category: string, words: readonly string[]): boolean {
  if (slot.categories.includes(category as never)) return true;
  return slot.alternatives.some((a) =>
    a.terms.every((t) => (t.prefix ? words.some((w) => w.startsWith(t.word)) : words.includes(t.word))),
  );
}

/** The product's rank for a plan, or null when it does not match. */
function rank(p: Product, words: Words, plan: QueryPlan): Ranked | null {
  const named = plan.categories.includes(p.category as never) ? 0 : 1;
  if (plan.slots.length === 0) return { p, named, tier: 0 };
  const levels = [words.name, [...words.name, ...words.brand], [...words.name, ...words.brand, ...words.description]];
  const tier = levels.findIndex((level) => plan.slots.every((slot) => meets(slot, p.category, level)));
  return tier === -1 ? null : { p, named, tier };
}

/**
 * Filters, sorts and pages products: what GET /api/products must answer for `query` when the
 * catalogue (the products on sale, whose words are the vocabulary) is `products`.
 */
export function searchProducts(products: readonly Product[], query: ProductQuery): ProductPage {
  const terms = searchTerms(query.q);
  const words = new Map(
    products.map((p) => [
      p,
      { name: searchWords(p.name), brand: searchWords(p.brand), description: [...searchWords(p.description), ...optionWords(p)] },
    ]),
  );
  const vocabulary = vocabularyOf(
    [...words.values()].flatMap((w) => [...w.name, ...w.brand, ...w.description]),
    [...words.values()].flatMap((w) => [...w.name, ...w.brand]),
  );
  const plan = planQuery(terms, vocabulary);
  const minKobo = nairaToKobo(query.minPrice);
  const maxKobo = nairaToKobo(query.maxPrice);

  const inScope: Ranked[] = [];
  for (const p of products) {
    if (query.category.length > 0 && !query.category.includes(p.category as never)) continue;
    if (query.featured !== undefined && p.featured !== query.featured) continue;
    const ranked = rank(p, words.get(p)!, plan);
    if (ranked) inScope.push(ranked);
  }
  const brands = sortBrands(inScope.map(({ p }) => p.brand));
  const matching = inScope
    .filter(({ p }) => query.brand.length === 0 || query.brand.includes(p.brand as never))
    .filter(({ p }) => p.price >= minKobo && p.price <= maxKobo)
    // Without search words, "best match" is the name order (as the SQL does).
    .sort(COMPARATORS[plan.slots.length === 0 && query.sort === 'relevance' ? 'name' : query.sort]);
  const facets = facetsFrom(matching.map(({ p }) => ({ category: p.category, brand: p.brand, count: 1 })));

  const start = (query.page - 1) * PAGE_SIZE;
  const page = pageOf(
    matching.slice(start, start + PAGE_SIZE).map(({ p }) => p),
    matching.length,
    query,
    brands,
    facets,
  );
  // Nothing found: the query with its unmatched words replaced, or else without one of its
  // words, the first of those that finds products.
  if (matching.length > 0 || terms.length === 0) return page;
  const corrected = suggestQuery(plan, vocabulary);
  const candidates = corrected ? [corrected] : shorterQueries(plan);
  // Each tried on its first page by best match, under the same filters.
  const best = candidates.map((q) => ({
    q,
    top: searchProducts(products, { ...query, q, page: 1, sort: 'relevance' }).items[0],
  }));
  const didYouMean = (best.find((c) => c.top && namedByAll(c.q, c.top)) ?? best.find((c) => c.top))?.q;
  return didYouMean ? { ...page, didYouMean } : page;
}
