import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { catalogue } from './catalogue.ts';
import { forShoppers, type Product, SHOPPER_STOCK_CAP } from '../../src/features/catalogue/product.ts';
import { api, type ErrorJson } from './client.ts';
import { SEARCH_NO_WORDS } from '../../src/features/catalogue/search.ts';

/**
 * The expected answers are worked out here from the catalogue data files (the loader the
 * build uses), which seed this test file's D1; the Worker's search code is not used for them.
 */
const PAGE = 9;

interface PageJson {
  items: Product[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  brands: string[];
}

async function page(query = ''): Promise<PageJson> {
  const response = await api(`/products${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** Every page of a query in turn, checked to be consistent: the same total, full pages but the last, no product twice. */
async function allPages(query = ''): Promise<Product[]> {
  const sep = query ? '&' : '?';
  const first = await page(query);
  expect(first.pageCount).toBe(Math.max(1, Math.ceil(first.total / PAGE)));
  const items: Product[] = [];
  for (let n = 1; n <= first.pageCount; n++) {
    const current = n === 1 ? first : await page(`${query}${sep}page=${n}`);
    expect(current).toMatchObject({ total: first.total, page: n, pageSize: PAGE, pageCount: first.pageCount });
    expect(current.items).toHaveLength(Math.min(PAGE, first.total - (n - 1) * PAGE));
    items.push(...current.items);
  }
  expect(new Set(items.map((p) => p.id)).size).toBe(items.length);
  expect(items).toHaveLength(first.total);
  return items;
}

const ids = (products: readonly Product[]) => products.map((p) => p.id).sort();
const byName = (a: Product, b: Product) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/** Checks every neighbouring pair: `before(a, b)` says a may come before b. */
function expectPairwise(items: readonly Product[], before: (a: Product, b: Product) => boolean) {
  for (let i = 1; i < items.length; i++) {
    expect(before(items[i - 1]!, items[i]!), `${items[i - 1]!.id} before ${items[i]!.id}`).toBe(true);
  }
}

/** A data file's product as the API answers it: stock as shoppers are told it, up to SHOPPER_STOCK_CAP ("10 or more"). */
const asStored = (p: Product): Product => forShoppers({ ...p, inStock: p.stock > 0 });

describe('GET /api/products', () => {
  it('serves the seeded catalogue: every product of the data files, each exactly as written', async () => {
    expect(catalogue.length).toBeGreaterThan(PAGE * 2);
    // These tests expect every product inside the default price filter (₦0 to ₦5,000,000, spec section 5).
    expect(catalogue.filter((p) => p.price > 5_000_000 * 100).map((p) => p.id)).toEqual([]);
    const listed = await allPages();
    expect(ids(listed)).toEqual(ids(catalogue));
    const fromFiles = new Map(catalogue.map((p) => [p.id, asStored(p)]));
    for (const product of listed) expect(product).toEqual(fromFiles.get(product.id));
  });

  it('lists in pages of 9, sorted by name, with no product on two pages', async () => {
    const first = await page();
    expect(first).toMatchObject({
      total: catalogue.length,
      page: 1,
      pageSize: PAGE,
      pageCount: Math.ceil(catalogue.length / PAGE),
    });
    const sorted = [...catalogue].sort(byName);
    expect(first.items.map((p) => p.id)).toEqual(sorted.slice(0, PAGE).map((p) => p.id));
    const listed = await allPages();
    expectPairwise(listed, (a, b) => byName(a, b) <= 0);
    const beyond = await page(`?page=${first.pageCount + 1}`);
    expect(beyond).toMatchObject({ items: [], total: catalogue.length, page: first.pageCount + 1 });
  });

  it.each([
    ['price-asc', (a: Product, b: Product) => a.price < b.price || (a.price === b.price && byName(a, b) <= 0)],
    ['price-desc', (a: Product, b: Product) => a.price > b.price || (a.price === b.price && byName(a, b) <= 0)],
    [
      'rating',
      (a: Product, b: Product) =>
        a.rating > b.rating ||
        (a.rating === b.rating && (a.reviews > b.reviews || (a.reviews === b.reviews && byName(a, b) <= 0))),
    ],
  ])('sorts the whole catalogue by %s, checked pair by pair across pages', async (sort, before) => {
    const listed = await allPages(`?sort=${sort}`);
    expect(ids(listed)).toEqual(ids(catalogue));
    expectPairwise(listed, before);
  });

  it.each([...new Set(catalogue.map((p) => p.category))])('filters by category %s', async (category) => {
    const expected = catalogue.filter((p) => p.category === category);
    const first = await page(`?category=${category}`);
    expect(first.brands).toEqual([...new Set(expected.map((p) => p.brand))].sort((a, b) => a.localeCompare(b)));
    const listed = await allPages(`?category=${category}`);
    expect(ids(listed)).toEqual(ids(expected));
    for (const product of listed) expect(product.category).toBe(category);
  });

  it('filters by several categories and brands at once', async () => {
    const phones = catalogue.filter((p) => p.category === 'phones');
    const [a, b] = [...new Set(phones.map((p) => p.brand))].sort();
    expect(b, 'the catalogue should have phones of two brands').toBeDefined();
    const byBrand = await allPages(`?category=phones&brand=${encodeURIComponent(`${a},${b}`)}`);
    expect(ids(byBrand)).toEqual(ids(phones.filter((p) => p.brand === a || p.brand === b)));
    for (const product of byBrand) expect([a, b]).toContain(product.brand);

    const twoCategories = await allPages('?category=tvs&category=laptops');
    expect(ids(twoCategories)).toEqual(ids(catalogue.filter((p) => p.category === 'tvs' || p.category === 'laptops')));
  });

  it('filters by price in naira, both bounds included', async () => {
    const cheap = await allPages('?maxPrice=100000&sort=price-desc');
    const expectedCheap = catalogue.filter((p) => p.price <= 100_000 * 100);
    expect(expectedCheap.length).toBeGreaterThan(0);
    expect(ids(cheap)).toEqual(ids(expectedCheap));
    for (const product of cheap) expect(product.price).toBeLessThanOrEqual(100_000 * 100);
    expectPairwise(cheap, (x, y) => x.price >= y.price);

    // A band whose bounds are real prices: the products priced exactly at them are in.
    const prices = [...new Set(catalogue.map((p) => p.price))].filter((p) => p % 100 === 0).sort((x, y) => x - y);
    const [low, high] = [prices[2]!, prices[prices.length - 3]!];
    const band = await allPages(`?minPrice=${low / 100}&maxPrice=${high / 100}`);
    expect(ids(band)).toEqual(ids(catalogue.filter((p) => p.price >= low && p.price <= high)));
    expect(band.map((p) => p.price)).toContain(low);
    expect(band.map((p) => p.price)).toContain(high);
  });

  it('filters featured products', async () => {
    const featured = await allPages('?featured=true');
    expect(ids(featured)).toEqual(ids(catalogue.filter((p) => p.featured)));
    expect(featured.length).toBeGreaterThan(0);
    const rest = await allPages('?featured=false');
    expect(ids(rest)).toEqual(ids(catalogue.filter((p) => !p.featured)));
  });

  it.each(['playstation', 'samsung 4k', 'PlayStation   Slim', 'play', 'sams gal'])(
    'searches the text %j, every word starting a word of the name, brand or description',
    async (q) => {
      const words = q.toLowerCase().split(/\s+/);
      const expected = catalogue.filter((p) => {
        const text = `${p.name} ${p.brand} ${p.description}`.toLowerCase().split(/[^\p{L}\p{N}]+/u);
        return words.every((w) => text.some((t) => t.startsWith(w)));
      });
      expect(expected.length).toBeGreaterThan(0);
      const found = await allPages(`?q=${encodeURIComponent(q)}`);
      expect(ids(found)).toEqual(ids(expected));
    },
  );

  it.each(['😀', '!!!', '🤷‍♀️ ...'])('refuses search text %j with no letters or numbers, naming q', async (q) => {
    const response = await api(`/products?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(400);
    const { error } = await response.json<ErrorJson>();
    expect(error.issues).toContainEqual(expect.objectContaining({ field: 'q', message: SEARCH_NO_WORDS }));
  });

