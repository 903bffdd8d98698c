import { z } from 'zod';
import { CATEGORY_IDS } from './categories.ts';
import { BRANDS } from './brands.ts';
import { PRICE_FILTER_MAX_NAIRA, PRICE_FILTER_MIN_NAIRA } from './price-text.ts';
import { productSchema, type Product } from './product.ts';

export { PRICE_FILTER_MAX_NAIRA, PRICE_FILTER_MIN_NAIRA };

/**
 * Catalogue search: the query (parsed by one schema, shared with the browser, which also
 * writes the URL), the answer's shape, and the rules of its answer (words, tiers, name order,
 * facets, paging). The Worker answers the contract in SQL over D1
 * (functions/catalogue/product-search.ts, FTS5 for the text); tests/api/product-search.test.ts
 * checks it against a pure reference built on these rules (tests/api/search-reference.ts).
 * What the words mean (synonyms, typos, split and joined words, category words) is planned by
 * functions/catalogue/query-plan.ts for both. See docs/decisions/012-search-in-d1-with-fts5.md
 * and 022-search-that-understands.md.
 */

export const PAGE_SIZE = 9;

export const SORTS = [
  { id: 'name', label: 'Name: A to Z' },
  { id: 'price-asc', label: 'Price: low to high' },
  { id: 'price-desc', label: 'Price: high to low' },
  { id: 'rating', label: 'Top rated' },
  /** Best match for the search text (see `matchTier`); the default when the query has search words. */
  { id: 'relevance', label: 'Best match' },
] as const;
export type SortId = (typeof SORTS)[number]['id'];
const SORT_IDS = SORTS.map((s) => s.id) as [SortId, ...SortId[]];

/**
 * The words of a text as the search sees them, the same way SQLite FTS5's unicode61
 * tokenizer (remove_diacritics 2) cuts the products' text: runs of letters and digits,
 * lower-cased, accents removed ("Yōtei" → "yotei"); everything else separates words.
 */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []
  );
}

/**
 * A size in inches as a shopper types it ("65 inch", "65-inch", "55inches", "43 in", `65"`): the
 * number alone is what names it, as a product's name writes it (LG 65" OLED…), and as a whole
 * word: "65" is no 65W charger. Its search term carries INCH_MARK (`65"`), which the plan reads
 * as the whole number (functions/catalogue/query-plan.ts) and a "did you mean" shows as typed.
 */
const SIZE_IN_INCHES = /(\d)[\s-]*(?:inches|inch|in|["”″])(?![\p{L}\p{N}])/gu;
export const INCH_MARK = '"';

/**
 * The search words of a query's text, each once: a product matches when every one starts a word
 * of it (a size in inches, `65"`, when it is a word of it).
 */
export function searchTerms(q: string): string[] {
  const sizes = new Set<string>();
  const text = q.replace(SIZE_IN_INCHES, (_, digit: string, offset: number) => {
    // The whole number the mark follows: its digits, read back from where the match starts.
    const number = /\d+$/.exec(q.slice(0, offset))?.[0] ?? '';
    sizes.add(searchWords(number + digit)[0] ?? digit);
    return `${digit} `;
  });
  return [...new Set(searchWords(text).map((word) => (sizes.has(word) ? word + INCH_MARK : word)))];
}

/** The sort a query gets when it names none: best match while there are search words, else by name. */
export function defaultSort(q: string): SortId {
  return searchTerms(q).length ? 'relevance' : 'name';
}

/** The longest search text the API takes (a longer one is a 400 naming `q`); the search box says so. */
export const SEARCH_MAX_LENGTH = 100;

/** What a search with no letters or numbers is told (its text alone would match everything). */
export const SEARCH_NO_WORDS = 'Search with letters or numbers: a product, a brand or a model';

/**
 * A whole number of naira. Separators and the naira sign are allowed ("1,500,000", "₦ 150 000"):
 * the listing's price boxes show amounts that way and, without JavaScript, submit them as shown.
 */
const nairaParam = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(/[\s,₦]/g, '') : value),
  z.coerce
    .number({ error: 'Must be a whole number of naira' })
    .int('Must be a whole number of naira')
    .min(0, 'Cannot be negative')
    .max(100_000_000, 'Is too large'),
);

