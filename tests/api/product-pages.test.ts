import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PAGE_SOURCE_HEADER,
  productIdOfPagePath,
  serveHomePage,
  serveProductPage,
} from '../../functions/catalogue/product-pages.ts';
import type { AdminProductDetail } from '../../src/features/catalogue/admin/admin-product-api.ts';
import { featuredShelfVersion, productPageVersion } from '../../src/features/catalogue/page-content.ts';
import { send, signedInAdmin } from './admin-helpers.ts';
import type { Browser } from './account-helpers.ts';
import { catalogue } from './catalogue.ts';

/**
 * Which HTML a product page gets (functions/catalogue/product-pages.ts): the pre-rendered file
 * while D1's row shows what the build showed, else the page rendered from D1. The Worker's
 * decision runs here on this file's seeded D1, with admins' edits made through the admin API.
 * The static assets are Cloudflare's, not ours: they are stood in for by a fetcher that answers
 * what the build writes (/page-versions.json, worked out from the data files as
 * src/pages/page-versions.json.ts does) and a marker page for each file.
 */
const builtVersions = JSON.stringify({
  products: Object.fromEntries(catalogue.map((p) => [p.id, productPageVersion(p)])),
  featuredShelf: featuredShelfVersion(catalogue.filter((p) => p.featured)),
});

const HOME =
  '<main><h2>Featured products</h2><ul class="featured-shelf" data-featured-shelf><li>the build\'s cards</li></ul></main>';

function assets({ versions = true } = {}): Fetcher & { asked: string[] } {
  const asked: string[] = [];
  const fetcher = {
    asked,
    async fetch(input: RequestInfo | URL) {
      const { pathname } = new URL(input instanceof Request ? input.url : String(input));
      asked.push(pathname);
      if (pathname === '/page-versions.json')
        return versions
          ? new Response(builtVersions, { headers: { 'content-type': 'application/json' } })
          : new Response('', { status: 404 });
      if (pathname === '/') return new Response(HOME, { headers: { 'content-type': 'text/html', etag: '"built-home"' } });
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
  return { source: response.headers.get(PAGE_SOURCE_HEADER), body: await response.text(), status: response.status };
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

/** A seeded product without variants and with 10 units or more: its page says "In stock" and "Up to 5 per order". */
const plain = catalogue.find((p) => p.variants.length === 0 && p.stock >= 10)!;
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
    expect(files.asked.filter((p) => p === '/page-versions.json')).toHaveLength(1);
  });

  it('a new price on one variant renders the page from D1; the old price serves the file again', async () => {
    const form = await loaded(withVariants.id);
    const variants = form.form.variants.map((v, i) => (i === 0 ? { ...v, priceNaira: v.priceNaira + 1000 } : v));
    await save(withVariants.id, { variants });
    expect((await pageOf(withVariants.id)).source).toBe('d1');
    await save(withVariants.id, { variants: form.form.variants });
    expect((await pageOf(withVariants.id)).source).toBe('build');
  });

  it('stock moves the page only where the page shows it: "Only N left", "Out of stock" and "Up to N per order", not a count of 10 or more', async () => {
    const setStock = (stock: number) => env.DB.prepare('update products set stock = ? where id = ?').bind(stock, plain.id).run();
    try {
      await setStock(plain.stock + 7);
      expect((await pageOf(plain.id)).source).toBe('build');
      // Still "In stock", but one order may take 3 of 7 now (mostPerOrder), not the 5 the file offers.
      await setStock(7);
      expect((await pageOf(plain.id)).source).toBe('d1');
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
    expect(files.asked.filter((p) => p === '/page-versions.json')).toHaveLength(2);
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

describe("the home page: the pre-rendered file, its featured shelf D1's when they differ", () => {
  const shelf =
    (status = 200) =>
    async () =>
      new Response("<li>D1's cards</li>", { status });
  const home = async (renderShelf = shelf()) => {
    const response = await serveHomePage(new Request('http://localhost:8787/'), { ASSETS: assets(), DB: env.DB }, renderShelf);
    return { source: response.headers.get(PAGE_SOURCE_HEADER), body: await response.text(), etag: response.headers.get('etag') };
  };
  const featured = catalogue.find((p) => p.featured)!;
  const notFeatured = catalogue.find((p) => !p.featured && p.variants.length === 0)!;

  it('a fresh store serves the file as built, ETag and all', async () => {
    expect(await home()).toEqual({ source: 'build', body: HOME, etag: '"built-home"' });
  });

  it("an admin's featured picks and a featured product's new price put D1's cards in the shelf, the rest of the page kept", async () => {
    await save(notFeatured.id, { featured: true });
    const picked = await home();
    expect(picked.source).toBe('d1');
    expect(picked.body).toBe(HOME.replace("<li>the build's cards</li>", "<li>D1's cards</li>"));
    expect(picked.etag).toBeNull();
    await save(notFeatured.id, { featured: false });
    expect((await home()).source).toBe('build');

    const form = await loaded(featured.id);
    const price = form.form.priceNaira ?? 0;
    if (form.form.variants.length === 0) {
      await save(featured.id, { priceNaira: price + 5000 });
      expect((await home()).source).toBe('d1');
      await save(featured.id, { priceNaira: price });
    } else {
      const variants = form.form.variants.map((v) => ({ ...v, priceNaira: v.priceNaira + 5000 }));
      await save(featured.id, { variants });
      expect((await home()).source).toBe('d1');
      await save(featured.id, { variants: form.form.variants });
    }
    expect((await home()).source).toBe('build');
  });

  it("if D1's shelf cannot be rendered, the build's stays", async () => {
    await save(notFeatured.id, { featured: true });
    try {
      expect(await home(shelf(500))).toMatchObject({ source: 'build', body: HOME });
    } finally {
      await save(notFeatured.id, { featured: false });
    }
  });
});
