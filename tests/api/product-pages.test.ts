import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_PAGE_HEADER, productIdOfPagePath, serveProductPage } from '../../functions/catalogue/product-pages.ts';
import type { AdminProductDetail } from '../../src/features/catalogue/admin/admin-product-api.ts';
import { productPageVersion } from '../../src/features/catalogue/page-content.ts';
import { send, signedInAdmin } from './admin-helpers.ts';
import type { Browser } from './account-helpers.ts';
import { catalogue } from './catalogue.ts';

/**
 * Which HTML a product page gets (functions/catalogue/product-pages.ts): the pre-rendered file
 * while D1's row shows what the build showed, else the page rendered from D1. The Worker's
 * decision runs here on this file's seeded D1, with admins' edits made through the admin API.
 * The static assets are Cloudflare's, not ours: they are stood in for by a fetcher that answers
 * what the build writes (/product-pages.json, worked out from the data files as
 * src/pages/product-pages.json.ts does) and a marker page for each file.
 */
const builtVersions = JSON.stringify(Object.fromEntries(catalogue.map((p) => [p.id, productPageVersion(p)])));

function assets({ versions = true } = {}): Fetcher & { asked: string[] } {
  const asked: string[] = [];
  const fetcher = {
    asked,
    async fetch(input: RequestInfo | URL) {
      const { pathname } = new URL(input instanceof Request ? input.url : String(input));
      asked.push(pathname);
      if (pathname === '/product-pages.json')
        return versions
          ? new Response(builtVersions, { headers: { 'content-type': 'application/json' } })
          : new Response('', { status: 404 });
      const id = productIdOfPagePath(pathname);
      return id && catalogue.some((p) => p.id === id) ? new Response(`built page of ${id}`) : new Response('', { status: 404 });
    },
    connect() {
      throw new Error('not used');
    },
  };
  return fetcher as unknown as Fetcher & { asked: string[] };
}

/** What a product page request gets: the source header and the body (a rendered page says "rendered"). */
async function pageOf(id: string, files = assets()) {
  const response = await serveProductPage(
    new Request(`http://localhost:8787/product/${id}`),
    { ASSETS: files, DB: env.DB },
    id,
    async () => new Response(`rendered from D1: ${id}`),
  );
  return { source: response.headers.get(PRODUCT_PAGE_HEADER), body: await response.text(), status: response.status };
}

let admin: { browser: Browser };
beforeAll(async () => {
  admin = await signedInAdmin();
});

async function loaded(id: string): Promise<AdminProductDetail> {
  const response = await admin.browser.get(`/admin/products/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as AdminProductDetail;
}

async function save(id: string, changes: Record<string, unknown>) {
  const form = await loaded(id);
  const response = await send(admin.browser, 'PUT', `/admin/products/${id}`, { ...form.form, ...changes, version: form.version });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** A seeded product without variants and with more than 5 units: its page says "In stock". */
const plain = catalogue.find((p) => p.variants.length === 0 && p.stock > 5)!;
const withVariants = catalogue.find((p) => p.variants.length > 1)!;

describe('product pages: the pre-rendered file while D1 agrees with it', () => {
  it('every product of a freshly seeded store gets its pre-rendered page (the build and D1 fingerprint alike)', async () => {
    const sources = await Promise.all(catalogue.map(async (p) => (await pageOf(p.id)).source));
    expect(catalogue.length).toBeGreaterThan(40);
    expect(sources.filter((s) => s !== 'build')).toEqual([]);
    expect((await pageOf(plain.id)).body).toBe(`built page of ${plain.id}`);
  });

  it("an admin's edit makes the page render from D1; editing it back serves the file again", async () => {
    const files = assets();
    await save(plain.id, { description: `${plain.description} Now with a two-year GTS warranty.` });
    expect(await pageOf(plain.id, files)).toEqual({ source: 'd1', body: `rendered from D1: ${plain.id}`, status: 200 });
    await save(plain.id, { description: plain.description });
    expect((await pageOf(plain.id, files)).source).toBe('build');
    // The build's record was read once for the isolate, not per request.
    expect(files.asked.filter((p) => p === '/product-pages.json')).toHaveLength(1);
  });

  it('a new price on one variant renders the page from D1; the old price serves the file again', async () => {
    const form = await loaded(withVariants.id);
    const variants = form.form.variants.map((v, i) => (i === 0 ? { ...v, priceNaira: v.priceNaira + 1000 } : v));
    await save(withVariants.id, { variants });
    expect((await pageOf(withVariants.id)).source).toBe('d1');
    await save(withVariants.id, { variants: form.form.variants });
    expect((await pageOf(withVariants.id)).source).toBe('build');
  });

  it('stock moves the page only where the page shows it: "Only N left" and "Out of stock", not a count above 5', async () => {
    const setStock = (stock: number) => env.DB.prepare('update products set stock = ? where id = ?').bind(stock, plain.id).run();
    try {
      await setStock(plain.stock + 7);
      expect((await pageOf(plain.id)).source).toBe('build');
      await setStock(3);
      expect((await pageOf(plain.id)).source).toBe('d1');
      await setStock(0);
      expect((await pageOf(plain.id)).source).toBe('d1');
    } finally {
      await setStock(plain.stock);
    }
    expect((await pageOf(plain.id)).source).toBe('build');
  });

  it('an archived product is "Product not found" even though its file exists; a product added after the build renders from D1', async () => {
    const archived = catalogue.at(-1)!;
    await env.DB.prepare('update products set active = 0 where id = ?').bind(archived.id).run();
    try {
      expect(await pageOf(archived.id)).toEqual({ source: 'missing', body: `rendered from D1: ${archived.id}`, status: 200 });
    } finally {
      await env.DB.prepare('update products set active = 1 where id = ?').bind(archived.id).run();
    }
    const created = await send(admin.browser, 'POST', '/admin/products', {
      name: 'Page Test Drone Mini',
      brand: 'DJI',
      category: 'drones',
      description: 'A small drone added after the build, to see its page rendered from D1.',
      priceNaira: 450000,
      stock: 4,
      image: '/images/products/itel-a90.svg',
      rating: 0,
      reviews: 0,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await pageOf(id)).toEqual({ source: 'd1', body: `rendered from D1: ${id}`, status: 200 });
    expect((await pageOf('no-such-product')).source).toBe('missing');
  });

  it("without the build's record every page renders from D1 (slower, never stale), and the record is asked for again", async () => {
    const files = assets({ versions: false });
    expect((await pageOf(plain.id, files)).source).toBe('d1');
    expect((await pageOf(plain.id, files)).source).toBe('d1');
    expect(files.asked.filter((p) => p === '/product-pages.json')).toHaveLength(2);
  });

  it('only /product/{id} paths are product pages', () => {
    expect(productIdOfPagePath(`/product/${plain.id}`)).toBe(plain.id);
    expect(productIdOfPagePath(`/product/${plain.id}/`)).toBe(plain.id);
    for (const path of [
      '/product/',
      '/product/a/b',
      '/product/UPPER',
      '/product/..%2Fadmin',
      '/products',
      `/product/${'a'.repeat(81)}`,
    ])
      expect(productIdOfPagePath(path), path).toBeUndefined();
  });
});
