import { z } from 'zod';
import { CATEGORY_IDS, categoryLabel } from './categories.ts';
import { BRANDS } from './brands.ts';
import type { Product } from './product.ts';
import { nairaToKobo } from '../../lib/money.ts';

/**
 * Catalogue search: one implementation, used by the Worker (GET /api/products over
 * the products in D1) and at build time (the pre-rendered first page of /products).
 * See docs/decisions/003-catalogue-search-in-the-worker.md.
 */

export const PAGE_SIZE = 9;
/** The price filter's default range in naira (spec section 5). */
export const PRICE_FILTER_MIN_NAIRA = 0;
export const PRICE_FILTER_MAX_NAIRA = 5_000_000;

export const SORTS = [
  { id: 'name', label: 'Name: A to Z' },
  { id: 'price-asc', label: 'Price: low to high' },
  { id: 'price-desc', label: 'Price: high to low' },
  { id: 'rating', label: 'Top rated' },
] as const;
export type SortId = (typeof SORTS)[number]['id'];
const SORT_IDS = SORTS.map((s) => s.id) as [SortId, ...SortId[]];

const nairaParam = z.coerce
  .number({ error: 'Must be a whole number of naira' })
  .int('Must be a whole number of naira')
  .min(0, 'Cannot be negative')
  .max(100_000_000, 'Is too large');

export const productQuerySchema = z
  .object({
    q: z.string().trim().max(100, 'Search text is limited to 100 characters').default(''),
    category: z.array(z.enum(CATEGORY_IDS, { error: 'Unknown category' })).max(20).default([]),
    brand: z.array(z.enum(BRANDS, { error: 'Unknown brand' })).max(60).default([]),
    minPrice: nairaParam.default(PRICE_FILTER_MIN_NAIRA),
    maxPrice: nairaParam.default(PRICE_FILTER_MAX_NAIRA),
    sort: z.enum(SORT_IDS, { error: `Must be one of: ${SORT_IDS.join(', ')}` }).default('name'),
    featured: z.stringbool({ error: 'Must be true or false' }).optional(),
    page: z.coerce.number().int('Must be a whole number').min(1, 'Pages start at 1').max(10_000).default(1),
  })
  .refine((q) => q.minPrice <= q.maxPrice, { path: ['maxPrice'], message: 'Must not be below minPrice' });

export type ProductQuery = z.infer<typeof productQuerySchema>;
export const DEFAULT_QUERY: ProductQuery = productQuerySchema.parse({});

const LIST_PARAMS = new Set(['category', 'brand']);

/** Reads a query from URL parameters (`?category=phones&brand=Apple,Samsung&sort=rating`). */
export function parseProductQuery(params: URLSearchParams) {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (!(key in productQuerySchema.shape)) continue;
    raw[key] = LIST_PARAMS.has(key)
      ? params.getAll(key).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
      : (params.get(key) ?? '');
  }
  return productQuerySchema.safeParse(raw);
}

/** The shortest URL parameters for a query: defaults are left out, so URLs stay shareable. */
export function productQueryToParams(query: Partial<ProductQuery>, { withPage = false } = {}): URLSearchParams {
  const params = new URLSearchParams();
  const q = { ...DEFAULT_QUERY, ...query };
  if (q.q) params.set('q', q.q);
  if (q.category.length) params.set('category', q.category.join(','));
  if (q.brand.length) params.set('brand', q.brand.join(','));
  if (q.minPrice !== DEFAULT_QUERY.minPrice) params.set('minPrice', String(q.minPrice));
  if (q.maxPrice !== DEFAULT_QUERY.maxPrice) params.set('maxPrice', String(q.maxPrice));
  if (q.sort !== DEFAULT_QUERY.sort) params.set('sort', q.sort);
  if (q.featured !== undefined) params.set('featured', String(q.featured));
  if (withPage && q.page !== 1) params.set('page', String(q.page));
  return params;
}

export interface ProductPage {
  items: Product[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** Brands among the products that match everything but the brand and price filters. */
  brands: string[];
}

const byName = (a: Product, b: Product) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

const COMPARATORS: Record<SortId, (a: Product, b: Product) => number> = {
  name: byName,
  'price-asc': (a, b) => a.price - b.price || byName(a, b),
  'price-desc': (a, b) => b.price - a.price || byName(a, b),
  rating: (a, b) => b.rating - a.rating || b.reviews - a.reviews || byName(a, b),
};

function matchesText(p: Product, terms: string[]): boolean {
  if (terms.length === 0) return true;
  const haystack = `${p.name} ${p.brand} ${p.category} ${categoryLabel(p.category)} ${p.description}`.toLowerCase();
  return terms.every((t) => haystack.includes(t));
}

/** Filters, sorts and pages products. Pure: the same answer in the Worker and at build. */
export function searchProducts(products: readonly Product[], query: ProductQuery): ProductPage {
  const terms = query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const minKobo = nairaToKobo(query.minPrice);
  const maxKobo = nairaToKobo(query.maxPrice);

  const inScope = products.filter(
    (p) =>
      matchesText(p, terms) &&
      (query.category.length === 0 || query.category.includes(p.category as never)) &&
      (query.featured === undefined || p.featured === query.featured),
  );
  const brands = [...new Set(inScope.map((p) => p.brand))].sort((a, b) => a.localeCompare(b));
  const matching = inScope
    .filter((p) => query.brand.length === 0 || query.brand.includes(p.brand as never))
    .filter((p) => p.price >= minKobo && p.price <= maxKobo)
    .sort(COMPARATORS[query.sort]);

  const pageCount = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const start = (query.page - 1) * PAGE_SIZE;
  return {
    items: matching.slice(start, start + PAGE_SIZE),
    total: matching.length,
    page: query.page,
    pageSize: PAGE_SIZE,
    pageCount,
    brands,
  };
}
