import { env } from 'cloudflare:workers';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { PENDING_CART_COOKIE, decodePendingCart, readCookie } from '../../src/features/cart/pending-cart.ts';
import { addToPendingCart, readPendingCart } from '../../src/features/cart/pending-cart.server.ts';
import ProductBrowser from '../../src/features/catalogue/ProductBrowser.tsx';
import { loadListing } from '../../src/features/catalogue/listing.server.ts';
import { SEARCH_NO_WORDS } from '../../src/features/catalogue/search.ts';
import { catalogue } from './catalogue.ts';

/**
 * /products as the Worker renders it (listing.server.ts + the ProductBrowser island rendered to
 * HTML, as the page does) and POST /cart/add (pending-cart.server.ts), on this file's migrated,
 * seeded D1. Expected products come from the catalogue data files, not from the search code.
 */

const SITE = 'http://localhost:8787';

async function listingHtml(search: string) {
  const { listing, page, categories } = await loadListing(new URL(`${SITE}/products${search}`), env.DB);
  const html = renderToString(
    createElement(ProductBrowser, {
      initial: page,
      query: listing.query,
      errors: listing.errors,
      priceText: listing.priceText,
      categories,
    }),
  );
  const ids = [...html.matchAll(/data-product-id="([^"]+)"/g)].map((m) => m[1]);
  return { html, ids, listing, page };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1);

describe('the listing the Worker renders', () => {
  it('shows a category’s own products in its HTML, not the whole catalogue', async () => {
    const phones = catalogue.filter((p) => p.category === 'phones').sort(byName);
    const { html, ids } = await listingHtml('?category=phones');
    expect(ids).toEqual(phones.slice(0, 9).map((p) => p.id));
    expect(html).toContain(`>${phones.length}<!-- --> <!-- -->products<`);
    // The filter form says what is applied, so it submits the same filters again.
    const ticked = [...html.matchAll(/<input[^>]*name="category"[^>]*>/g)]
      .filter(([tag]) => tag.includes('checked=""'))
      .map(([tag]) => /value="([^"]+)"/.exec(tag)?.[1]);
    expect(ticked).toEqual(['phones']);
  });

  it('renders brand, price, sort and search URLs, and as many pages as the URL says', async () => {
    const samsungTvs = catalogue.filter((p) => p.category === 'tvs' && p.brand === 'Samsung');
    expect((await listingHtml('?category=tvs&brand=Samsung')).ids.sort()).toEqual(samsungTvs.map((p) => p.id).sort());

    const cheap = catalogue.filter((p) => p.price <= 20_000_000);
    const priced = await listingHtml('?maxPrice=200,000&sort=price-desc');
    expect(priced.page.total).toBe(cheap.length);
    expect(priced.ids[0]).toBe([...cheap].sort((a, b) => b.price - a.price)[0]!.id);

    const two = await listingHtml('?page=2');
    expect(two.ids).toHaveLength(18);
    expect(two.ids).toEqual(
      [...catalogue]
        .sort(byName)
        .slice(0, 18)
        .map((p) => p.id),
    );
    expect(two.html).toContain('href="/products?page=3#item-19"');
  });

  it('ranks a search by relevance: products named iPhone first', async () => {
    const { ids, listing } = await listingHtml('?q=iphone');
    expect(listing.query.sort).toBe('relevance');
    const named = catalogue.filter((p) => /iphone/i.test(p.name)).map((p) => p.id);
    expect(named.length).toBeGreaterThan(0);
    expect(ids.slice(0, named.length).sort()).toEqual([...named].sort());
  });

  it('shows a bad parameter’s message and the list without it, never an error', async () => {
    const inverted = await listingHtml('?category=tvs&minPrice=500000&maxPrice=100000');
    expect(inverted.html).toContain('The max price (₦100,000) is below the min price (₦500,000)');
    // Also above the results, in an alert: on a phone the filter panel with the price boxes is closed.
    expect(inverted.html).toMatch(
      /role="alert">Part of this link could not be used and was left out: (<!-- -->)?The max price \(₦100,000\) is below/,
    );
    expect(inverted.ids).toHaveLength(Math.min(9, catalogue.filter((p) => p.category === 'tvs').length));

    const long = await listingHtml(`?q=${'a'.repeat(300)}`);
    expect(long.html).toContain('Search text is limited to 100 characters');
    expect(long.ids).toHaveLength(9);

    // Text with no words would match every product: it is named, and the listing is the whole catalogue.
    const noWords = await listingHtml(`?q=${encodeURIComponent('😀 !!')}`);
    expect(noWords.html).toContain(SEARCH_NO_WORDS);
    expect(noWords.listing.errors.q).toBe(SEARCH_NO_WORDS);

    const unknown = await listingHtml('?category=drinks&sort=cheapest&page=-1');
    expect(unknown.html).toMatch(/Part of this link could not be used/);
    expect(unknown.ids).toHaveLength(9);
  });

  it('sends the filter form’s query to its short URL', async () => {
    const { listing } = await listingHtml('?q=iphone&minPrice=&maxPrice=5,000,000&sort=name&sortFor=');
    expect(listing.fromForm).toBe(true);
    expect(listing.query).toMatchObject({ q: 'iphone', sort: 'relevance', maxPrice: 5_000_000 });
  });
});