  it('finds nothing for text no product has, as an empty first page', async () => {
    expect(await page('?q=zzqx-nothing')).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: PAGE,
      pageCount: 1,
      brands: [],
      facets: { categories: [], brands: [] },
    });
  });

  it('reflects a change in D1 at once (D1 is the runtime truth)', async () => {
    const [product] = (await page('?sort=price-asc')).items;
    await env.DB.prepare('update products set price_kobo = ?, stock = 0 where id = ?').bind(123_456_00, product!.id).run();
    const fresh = await (await api(`/products/${product!.id}`)).json<{ price: number; inStock: boolean }>();
    expect(fresh).toMatchObject({ price: 123_456_00, inStock: false });
    const listed = (await allPages()).find((p) => p.id === product!.id);
    expect(listed).toMatchObject({ price: 123_456_00, stock: 0, inStock: false });
  });

  it.each([
    ['?sort=cheapest', 'sort'],
    ['?category=fridges', 'category.0'],
    ['?brand=Nokla', 'brand.0'],
    ['?minPrice=abc', 'minPrice'],
    ['?minPrice=-5', 'minPrice'],
    ['?minPrice=5000&maxPrice=100', 'maxPrice'],
    ['?page=0', 'page'],
    ['?page=1.5', 'page'],
    ['?featured=maybe', 'featured'],
  ])('rejects %s with a 400 naming %s', async (query, field) => {
    const response = await api(`/products${query}`);
    expect(response.status).toBe(400);
    const body = await response.json<ErrorJson>();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.issues?.map((i) => i.field)).toContain(field);
  });
});

