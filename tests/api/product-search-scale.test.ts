import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchProductsInD1 } from '../../functions/catalogue/product-search.ts';
import { catalogueVocabulary, forgetVocabulary } from '../../functions/catalogue/vocabulary.ts';
import { CATEGORY_IDS } from '../../src/features/catalogue/categories.ts';
import { BRANDS } from '../../src/features/catalogue/brands.ts';
import { PAGE_SIZE, productQuerySchema } from '../../src/features/catalogue/search.ts';
import { generateProducts } from '../../scripts/product-generator.ts';
import { catalogue } from './catalogue.ts';
import { api } from '../../functions/index.ts';
import { insertProducts } from './product-rows.ts';
import { envWith } from './with-env.ts';

/**
 * Rows read grow with what a query matches, not with the catalogue: with 10,000 generated
 * products in D1, a search or filter that matches 20 products reads on the order of those 20
 * rows plus the page (D1's own count, `meta.rows_read`, summed over the request's statements).
 * A statement that scans the products table fails these bounds by hundreds of times.
 */
const BULK = 10_000;
const FEW = 20;

beforeAll(async () => {
  // The bulk: every category and brand but the ones the few below use, priced up to ₦4.9m.
  await insertProducts(
    env.DB,
    generateProducts(BULK, {
      seed: 3,
      prefix: 'bulk',
      categories: CATEGORY_IDS.filter((c) => c !== 'drones'),
      brands: BRANDS.filter((b) => b !== 'DJI'),
    }),
    1000,
  );
  // The few: drones by DJI, priced in a band no other product is in, with a word only they have.
  await insertProducts(
    env.DB,
    generateProducts(FEW, {
      seed: 4,
      prefix: 'few',
      categories: ['drones'],
      brands: ['DJI'],
      descriptionWords: ['quokka'],
      priceNaira: [4_950_000, 4_950_019],
    }),
  );
}, 60_000);

const query = (q: Record<string, string | string[]>) => productQuerySchema.parse(q);

