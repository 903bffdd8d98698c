import type { Product } from '../../src/features/catalogue/product.ts';
import {
  compareIds,
  compareNames,
  facetsFrom,
  matchTier,
  PAGE_SIZE,
  type ProductPage,
  type ProductQuery,
  pageOf,
  type SortId,
  searchTerms,
  sortBrands,
} from '../../src/features/catalogue/search.ts';
import { nairaToKobo } from '../../src/lib/money.ts';

/**
 * The reference search the D1 search is held to (tests/api/product-search.test.ts): the
 * listing's contract worked out over an array, on the rules src/features/catalogue/search.ts
 * keeps for both (search words, relevance tiers, SQLite's name order, facets, paging), so a
 * difference in the SQL shows as a different answer.
 */

const byName = (a: Product, b: Product) => compareNames(a.name, b.name) || compareIds(a.id, b.id);

type Ranked = { p: Product; tier: number };

const COMPARATORS: Record<SortId, (a: Ranked, b: Ranked) => number> = {
  name: (a, b) => byName(a.p, b.p),
  'price-asc': (a, b) => a.p.price - b.p.price || byName(a.p, b.p),
  'price-desc': (a, b) => b.p.price - a.p.price || byName(a.p, b.p),
  rating: (a, b) => b.p.rating - a.p.rating || b.p.reviews - a.p.reviews || byName(a.p, b.p),
  relevance: (a, b) => a.tier - b.tier || byName(a.p, b.p),
};

/**
 * Filters, sorts and pages products: what GET /api/products must answer for `query` when the
 * catalogue is `products`.
 */
export function searchProducts(products: readonly Product[], query: ProductQuery): ProductPage {
  const terms = searchTerms(query.q);
  const minKobo = nairaToKobo(query.minPrice);
  const maxKobo = nairaToKobo(query.maxPrice);

  const inScope: Ranked[] = [];
  for (const p of products) {
    if (query.category.length > 0 && !query.category.includes(p.category as never)) continue;
    if (query.featured !== undefined && p.featured !== query.featured) continue;
    const tier = matchTier(p, terms);
    if (tier !== null) inScope.push({ p, tier });
  }
  const brands = sortBrands(inScope.map(({ p }) => p.brand));
  const matching = inScope
    .filter(({ p }) => query.brand.length === 0 || query.brand.includes(p.brand as never))
    .filter(({ p }) => p.price >= minKobo && p.price <= maxKobo)
    .sort(COMPARATORS[query.sort]);
  const facets = facetsFrom(matching.map(({ p }) => ({ category: p.category, brand: p.brand, count: 1 })));

  const start = (query.page - 1) * PAGE_SIZE;
  return pageOf(
    matching.slice(start, start + PAGE_SIZE).map(({ p }) => p),
    matching.length,
    query,
    brands,
    facets,
  );
}