export const productQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(SEARCH_MAX_LENGTH, `Search text is limited to ${SEARCH_MAX_LENGTH} characters`)
      // Text with no words ("😀", "!!!") would otherwise match every product, as an empty search does.
      .refine((q) => q === '' || searchTerms(q).length > 0, SEARCH_NO_WORDS)
      .default(''),
    category: z
      .array(z.enum(CATEGORY_IDS, { error: 'Unknown category' }))
      .max(20)
      .default([]),
    brand: z
      .array(z.enum(BRANDS, { error: 'Unknown brand' }))
      .max(60)
      .default([]),
    minPrice: nairaParam.default(PRICE_FILTER_MIN_NAIRA),
    maxPrice: nairaParam.default(PRICE_FILTER_MAX_NAIRA),
    /** Left out: `defaultSort(q)` (relevance with search words, else name). */
    sort: z.enum(SORT_IDS, { error: `Must be one of: ${SORT_IDS.join(', ')}` }).optional(),
    featured: z.stringbool({ error: 'Must be true or false' }).optional(),
    page: z.coerce.number().int('Must be a whole number').min(1, 'Pages start at 1').max(10_000).default(1),
  })
  .refine((q) => q.minPrice <= q.maxPrice, { path: ['maxPrice'], message: 'Must not be below minPrice' })
  .transform(({ sort, ...q }) => ({ ...q, sort: sort ?? defaultSort(q.q) }));

const QUERY_KEYS = new Set(['q', 'category', 'brand', 'minPrice', 'maxPrice', 'sort', 'featured', 'page']);

export type ProductQuery = z.infer<typeof productQuerySchema>;
export const DEFAULT_QUERY: ProductQuery = productQuerySchema.parse({});

const LIST_PARAMS = new Set(['category', 'brand']);

/**
 * Reads a query from URL parameters (`?category=phones&brand=Apple,Samsung&sort=rating`).
 * An empty value counts as left out (`?minPrice=&q=`: what a form sends for an empty box).
 */
export function parseProductQuery(params: URLSearchParams) {
  const raw: Record<string, string | string[]> = {};
  const keys = new Set<string>();
  params.forEach((_value, key) => {
    keys.add(key);
  });
  for (const key of keys) {
    if (!QUERY_KEYS.has(key)) continue;
    raw[key] = LIST_PARAMS.has(key)
      ? params
          .getAll(key)
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter(Boolean)
      : (params.get(key) ?? '');
    if (raw[key] === '') delete raw[key];
  }
  return productQuerySchema.safeParse(raw);
}

/** The shortest URL parameters for a query: defaults are left out, so URLs stay shareable. */
export function productQueryToParams(query: Partial<ProductQuery>, { withPage = false } = {}): URLSearchParams {
  const params = new URLSearchParams();
  // A query that names no sort gets its text's default (relevance while there are search words).
  const q = { ...DEFAULT_QUERY, ...query, sort: query.sort ?? defaultSort(query.q ?? '') };
  if (q.q) params.set('q', q.q);
  if (q.category.length) params.set('category', q.category.join(','));
  if (q.brand.length) params.set('brand', q.brand.join(','));
  if (q.minPrice !== DEFAULT_QUERY.minPrice) params.set('minPrice', String(q.minPrice));
  if (q.maxPrice !== DEFAULT_QUERY.maxPrice) params.set('maxPrice', String(q.maxPrice));
  if (q.sort !== defaultSort(q.q)) params.set('sort', q.sort);
  if (q.featured !== undefined) params.set('featured', String(q.featured));
  if (withPage && q.page !== 1) params.set('page', String(q.page));
  return params;
}

/** How many of the matching products are in each category and of each brand. */
export const productFacetsSchema = z.object({
  /** In the order of CATEGORIES (src/features/catalogue/categories.ts). */
  categories: z.array(z.object({ id: z.string(), count: z.number().int() })),
  /** In the order of `sortBrands`. */
  brands: z.array(z.object({ name: z.string(), count: z.number().int() })),
});
export type ProductFacets = z.infer<typeof productFacetsSchema>;