describe(`rows read with ${BULK.toLocaleString('en')} products`, () => {
  it('has the products in D1 and in the search index', async () => {
    const { n } = (await env.DB.prepare('select count(*) as n from products where active = 1').first<{ n: number }>())!;
    expect(n).toBe(catalogue.length + BULK + FEW);
    expect(catalogue.some((p) => p.category === 'drones' || p.brand === 'DJI')).toBe(false);
  });

  it.each([
    ['text matching 20', { q: 'quokka' }],
    ['text prefix matching 20, by price', { q: 'quok', sort: 'price-desc' }],
    ['category word matching 20', { q: 'drones' }],
    ['category matching 20', { category: ['drones'] }],
    ['brand matching 20', { brand: ['DJI'] }],
    ['price band matching 20', { minPrice: '4950000', maxPrice: '4950019' }],
    ['category and brand, page 2', { category: ['drones'], brand: ['DJI'], page: '2', sort: 'rating' }],
  ])('%s reads on the order of 20 rows, not the catalogue', async (name, q) => {
    const { page, rowsRead } = await searchProductsInD1(env.DB, query(q));
    expect(page.total).toBe(FEW);
    // Matches, counted for the page, the total and facets, and the brand list (one index
    // entry per brand when no category narrows it: ~54 brands), and the variants of the page's
    // products (two reads for each of a product's two colours): far below 10,000.
    expect(rowsRead, `rows read for ${JSON.stringify(q)}`).toBeLessThanOrEqual(5 * FEW + 2 * BRANDS.length + 4 * PAGE_SIZE);
    console.log(`${name}: ${rowsRead} rows read, total ${page.total}`);
  });

  it('reads the vocabulary (typos, split words, did you mean) once per isolate, then from memory', async () => {
    forgetVocabulary();
    const started = Date.now();
    const vocabulary = await catalogueVocabulary(env.DB);
    const ms = Date.now() - started;
    expect(vocabulary.all).toContain('quokka');
    expect(vocabulary.names).toContain('dji');
    expect(vocabulary.names).not.toContain('quokka');
    expect(await catalogueVocabulary(env.DB)).toBe(vocabulary);
    console.log(`vocabulary: ${vocabulary.all.length} words, ${vocabulary.names.length} of names and brands, read in ${ms} ms`);
  });

  it('reports the rows read in a header only when EXPOSE_D1_ROWS_READ is set', async () => {
    const call = async (vars: Record<string, string>) => {
      const ctx = createExecutionContext();
      const response = await api.fetch(new Request('http://localhost:8787/api/products?q=quokka'), envWith(vars), ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    const exposed = await call({ EXPOSE_D1_ROWS_READ: 'true' });
    expect(exposed.status).toBe(200);
    expect(Number(exposed.headers.get('x-d1-rows-read'))).toBeGreaterThan(0);
    expect(Number(exposed.headers.get('x-d1-rows-read'))).toBeLessThan(200);
    const hidden = await call({});
    expect(hidden.headers.get('x-d1-rows-read')).toBeNull();
  });

  it('reads a big category a page at a time, its counts one kept row per brand, not one per product', async () => {
    for (const sort of ['name', 'price-asc', 'price-desc', 'rating']) {
      const { page, rowsRead } = await searchProductsInD1(env.DB, query({ category: ['phones'], sort }));
      expect(page.total).toBeGreaterThan(500);
      // page (~9 rows, their variants and the ties of its last sort key) + counts (product_facets:
      // one row per brand) + brands (one seek each): bounded by the brands, whatever the category holds.
      expect(rowsRead, sort).toBeLessThan(4 * BRANDS.length + 4 * PAGE_SIZE);
      console.log(`phones by ${sort}: ${rowsRead} rows read, total ${page.total}`);
    }
  });

  it('answers a category word over a big category reading a page of it, not the category', async () => {
    for (const sort of ['relevance', 'price-asc', 'rating'] as const) {
      const { page, rowsRead } = await searchProductsInD1(env.DB, query({ q: 'phones', sort }));
      expect(page.total).toBeGreaterThan(500);
      if (sort === 'relevance') expect(page.items.every((p) => p.category === 'phones')).toBe(true);
      // The category read in the page's order through an index, the few text matches outside it
      // (with their rank), the counts from product_facets (one row per brand) and the brands (one
      // row per brand in and out of the default price range). Reading the category was ~10 per product.
      expect(rowsRead, sort).toBeLessThan(6 * BRANDS.length + 8 * PAGE_SIZE);
      console.log(`"phones" by ${sort}: ${rowsRead} rows read, total ${page.total}`);
    }
  });

  it('offers a shorter query for one that finds nothing, reading a page of the big category, not the category', async () => {
    const { page, rowsRead } = await searchProductsInD1(env.DB, query({ q: 'phones qqvvzzxx' }));
    expect(page.total).toBe(0);
    expect(page.didYouMean).toBe('phones');
    // The query itself (no match), then each query without one of its words, on its first page.
    expect(rowsRead).toBeLessThan(2 * (6 * BRANDS.length + 8 * PAGE_SIZE));
    console.log(`"phones qqvvzzxx": ${rowsRead} rows read, did you mean ${page.didYouMean}`);
  });

  it('lists the whole catalogue reading a page and the kept counts: bounded by categories and brands, not products', async () => {
    const first = await searchProductsInD1(env.DB, query({}));
    // Within the default price filter (up to ₦5,000,000): the generator prices about 1 in 100 above it.
    const { n } = (await env.DB.prepare('select count(*) as n from products where active = 1 and price_kobo <= 500000000').first<{
      n: number;
    }>())!;
    expect(n).toBeLessThan(catalogue.length + BULK + FEW);
    expect(first.page.total).toBe(n);
    // The page walks the name index; the counts read product_facets (one row per category and
    // brand, read once and once more as the grouped answer), the brand list one seek per brand.
    expect(first.rowsRead).toBeLessThan(2 * CATEGORY_IDS.length * BRANDS.length + 3 * BRANDS.length + 4 * PAGE_SIZE);
    console.log(`whole listing: ${first.rowsRead} rows read, total ${first.page.total}`);
  });
});
