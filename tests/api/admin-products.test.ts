import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import type { AdminProductDetail } from '../../src/features/catalogue/admin/admin-product-api.ts';
import type { Endpoint } from '../../src/lib/api-contract.ts';
import { type Product, type ProductInputDraft, SHOPPER_STOCK_CAP } from '../../src/features/catalogue/product.ts';
import type { Quote } from '../../src/features/orders/pricing.ts';
import type { Browser } from './account-helpers.ts';
import { signedInAdmin, signedInCustomer, send } from './admin-helpers.ts';
import { api, checkAnswer, type ErrorJson, postJson } from './client.ts';
import { placeOrder } from './orders-helpers.ts';
import { submitted, tradeInFields } from './trade-in-helpers.ts';
import { brandsOnSale } from '../../functions/catalogue/product-search.ts';

/**
 * The admin's catalogue API (functions/catalogue/admin-routes.ts) through the real Worker and
 * this file's migrated, seeded D1: what an admin saves is what the shop (GET /api/products,
 * the quote, checkout) sells at once, refusals store nothing, and every change has its audit row.
 */

let admin: { browser: Browser; email: string; id: string };
beforeAll(async () => {
  admin = await signedInAdmin();
});

const IMAGE = '/images/products/acer-nitro-v-15.svg';
const UPLOADED = `/images/uploads/${'a'.repeat(64)}.png`;