/** One page of a listing: GET /api/products's answer, and what the build pre-renders. */
export const productPageSchema = z.object({
  items: z.array(productSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  /** Brands among the products that match everything but the brand and price filters. */
  brands: z.array(z.string()),
  /** Counts per category and per brand among the products that match the whole query. */
  facets: productFacetsSchema.optional(),
  /**
   * Only when no product matched the query's words: the same query with each word that matched
   * nothing replaced by the nearest catalogue word, when that query finds products (the listing
   * offers it as "Did you mean …?").
   */
  didYouMean: z.string().optional(),
});
export type ProductPage = z.infer<typeof productPageSchema>;

/**
 * Names in order the way SQLite's NOCASE collation orders them (so D1 and this code agree):
 * code point by code point, A-Z folded to a-z and nothing else folded.
 */
export function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x === y) continue;
    // UTF-16 puts U+E000-U+FFFF after the surrogates of U+10000 and beyond; code points (and SQLite) do not.
    const cx = x >= 0xd800 && x <= 0xdfff ? (a.codePointAt(i) ?? x) : x;
    const cy = y >= 0xd800 && y <= 0xdfff ? (b.codePointAt(i) ?? y) : y;
    return cx < cy ? -1 : 1;
  }
  return a.length - b.length;
}

/** Ids are ASCII: plain code unit order, as SQLite's BINARY collation. The last tie-breaker of every sort. */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * How well a product matches the search words as typed, best first: 0 when every word starts a
 * word of its name, 1 when every word starts a word of its name or brand, 2 when every word
 * starts a word of its name, brand, description or its variants' labels (`optionWords`), null
 * when it does not match. Since decision
 * 022 the search ranks by the same tiers over the query's plan (synonyms, typos, category words:
 * tests/api/search-reference.ts and, in FTS5 column filters, functions/catalogue/product-search.ts).
 */
export function matchTier(p: Product, terms: readonly string[]): 0 | 1 | 2 | null {
  if (terms.length === 0) return 0;
  const name = searchWords(p.name);
  const brand = searchWords(p.brand);
  const description = [...searchWords(p.description), ...optionWords(p)];
  const starts = (words: string[], t: string) => words.some((w) => w.startsWith(t));
  if (terms.every((t) => starts(name, t))) return 0;
  if (terms.every((t) => starts(name, t) || starts(brand, t))) return 1;
  if (terms.every((t) => starts(name, t) || starts(brand, t) || starts(description, t))) return 2;
  return null;
}

/**
 * The words of a product's variants' labels ("256GB", "White", "PS5"): found by the search with
 * its description (the index's `options` column, migration 0023), so "iphone 256gb" finds the
 * iPhones sold in 256GB.
 */
export function optionWords(p: Pick<Product, 'variants'>): string[] {
  return searchWords(p.variants.map((v) => v.label).join(' '));
}

/** The brand list's order (the Worker sorts D1's brands with it too). */
export function sortBrands(brands: Iterable<string>): string[] {
  return [...new Set(brands)].sort((a, b) => a.localeCompare(b));
}

const categoryOrder = (id: string) => {
  const i = CATEGORY_IDS.indexOf(id as never);
  return i === -1 ? CATEGORY_IDS.length : i;
};

/** Facets from the matching products' (category, brand) pairs and how many of each (the Worker's grouped query gives these). */
export function facetsFrom(groups: Iterable<{ category: string; brand: string; count: number }>): ProductFacets {
  const categories = new Map<string, number>();
  const brands = new Map<string, number>();
  for (const g of groups) {
    categories.set(g.category, (categories.get(g.category) ?? 0) + g.count);
    brands.set(g.brand, (brands.get(g.brand) ?? 0) + g.count);
  }
  return {
    categories: [...categories]
      .map(([id, count]) => ({ id, count }))
      .sort((a, b) => categoryOrder(a.id) - categoryOrder(b.id) || compareIds(a.id, b.id)),
    brands: sortBrands(brands.keys()).map((name) => ({ name, count: brands.get(name) ?? 0 })),
  };
}

/** Page arithmetic, the same for the Worker's search and the tests' reference. */
export function pageOf<T>(
  items: T[],
  total: number,
  query: ProductQuery,
  brands: string[],
  facets: ProductFacets,
): Omit<ProductPage, 'items'> & { items: T[] } {
  return {
    items,
    total,
    page: query.page,
    pageSize: PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    brands,
    facets,
  };
}
