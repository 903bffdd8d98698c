import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, type ErrorJson } from './client.ts';

interface PageJson {
  items: { id: string; name: string; brand: string; category: string; price: number; inStock: boolean; stock: number }[];
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

describe('GET /api/products', () => {
  it('lists the seeded catalogue in pages of 9, sorted by name', async () => {
    const { count } = (await env.DB.prepare('select count(*) as count from products').first<{ count: number }>())!;
    const first = await page();
    expect(first.total).toBe(count);
    expect(count).toBeGreaterThanOrEqual(48);
    expect(first.items).toHaveLength(9);
    expect(first.pageCount).toBe(Math.ceil(count / 9));
    const names = first.items.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('pages through every product exactly once', async () => {
    const first = await page();
    const seen: string[] = [];
    for (let n = 1; n <= first.pageCount; n++) seen.push(...(await page(`?page=${n}`)).items.map((p) => p.id));
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen).size).toBe(first.total);
  });

  it('filters by category, brand and price in naira', async () => {
    const phones = await page('?category=phones');
    expect(phones.total).toBeGreaterThan(0);
    expect(phones.items.every((p) => p.category === 'phones')).toBe(true);

    const brand = phones.brands[0]!;
    const byBrand = await page(`?category=phones&brand=${encodeURIComponent(brand)}`);
    expect(byBrand.items.every((p) => p.brand === brand && p.category === 'phones')).toBe(true);

    const cheap = await page('?maxPrice=100000&sort=price-desc');
    expect(cheap.items.every((p) => p.price <= 100_000 * 100)).toBe(true);
    expect(cheap.total).toBeGreaterThan(0);
  });

  it('searches text and sorts by price both ways', async () => {
    const results = await page('?q=playstation');
    expect(results.total).toBeGreaterThan(0);
    const asc = (await page('?sort=price-asc')).items.map((p) => p.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await page('?sort=price-desc')).items.map((p) => p.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
  });

  it('reflects a change in D1 at once (D1 is the runtime truth)', async () => {
    const [product] = (await page('?sort=price-asc')).items;
    await env.DB.prepare('update products set price_kobo = ?, stock = 0 where id = ?').bind(123_456_00, product!.id).run();
    const fresh = await (await api(`/products/${product!.id}`)).json<{ price: number; inStock: boolean }>();
    expect(fresh).toMatchObject({ price: 123_456_00, inStock: false });
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
  it('returns one product priced in kobo', async () => {
    const [listed] = (await page()).items;
    const response = await api(`/products/${listed!.id}`);
    expect(response.status).toBe(200);
    const product = await response.json<{ id: string; price: number }>();
    expect(product.id).toBe(listed!.id);
    expect(Number.isInteger(product.price)).toBe(true);
  });

  it('answers 404 product_not_found for an unknown or archived id', async () => {
    const unknown = await api('/products/no-such-phone');
    expect(unknown.status).toBe(404);
    expect((await unknown.json<ErrorJson>()).error.code).toBe('product_not_found');

    const [listed] = (await page()).items;
    await env.DB.prepare('update products set active = 0 where id = ?').bind(listed!.id).run();
    expect((await api(`/products/${listed!.id}`)).status).toBe(404);
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