/** A word no seeded product has, so the shop's search finds only this test's product. */
const uniqueWord = () => `zq${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;

function simpleProduct(overrides: Record<string, unknown> = {}): ProductInputDraft {
  return {
    name: `Nokia Feature ${uniqueWord()}`,
    brand: 'Nokia',
    category: 'phones',
    description: 'A sturdy feature phone with a battery that lasts a week.',
    priceNaira: 25_000.5,
    stock: 17,
    image: IMAGE,
    featured: true,
    ...overrides,
  } as ProductInputDraft;
}

function variantProduct(overrides: Record<string, unknown> = {}): ProductInputDraft {
  return {
    name: `Galaxy Test ${uniqueWord()}`,
    brand: 'Samsung',
    category: 'phones',
    description: 'A phone in two storage sizes, each with its own price and stock.',
    variantLabel: 'Storage',
    variants: [
      { label: '128GB', priceNaira: 500_000, stock: 3 },
      { label: '256GB', priceNaira: 450_000, stock: 2, image: UPLOADED },
    ],
    image: IMAGE,
    ...overrides,
  } as ProductInputDraft;
}

/** The answer parses with the contract's schema and the parse drops nothing the Worker sent. */
function expectFitsContract(endpoint: Endpoint, json: unknown) {
  const parsed = checkAnswer(endpoint.response, json);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.issues)).toBe(true);
  expect(parsed.success && parsed.data).toEqual(json);
}

async function create(body: unknown): Promise<AdminProductDetail> {
  const response = await admin.browser.post('/admin/products', body);
  expect(response.status, await response.clone().text()).toBe(201);
  const json = await response.json();
  expectFitsContract(adminApi.createProduct, json);
  return json as AdminProductDetail;
}

async function detail(id: string): Promise<AdminProductDetail> {
  const response = await admin.browser.get(`/admin/products/${id}`);
  expect(response.status, await response.clone().text()).toBe(200);
  const json = await response.json();
  expectFitsContract(adminApi.product, json);
  return json as AdminProductDetail;
}

const update = (id: string, body: unknown) => send(admin.browser, 'PUT', `/admin/products/${id}`, body);
const remove = (id: string) => send(admin.browser, 'DELETE', `/admin/products/${id}`);

async function shopProduct(id: string): Promise<Response> {
  return api(`/products/${id}`);
}

async function quote(productId: string, variant: string, price: number): Promise<Quote> {
  const response = await postJson('/orders/quote', { lines: [{ productId, variant, quantity: 1, price }] });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function productDbRow(id: string) {
  return env.DB.prepare('select * from products where id = ?').bind(id).first<Record<string, unknown>>();
}

async function variantRows(id: string) {
  const { results } = await env.DB.prepare(
    'select id, label, price_kobo as price, stock, image, position from product_variants where product_id = ? order by position',
  )
    .bind(id)
    .all();
  return results;
}

async function auditRows(id: string) {
  const { results } = await env.DB.prepare(
    "select action, actor_email as actor, changes from admin_audit where entity = 'product' and entity_id = ? order by id",
  )
    .bind(id)
    .all<{ action: string; actor: string; changes: string }>();
  return results.map((r) => ({ ...r, changes: JSON.parse(r.changes) as Record<string, { from: unknown; to: unknown }> }));
}

async function tableCounts() {
  const n = async (table: string) => (await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())!.n;
  return { products: await n('products'), variants: await n('product_variants'), audit: await n('admin_audit') };
}

/** The whole product table and its variants, to show a refused write changed nothing. */
async function snapshot() {
  const products = await env.DB.prepare('select * from products order by id').all();
  const variants = await env.DB.prepare('select * from product_variants order by product_id, id').all();
  const audit = await env.DB.prepare('select count(*) as n from admin_audit').first();
  return JSON.stringify([products.results, variants.results, audit]);
}

/** The PUT body that saves the form as loaded, with some fields changed. */
function edited(loaded: AdminProductDetail, changes: Record<string, unknown> = {}) {
  return { ...loaded.form, ...changes, version: loaded.version };
}

describe('admin products: create', () => {
  it('a product without variants: its id from the name, on sale at once, found by the shop search and the admin list', async () => {
    const body = simpleProduct();
    const created = await create(body);
    const slug = (body.name as string).toLowerCase().replaceAll(' ', '-');
    expect(created).toMatchObject({
      id: slug,
      active: true,
      rating: 0,
      reviews: 0,
      ordered: false,
      form: { id: slug, name: body.name, priceNaira: 25_000.5, stock: 17, featured: true, variants: [] },
    });
    expect(created.version).toMatch(/^[a-f0-9]{64}$/);
    expect(created.audit).toEqual([
      expect.objectContaining({
        by: admin.email,
        action: 'create',
        changes: expect.objectContaining({ name: { from: null, to: body.name } }),
      }),
    ]);

    const shop = await shopProduct(slug);
    expect(shop.status).toBe(200);
    expect(await shop.json()).toMatchObject({
      id: slug,
      price: 2_500_050,
      // Shoppers are told up to 10 ("10 or more"); the admin's form above keeps D1's 17.
      stock: SHOPPER_STOCK_CAP,
      inStock: true,
      featured: true,
      variants: [],
      variantLabel: '',
    } satisfies Partial<Product>);

    const word = (body.name as string).split(' ').at(-1)!;
    const search = await api(`/products?q=${word}`);
    expect(((await search.json()) as { items: Product[] }).items.map((p) => p.id)).toEqual([slug]);

    const list = await admin.browser.get(`/admin/products?q=${word.toUpperCase()}`);
    expect(list.status).toBe(200);
    const listed = await list.json();
    expectFitsContract(adminApi.products, listed);
    expect(listed).toMatchObject({
      total: 1,
      page: 1,
      pageSize: 20,
      products: [{ id: slug, price: 2_500_050, stock: 17, variants: 0 }],
    });

    const [row] = await auditRows(slug);
    expect(row).toMatchObject({ action: 'create', actor: admin.email });
    expect(row!.changes.priceNaira).toEqual({ from: null, to: 25_000.5 });
  });

  it('a product with variants: each its own price and stock, the product "from" the lowest with their total', async () => {
    const created = await create(variantProduct());
    expect(created.form).toMatchObject({
      variantLabel: 'Storage',
      variants: [
        { id: '128gb', label: '128GB', priceNaira: 500_000, stock: 3 },
        { id: '256gb', label: '256GB', priceNaira: 450_000, stock: 2, image: UPLOADED },
      ],
    });
    expect(created.form.priceNaira).toBeUndefined();
    expect(await productDbRow(created.id)).toMatchObject({
      price_kobo: 45_000_000,
      stock: 5,
      variant_label: 'Storage',
      featured: 0,
    });

    const shop = (await (await shopProduct(created.id)).json()) as Product;
    expect(shop).toMatchObject({ price: 45_000_000, stock: 5, variantLabel: 'Storage' });
    expect(shop.variants.map((v) => [v.id, v.price, v.stock, v.image])).toEqual([
      ['128gb', 50_000_000, 3, null],
      ['256gb', 45_000_000, 2, UPLOADED],
    ]);
    const priced = await quote(created.id, '128gb', 50_000_000);
    expect(priced.ok).toBe(true);
    expect(priced.lines[0]?.unitPrice).toBe(50_000_000);
    expect(priced.lines[0]?.problem).toBeUndefined();
  });

  it('the same name twice gets a suffixed id; an explicit id already used is 409 naming id and stores nothing', async () => {
    const body = simpleProduct();
    const first = await create(body);
    const second = await create(body);
    expect(second.id).toBe(`${first.id}-2`);

    const mine = await create(simpleProduct({ id: `explicit-${uniqueWord()}` }));
    const before = await snapshot();
    const again = await admin.browser.post('/admin/products', simpleProduct({ id: mine.id, name: 'Another name' }));
    expect(again.status).toBe(409);
    const error = ((await again.json()) as ErrorJson).error;
    expect(error.code).toBe('product_exists');
    expect(error.issues?.map((i) => i.field)).toEqual(['id']);
    expect(await snapshot()).toBe(before);
    expect((await detail(mine.id)).form.name).toBe(mine.form.name);
  });

  it('a long name makes an id too: two products named alike past 50 bytes get the id and the id with -2', async () => {
    // D1 refuses a LIKE pattern over 50 bytes; the free id is looked up by a key range instead.
    const name = `Samsung Galaxy S24 Ultra 5G 512GB Titanium Black Dual SIM ${uniqueWord()}`;
    const first = await create(simpleProduct({ name }));
    expect(first.id).toMatch(/^samsung-galaxy-s24-ultra-5g-512gb-titanium-black-dual-sim-zq/);
    expect(first.id.length).toBeGreaterThan(50);
    const second = await create(simpleProduct({ name }));
    expect(second.id).toBe(`${first.id}-2`);
  });
});

describe('admin products: read', () => {
  it('404 JSON for an unknown id, 400 naming id for a malformed one', async () => {
    const unknown = await admin.browser.get('/admin/products/no-such-product');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorJson).error.code).toBe('product_not_found');
    const malformed = await admin.browser.get('/admin/products/Not_An_Id');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorJson).error.issues?.map((i) => i.field)).toEqual(['id']);
  });

  it('a seeded product reads back in the form shape (naira) with its variants', async () => {
    const ps5 = await detail('sony-playstation-5-slim');
    expect(ps5.form.variants.map((v) => [v.id, v.priceNaira])).toEqual([
      ['disc-edition', 849_000],
      ['digital-edition', 749_000],
    ]);
    expect(ps5).toMatchObject({ active: true, ordered: false });
  });

  it('the list: pages of 20 by name with the total, by category, archived ones apart; a bad filter is 400 naming it', async () => {
    const all = await admin.browser.get('/admin/products');
    const first = (await all.json()) as { products: { name: string }[]; total: number; pageSize: number };
    expect(first.pageSize).toBe(20);
    const { n } = (await env.DB.prepare('select count(*) as n from products where active = 1').first<{ n: number }>())!;
    expect(first.total).toBe(n);
    expect(first.products).toHaveLength(Math.min(20, n));
    const names = first.products.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const consoles = (await (await admin.browser.get('/admin/products?category=consoles')).json()) as {
      products: { category: string }[];
    };
    expect(consoles.products.length).toBeGreaterThan(0);
    expect(consoles.products.every((p) => p.category === 'consoles')).toBe(true);

    const bad = await admin.browser.get('/admin/products?category=fridges&page=0');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorJson).error.issues?.map((i) => i.field).sort()).toEqual(['category', 'page']);
  });

  it('guests get 401 and customers 403', async () => {
    const guest = await api('/admin/products');
    expect(guest.status).toBe(401);
    const { browser } = await signedInCustomer();
    expect((await browser.get('/admin/products')).status).toBe(403);
    const before = await snapshot();
    expect((await browser.post('/admin/products', simpleProduct())).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});

describe('admin products: edit', () => {
  it('a new price is what the shop shows and the quote charges at once; the version moves; the audit row names the change', async () => {
    const created = await create(simpleProduct());
    const response = await update(created.id, edited(created, { priceNaira: 19_999 }));
    expect(response.status, await response.clone().text()).toBe(200);
    const saved = (await response.json()) as AdminProductDetail;
    expectFitsContract(adminApi.updateProduct, saved);
    expect(saved.form.priceNaira).toBe(19_999);
    expect(saved.version).not.toBe(created.version);

    expect(((await (await shopProduct(created.id)).json()) as Product).price).toBe(1_999_900);
    const stale = await quote(created.id, '', 2_500_050);
    expect(stale.lines[0]?.problem).toMatchObject({ kind: 'price_changed', price: 1_999_900 });
    expect((await quote(created.id, '', 1_999_900)).ok).toBe(true);

    const audit = await auditRows(created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(audit[1]!.changes).toEqual({ priceNaira: { from: 25_000.5, to: 19_999 } });
    expect(saved.audit[0]).toMatchObject({ action: 'update', by: admin.email });
  });

  it('a stale version is 409 product_changed and changes nothing', async () => {
    const created = await create(simpleProduct());
    const first = await update(created.id, edited(created, { name: 'First admin name' }));
    expect(first.status).toBe(200);
    const before = await snapshot();
    const second = await update(created.id, edited(created, { name: 'Second admin name' }));
    expect(second.status).toBe(409);
    expect(((await second.json()) as ErrorJson).error.code).toBe('product_changed');
    expect(await snapshot()).toBe(before);
    expect((await productDbRow(created.id))?.name).toBe('First admin name');
  });

  it('an order reserving units after the form was loaded makes it stale: the absolute stock does not overwrite the reservation', async () => {
    const created = await create(simpleProduct({ stock: 5 }));
    await placeOrder({ lines: [{ productId: created.id, variant: '', quantity: 2, price: 2_500_050 }] });
    expect((await productDbRow(created.id))?.stock).toBe(3);
    const refused = await update(created.id, edited(created, { stock: 10 }));
    expect(refused.status).toBe(409);
    expect((await productDbRow(created.id))?.stock).toBe(3);

    const reloaded = await detail(created.id);
    expect(reloaded.form.stock).toBe(3);
    expect(reloaded.ordered).toBe(true);
    const saved = await update(created.id, edited(reloaded, { stock: 10 }));
    expect(saved.status).toBe(200);
    expect((await productDbRow(created.id))?.stock).toBe(10);
  });

  it('the form says how many units unpaid orders hold beside the stock it edits, by variant, until those orders end', async () => {
    const created = await create(simpleProduct({ stock: 5 }));
    expect((await detail(created.id)).held).toEqual({});
    const first = await placeOrder({ lines: [{ productId: created.id, variant: '', quantity: 2, price: 2_500_050 }] });
    await placeOrder({ lines: [{ productId: created.id, variant: '', quantity: 1, price: 2_500_050 }] });
    const loaded = await detail(created.id);
    expect(loaded.form.stock).toBe(2);
    expect(loaded.held).toEqual({ '': 3 });
    // Cancelled, its units go back on sale and are held no more.
    const cancel = await postJson(`/orders/${first.order.number}/cancel`, {}, { authorization: `Bearer ${first.accessToken}` });
    expect(cancel.status).toBe(200);
    const after = await detail(created.id);
    expect(after.form.stock).toBe(4);
    expect(after.held).toEqual({ '': 1 });

    const withVariants = await create(variantProduct());
    const [, second] = withVariants.form.variants;
    const variant = second?.id ?? '';
    expect(variant).not.toBe('');
    const price = Math.round(Number(second!.priceNaira) * 100);
    await placeOrder({ lines: [{ productId: withVariants.id, variant, quantity: 1, price }] });
    expect((await detail(withVariants.id)).held).toEqual({ [variant]: 1 });
  });

  it('rating, reviews, archived, active and an id in the body change nothing; the path names the product', async () => {
    const created = await create(simpleProduct());
    // What a catalogue history of 12 reviews at 4.5 shows (the figures a save recomputes from).
    await env.DB.prepare(
      'update products set catalogue_rating = 4.5, catalogue_reviews = 12, rating = 4.5, reviews = 12 where id = ?',
    )
      .bind(created.id)
      .run();
    const loaded = await detail(created.id);
    const otherId = `other-${uniqueWord()}`;
    const response = await update(
      created.id,
      edited(loaded, { name: 'Renamed phone', id: otherId, rating: 1, reviews: 999, active: false, archived: true }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await productDbRow(created.id)).toMatchObject({ name: 'Renamed phone', rating: 4.5, reviews: 12, active: 1 });
    expect(await productDbRow(otherId)).toBeNull();
    expect((await shopProduct(created.id)).status).toBe(200);
    const audit = await auditRows(created.id);
    expect(audit.at(-1)!.changes).toEqual({ name: { from: created.form.name, to: 'Renamed phone' } });
  });

  it('variants as a set: one updated, one added, one removed; an order for the removed one still reads and cancels', async () => {
    const created = await create(variantProduct());
    const placed = await placeOrder({ lines: [{ productId: created.id, variant: '256gb', quantity: 1, price: 45_000_000 }] });
    const loaded = await detail(created.id);
    const response = await update(
      created.id,
      edited(loaded, {
        variants: [
          { id: '128gb', label: '128GB', priceNaira: 480_000, stock: 4 },
          { label: '512GB', priceNaira: 650_000, stock: 1 },
        ],
      }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await variantRows(created.id)).toEqual([
      { id: '128gb', label: '128GB', price: 48_000_000, stock: 4, image: null, position: 0 },
      { id: '512gb', label: '512GB', price: 65_000_000, stock: 1, image: null, position: 1 },
    ]);
    expect(await productDbRow(created.id)).toMatchObject({ price_kobo: 48_000_000, stock: 5 });

    // The order names the removed variant: it still reads, and cancelling it gives nothing to variants that remain.
    const bearer = { authorization: `Bearer ${placed.accessToken}` };
    const read = await api(`/orders/${placed.order.number}`, { headers: bearer });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain('256GB');
    const cancelled = await api(`/orders/${placed.order.number}/cancel`, {
      method: 'POST',
      headers: { ...bearer, origin: 'http://localhost:8787' },
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(await productDbRow(created.id)).toMatchObject({ price_kobo: 48_000_000, stock: 5 });
    expect((await quote(created.id, '256gb', 45_000_000)).lines[0]?.problem?.kind).toBe('unknown_variant');
  });

  it('switching between variants and none keeps the product price and stock in step', async () => {
    const created = await create(variantProduct());
    let loaded = await detail(created.id);
    const { variantLabel: _, variants: __, ...rest } = loaded.form;
    let response = await update(created.id, { ...rest, variants: [], priceNaira: 300_000, stock: 9, version: loaded.version });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await variantRows(created.id)).toEqual([]);
    expect(await productDbRow(created.id)).toMatchObject({ price_kobo: 30_000_000, stock: 9, variant_label: '' });
    expect((await quote(created.id, '', 30_000_000)).ok).toBe(true);

    loaded = await detail(created.id);
    const { priceNaira: ___, stock: ____, ...plain } = loaded.form;
    response = await update(created.id, {
      ...plain,
      variantLabel: 'Colour',
      variants: [
        { label: 'Black', priceNaira: 310_000, stock: 2 },
        { label: 'Blue', priceNaira: 320_000, stock: 6 },
      ],
      version: loaded.version,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await productDbRow(created.id)).toMatchObject({ price_kobo: 31_000_000, stock: 8, variant_label: 'Colour' });
    expect((await quote(created.id, '', 30_000_000)).lines[0]?.problem?.kind).toBe('unknown_variant');
  });

  it('an archived product can be edited and stays archived', async () => {
    const created = await create(simpleProduct({ stock: 3 }));
    await placeOrder({ lines: [{ productId: created.id, variant: '', quantity: 1, price: 2_500_050 }] });
    expect(await (await remove(created.id)).json()).toEqual({ outcome: 'archived' });
    const loaded = await detail(created.id);
    expect(loaded.active).toBe(false);
    const response = await update(
      created.id,
      edited(loaded, { description: 'Kept for the orders that name it, no longer sold.' }),
    );
    expect(response.status).toBe(200);
    expect(await productDbRow(created.id)).toMatchObject({
      active: 0,
      description: 'Kept for the orders that name it, no longer sold.',
    });
    expect((await shopProduct(created.id)).status).toBe(404);
  });
});

describe('admin products: delete', () => {
  it('a product never ordered is erased with its variants: the shop says it is gone', async () => {
    const created = await create(variantProduct());
    const response = await remove(created.id);
    expect(response.status).toBe(200);
    const answer = await response.json();
    expectFitsContract(adminApi.deleteProduct, answer);
    expect(answer).toEqual({ outcome: 'deleted' });
    expect(await productDbRow(created.id)).toBeNull();
    expect(await variantRows(created.id)).toEqual([]);
    expect((await shopProduct(created.id)).status).toBe(404);
    expect((await admin.browser.get(`/admin/products/${created.id}`)).status).toBe(404);
    expect((await quote(created.id, '128gb', 50_000_000)).lines[0]?.problem?.kind).toBe('unavailable');
    const audit = await auditRows(created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'delete']);
    expect(audit[1]!.changes.name).toEqual({ from: created.form.name, to: null });
    expect((await remove(created.id)).status).toBe(404);
  });

  it("/brands follows D1: a brand's first products put it there with their categories; an archive or a delete of its last takes it off", async () => {
    const brand = 'DJI';
    const listed = async () => (await brandsOnSale(env.DB)).find((b) => b.brand === brand);
    expect(await listed(), 'the seeded catalogue should have no DJI product').toBeUndefined();
    const drone = await create(simpleProduct({ brand, category: 'drones', name: `Mini Drone ${uniqueWord()}` }));
    const camera = await create(simpleProduct({ brand, category: 'cameras', name: `Pocket Camera ${uniqueWord()}` }));
    const shown = await listed();
    expect({ ...shown, categories: shown?.categories.toSorted() }).toEqual({
      brand,
      products: 2,
      categories: ['cameras', 'drones'],
    });
    // An order names the camera, so deleting it archives it; the drone is erased.
    await placeOrder({ lines: [{ productId: camera.id, variant: '', quantity: 1, price: 2_500_050 }] });
    expect((await (await remove(camera.id)).json<{ outcome: string }>()).outcome).toBe('archived');
    expect(await listed()).toEqual({ brand, products: 1, categories: ['drones'] });
    expect((await remove(drone.id)).status).toBe(200);
    expect(await listed()).toBeUndefined();
  });

  it('a product a trade-in names for a swap is archived, not erased: its id cannot go to another product the swap would then order', async () => {
    const created = await create(variantProduct());
    const variant = '128gb';
    const tradeIn = await submitted(tradeInFields({ want: { kind: 'swap', productId: created.id, variant } }));
    expect((await detail(created.id)).ordered).toBe(true);

    expect(await (await remove(created.id)).json()).toEqual({ outcome: 'archived' });
    expect(await productDbRow(created.id)).toMatchObject({ active: 0 });
    expect(await variantRows(created.id)).toHaveLength(2);
    const again = await admin.browser.post('/admin/products', {
      ...simpleProduct({ name: 'Totally Different', priceNaira: 3_000_000 }),
      id: created.id,
    });
    expect(again.status).toBe(409);
    expect((await again.json<ErrorJson>()).error).toMatchObject({ code: 'product_exists', issues: [{ field: 'id' }] });
    expect(
      await env.DB.prepare('select swap_product_id as id from trade_ins where reference = ?').bind(tradeIn.reference).first(),
    ).toEqual({
      id: created.id,
    });
  });

  it('a product orders name is archived: gone from the shop, search and checkout, its order still reads', async () => {
    const body = simpleProduct();
    const created = await create(body);
    const word = (body.name as string).split(' ').at(-1)!;
    const placed = await placeOrder({ lines: [{ productId: created.id, variant: '', quantity: 1, price: 2_500_050 }] });

    const response = await remove(created.id);
    expect(await response.json()).toEqual({ outcome: 'archived' });
    expect(await productDbRow(created.id)).toMatchObject({ active: 0 });
    expect((await shopProduct(created.id)).status).toBe(404);
    const search = (await (await api(`/products?q=${word}`)).json()) as { total: number };
    expect(search.total).toBe(0);
    const fts = await env.DB.prepare('select count(*) as n from products_fts where products_fts match ?')
      .bind(word)
      .first<{ n: number }>();
    expect(fts?.n).toBe(0);

    const q = await quote(created.id, '', 2_500_050);
    expect(q.ok).toBe(false);
    expect(q.lines[0]?.problem?.kind).toBe('unavailable');
    const order = await postJson('/orders', {
      idempotencyKey: `key-${crypto.randomUUID()}`,
      customer: {
        name: 'Ada Obi',
        email: 'ada.obi@example.com',
        phone: '0803 123 4567',
        address: '12 Allen Avenue, Ikeja',
        city: 'Ikeja',
        state: 'Lagos',
      },
      lines: [{ productId: created.id, variant: '', quantity: 1, price: 2_500_050 }],
    });
    expect(order.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await order.json())).toContain('no longer sold');

    const read = await api(`/orders/${placed.order.number}`, { headers: { authorization: `Bearer ${placed.accessToken}` } });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain(created.form.name);

    const archived = (await (await admin.browser.get(`/admin/products?archived=true&q=${word}`)).json()) as {
      products: { id: string; active: boolean }[];
    };
    expect(archived.products).toEqual([expect.objectContaining({ id: created.id, active: false })]);
    const onSale = (await (await admin.browser.get(`/admin/products?q=${word}`)).json()) as { total: number };
    expect(onSale.total).toBe(0);
    expect((await detail(created.id)).ordered).toBe(true);

    const audit = await auditRows(created.id);
    expect(audit.map((a) => [a.action, a.changes])).toEqual([
      ['create', expect.anything()],
      ['archive', { active: { from: true, to: false } }],
    ]);
  });
});

describe('admin products: bad input is 400 naming the field, and nothing is stored', () => {
  const cases: [string, Record<string, unknown>, string[], () => ProductInputDraft][] = [
    ['a price that is not a number', { priceNaira: 'abc' }, ['priceNaira'], simpleProduct],
    ["the spec's price range", { priceNaira: '₦1,250,000 - ₦1,300,000' }, ['priceNaira'], simpleProduct],
    ['a dash for a price', { priceNaira: '-' }, ['priceNaira'], simpleProduct],
    ['a negative price', { priceNaira: -5 }, ['priceNaira'], simpleProduct],
    ['an image that is not a URL', { image: 'not a url' }, ['image'], simpleProduct],
    ['an external image URL', { image: 'https://evil.example.com/phone.png' }, ['image'], simpleProduct],
    ['an unknown category', { category: 'fridges' }, ['category'], simpleProduct],
    ['an unknown brand', { brand: 'Acme' }, ['brand'], simpleProduct],
    ['a name over two lines', { name: 'Galaxy S25\nBuy now' }, ['name'], simpleProduct],
    ['a tab in the name', { name: 'Galaxy\tS25' }, ['name'], simpleProduct],
    [
      'a variant label over two lines',
      { variants: [{ label: '128GB\r\nFree gift', priceNaira: 500_000, stock: 3 }] },
      ['variants.0.label'],
      variantProduct,
    ],
    [
      'variants without price or stock',
      { variants: [{ label: '128GB' }] },
      ['variants.0.priceNaira', 'variants.0.stock'],
      variantProduct,
    ],
    [
      'a variant id twice',
      {
        variants: [
          { label: '128GB', priceNaira: 500_000, stock: 3 },
          { label: '128gb', priceNaira: 510_000, stock: 1 },
        ],
      },
      ['variants.1.label'],
      variantProduct,
    ],
  ];

  it.each(cases)('on create: %s', async (_name, change, fields, base) => {
    const before = await tableCounts();
    const all = await snapshot();
    const response = await admin.browser.post('/admin/products', { ...base(), ...change });
    expect(response.status).toBe(400);
    const error = ((await response.json()) as ErrorJson).error;
    expect(error.code).toBe('invalid_request');
    expect(error.issues?.map((i) => i.field).sort()).toEqual(fields);
    expect(await tableCounts()).toEqual(before);
    expect(await snapshot()).toBe(all);
  });

  it.each(cases)('on edit: %s', async (_name, change, fields, base) => {
    const created = await create(base());
    const before = await snapshot();
    const response = await update(created.id, { ...edited(created), ...change });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).error.issues?.map((i) => i.field).sort()).toEqual(fields);
    expect(await snapshot()).toBe(before);
    expect((await detail(created.id)).form).toEqual(created.form);
  });

  it('an edit without its version is 400 naming version', async () => {
    const created = await create(simpleProduct());
    const { version: _, ...noVersion } = edited(created, { name: 'No version' });
    const response = await update(created.id, noVersion);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).error.issues?.map((i) => i.field)).toEqual(['version']);
    expect((await productDbRow(created.id))?.name).toBe(created.form.name);
  });
});