describe('GET /api/products/:id', () => {
  it('returns one product as the data file has it, priced in kobo', async () => {
    const written = catalogue.find((p) => p.id === 'sony-playstation-5-slim')!;
    const response = await api(`/products/${written.id}`);
    expect(response.status).toBe(200);
    const product = await response.json<Product>();
    expect(product).toEqual(asStored(written));
    // From the Digital Edition's ₦749,000; each variant at its own price and stock.
    expect(product.price).toBe(74_900_000);
    expect(product.variantLabel).toBe('Edition');
    // D1 holds 10 and 9 (19 in all); a shopper is told each up to SHOPPER_STOCK_CAP (10: "10 or more").
    const stored = await env.DB.prepare('select id, stock from product_variants where product_id = ? order by position')
      .bind(written.id)
      .all<{ id: string; stock: number }>();
    expect(stored.results).toEqual([
      { id: 'disc-edition', stock: 10 },
      { id: 'digital-edition', stock: 9 },
    ]);
    expect(SHOPPER_STOCK_CAP).toBe(10);
    expect(product.variants.map((v) => [v.id, v.label, v.price, v.stock, v.inStock])).toEqual([
      ['disc-edition', 'Disc Edition', 84_900_000, 10, true],
      ['digital-edition', 'Digital Edition', 74_900_000, 9, true],
    ]);
    expect(product.stock).toBe(10);
    // Above the cap, never the count: 25 of the Disc Edition reads 10, here and in the listing.
    await env.DB.prepare("update product_variants set stock = 25 where product_id = ? and id = 'disc-edition'")
      .bind(written.id)
      .run();
    const more = await (await api(`/products/${written.id}`)).json<Product>();
    expect(more.variants.map((v) => v.stock)).toEqual([10, 9]);
    expect(more.stock).toBe(10);
    const listed = (await (await api('/products?q=playstation%205%20slim')).json<{ items: Product[] }>()).items;
    expect(listed.find((p) => p.id === written.id)?.variants.map((v) => v.stock)).toEqual([10, 9]);
    await env.DB.prepare("update product_variants set stock = 10 where product_id = ? and id = 'disc-edition'")
      .bind(written.id)
      .run();
  });

  it('tells the exact stock only below SHOPPER_STOCK_CAP: 3 left reads 3', async () => {
    await env.DB.prepare("update products set stock = 3 where id = 'itel-a90'").run();
    const product = await (await api('/products/itel-a90')).json<Product>();
    expect(product.stock).toBe(3);
    expect(product.inStock).toBe(true);
  });

  it('answers 404 product_not_found for an unknown or archived id', async () => {
    const unknown = await api('/products/no-such-phone');
    expect(unknown.status).toBe(404);
    expect((await unknown.json<ErrorJson>()).error.code).toBe('product_not_found');

    const [listed] = (await page()).items;
    expect((await api(`/products/${listed!.id}`)).status).toBe(200);
    await env.DB.prepare('update products set active = 0 where id = ?').bind(listed!.id).run();
    expect((await api(`/products/${listed!.id}`)).status).toBe(404);
    const after = await page();
    expect(after.total).toBe(catalogue.length - 1);
    expect(after.items.map((p) => p.id)).not.toContain(listed!.id);
  });

  it('answers 400 for an id that cannot be a product id', async () => {
    const response = await api('/products/DROP%20TABLE');
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues?.[0]?.field).toBe('id');
  });
});

describe('the API as a whole', () => {
  it('answers unknown routes with the one error shape', async () => {
    const response = await api('/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('reports health with the database reachable', async () => {
    const response = await api('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });
});