describe('POST /cart/add', () => {
  const changed: string[] = [];
  afterEach(async () => {
    // Give back what a test changed (stock of products without variants).
    for (const statement of changed.splice(0)) await env.DB.prepare(statement).run();
  });

  function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
    return new Request(`${SITE}/cart/add`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: SITE,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
      body: new URLSearchParams(fields),
    });
  }

  const simple = catalogue.find((p) => p.variants.length === 0 && p.stock >= 5)!;
  const withVariants = catalogue.find((p) => p.variants.length > 1 && p.variants.some((v) => v.stock > 0))!;

  it('adds a product to the cookie and answers with where to go: the cart', async () => {
    const outcome = await addToPendingCart(post({ product: simple.id, variant: '', quantity: '2' }), env.DB);
    expect(outcome).toMatchObject({ ok: true, location: '/cart' });
    if (!outcome.ok) return;
    expect(outcome.setCookie).toMatch(new RegExp(`^${PENDING_CART_COOKIE}=[^;]+; Path=/; Max-Age=\\d+; SameSite=Lax$`));
    expect(decodePendingCart(readCookie(outcome.setCookie, PENDING_CART_COOKIE))).toEqual([
      { id: simple.id, variant: '', variantLabel: '', quantity: 2, name: simple.name, price: simple.price, image: simple.image },
    ]);
  });

  it('adds a variant at its own price, merges with the lines already waiting, and follows a same-site return path', async () => {
    const variant = withVariants.variants.find((v) => v.stock > 0)!;
    const first = await addToPendingCart(post({ product: simple.id, variant: '', quantity: '1' }), env.DB);
    if (!first.ok) throw new Error(first.message);
    const cookie = first.setCookie.split(';')[0]!;
    const second = await addToPendingCart(
      post({ product: withVariants.id, variant: variant.id, quantity: '1', return: `/product/${withVariants.id}` }, { cookie }),
      env.DB,
    );
    expect(second).toMatchObject({ ok: true, location: `/product/${withVariants.id}` });
    if (!second.ok) return;
    const lines = decodePendingCart(readCookie(second.setCookie, PENDING_CART_COOKIE));
    expect(lines.map((l) => [l.id, l.variant, l.quantity, l.price])).toEqual([
      [simple.id, '', 1, simple.price],
      [withVariants.id, variant.id, 1, variant.price],
    ]);
    // The same line again adds up; another site's address is never where it sends the shopper.
    const third = await addToPendingCart(
      post(
        { product: simple.id, variant: '', quantity: '2', return: '//evil.example/x' },
        { cookie: second.setCookie.split(';')[0]! },
      ),
      env.DB,
    );
    expect(third).toMatchObject({ ok: true, location: '/cart' });
    if (third.ok) expect(decodePendingCart(readCookie(third.setCookie, PENDING_CART_COOKIE))[0]?.quantity).toBe(3);

    // Without JavaScript the cart page lists the waiting lines, priced from D1.
    const rows = await readPendingCart(third.ok ? third.setCookie.split(';')[0]! : null, env.DB);
    expect(rows).toEqual([
      expect.objectContaining({ id: simple.id, quantity: 3, unitPrice: simple.price }),
      expect.objectContaining({ id: withVariants.id, option: variant.label, unitPrice: variant.price }),
    ]);
  });

  it('refuses, saying why: sold out, unknown product or option, no option chosen, a bad quantity', async () => {
    changed.push(`UPDATE products SET stock = ${simple.stock} WHERE id = '${simple.id}'`);
    await env.DB.prepare('UPDATE products SET stock = 0 WHERE id = ?').bind(simple.id).run();
    expect(await addToPendingCart(post({ product: simple.id, variant: '', quantity: '1' }), env.DB)).toMatchObject({
      ok: false,
      status: 409,
      title: 'Sold out',
      message: expect.stringContaining('is sold out'),
    });
    expect(await addToPendingCart(post({ product: 'no-such-product', variant: '', quantity: '1' }), env.DB)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(
      await addToPendingCart(post({ product: withVariants.id, variant: 'no-such-option', quantity: '1' }), env.DB),
    ).toMatchObject({ ok: false, status: 404, message: expect.stringContaining('does not come in that option') });
    expect(await addToPendingCart(post({ product: withVariants.id, variant: '', quantity: '1' }), env.DB)).toMatchObject({
      ok: false,
      status: 400,
      title: 'Choose an option',
      productHref: `/product/${withVariants.id}`,
    });
    for (const quantity of ['0', '6', '-1', '1.5', 'x']) {
      const other = catalogue.find((p) => p.variants.length === 0 && p.id !== simple.id && p.stock > 5)!;
      expect(await addToPendingCart(post({ product: other.id, variant: '', quantity }), env.DB)).toMatchObject({
        ok: false,
        status: 400,
        message: 'You can add 1 to 5 of a product at a time.',
      });
    }
  });

  it('refuses more than one order may hold or than there is in stock, counting what is already waiting', async () => {
    const first = await addToPendingCart(post({ product: simple.id, variant: '', quantity: '4' }), env.DB);
    if (!first.ok) throw new Error(first.message);
    const cookie = first.setCookie.split(';')[0]!;
    expect(await addToPendingCart(post({ product: simple.id, variant: '', quantity: '2' }, { cookie }), env.DB)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('at most 5'),
    });
    changed.push(`UPDATE products SET stock = ${simple.stock} WHERE id = '${simple.id}'`);
    await env.DB.prepare('UPDATE products SET stock = 4 WHERE id = ?').bind(simple.id).run();
    expect(await addToPendingCart(post({ product: simple.id, variant: '', quantity: '1' }, { cookie }), env.DB)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('Only 4'),
    });
  });

  it('refuses a form sent from another site', async () => {
    const crossSite = post({ product: simple.id, variant: '', quantity: '1' }, { 'sec-fetch-site': 'cross-site' });
    expect(await addToPendingCart(crossSite, env.DB)).toMatchObject({ ok: false, status: 403 });
    // A browser that sends only Origin (no Sec-Fetch-Site).
    const otherOrigin = new Request(`${SITE}/cart/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ product: simple.id, variant: '', quantity: '1' }),
    });
    expect(await addToPendingCart(otherOrigin, env.DB)).toMatchObject({ ok: false, status: 403 });
  });
});
