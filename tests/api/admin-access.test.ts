import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../functions/index.ts';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { fillPath } from '../../src/lib/api-contract.ts';
import { Browser, newEmail } from './account-helpers.ts';
import { submitted, tradeInFields } from './trade-in-helpers.ts';
import { signedInAdmin, signedInCustomer } from './admin-helpers.ts';
import { PS5, placeOrder } from './orders-helpers.ts';
import { unmatchedPayment } from './payment-helpers.ts';

/**
 * Who may call the admin API, route by route. The routes come from the router itself
 * (`api.routes`), so a route added later is in this matrix without anyone remembering it,
 * and it fails until it has a valid admin request below: a guest gets 401, a signed-in
 * customer 403, an admin a 2xx, for every method and path under /api/admin.
 */

interface Request {
  params?: Record<string, string>;
  body?: unknown;
  /** The raw body and its content type (the image upload takes bytes, not JSON). */
  raw?: { bytes: Uint8Array<ArrayBuffer>; type: string };
}

/** A 1×1 transparent PNG. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

const productForm = () => ({
  name: `Access test ${crypto.randomUUID().slice(0, 6)}`,
  brand: 'Samsung',
  category: 'accessories',
  description: 'A product created by the admin access test, long enough to be valid.',
  priceNaira: 1500,
  stock: 3,
  image: '/images/products/galaxy-buds-3-pro.svg',
  featured: false,
});

async function newProduct(admin: Browser): Promise<{ id: string; version: string }> {
  const response = await admin.post('/admin/products', productForm());
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; version: string };
}

async function orderAt(admin: Browser, moves: ('confirm-payment' | 'ship')[]): Promise<string> {
  const placed = await placeOrder();
  const number = placed.order.number;
  for (const move of moves) {
    const { version } = (await (await admin.get(`/admin/orders/${number}`)).json()) as { version: string };
    const body =
      move === 'confirm-payment'
        ? { version, amountReceivedNaira: placed.order.total / 100, bankReference: 'ACCESS-TEST' }
        : { version };
    const response = await admin.post(`/admin/orders/${number}/${move}`, body);
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return number;
}

async function versionOf(admin: Browser, number: string): Promise<string> {
  return ((await (await admin.get(`/admin/orders/${number}`)).json()) as { version: string }).version;
}

/** For each route (`METHOD /api/admin/...`): how to build a request an admin may make. */
const VALID: Record<string, (admin: Browser) => Promise<Request>> = {
  [key(adminApi.dashboard)]: async () => ({}),
  [key(adminApi.audit)]: async () => ({}),
  [key(adminApi.orders)]: async () => ({}),
  [key(adminApi.order)]: async () => ({ params: { number: (await placeOrder()).order.number } }),
  [key(adminApi.confirmPayment)]: async (admin) => {
    const placed = await placeOrder();
    const number = placed.order.number;
    return {
      params: { number },
      body: { version: await versionOf(admin, number), amountReceivedNaira: placed.order.total / 100, bankReference: 'REF-1' },
    };
  },
  [key(adminApi.ship)]: async (admin) => {
    const number = await orderAt(admin, ['confirm-payment']);
    return { params: { number }, body: { version: await versionOf(admin, number), carrier: 'GIG Logistics' } };
  },
  [key(adminApi.deliver)]: async (admin) => {
    const number = await orderAt(admin, ['confirm-payment', 'ship']);
    return { params: { number }, body: { version: await versionOf(admin, number) } };
  },
  [key(adminApi.cancel)]: async (admin) => {
    const number = (await placeOrder()).order.number;
    return { params: { number }, body: { version: await versionOf(admin, number), reason: 'Customer asked to cancel' } };
  },
  [key(adminApi.products)]: async () => ({}),
  [key(adminApi.product)]: async () => ({ params: { id: PS5.id } }),
  [key(adminApi.createProduct)]: async () => ({ body: productForm() }),
  [key(adminApi.updateProduct)]: async (admin) => {
    const { id, version } = await newProduct(admin);
    return { params: { id }, body: { ...productForm(), version } };
  },
  [key(adminApi.deleteProduct)]: async (admin) => ({ params: { id: (await newProduct(admin)).id } }),
  [key(adminApi.uploadImage)]: async () => ({ raw: { bytes: PNG, type: 'image/png' } }),
  [key(adminApi.tradeIns)]: async () => ({}),
  [key(adminApi.tradeIn)]: async () => ({ params: { reference: (await submitted()).reference } }),
  [key(adminApi.tradeInPhoto)]: async () => ({
    params: { reference: (await submitted(tradeInFields(), [{ bytes: PNG, type: 'image/png' }])).reference, index: '1' },
  }),
  [key(adminApi.moveTradeIn)]: async (admin) => {
    const { reference } = await submitted();
    const { version } = (await (await admin.get(`/admin/trade-ins/${reference}`)).json()) as { version: string };
    return { params: { reference }, body: { version, move: 'contact', note: 'Called' } };
  },
  [key(adminApi.payments)]: async () => ({}),
  [key(adminApi.attachPayment)]: async () => ({
    params: { id: await unmatchedPayment() },
    body: { orderNumber: (await placeOrder()).order.number, note: 'Paid into the wrong account' },
  }),
  [key(adminApi.resolvePayment)]: async () => ({
    params: { id: await unmatchedPayment() },
    body: { note: 'Refunded by transfer, reference RF-1' },
  }),
  [key(adminApi.subscribers)]: async () => ({}),
  [key(adminApi.exportSubscribers)]: async () => ({}),
  [key(adminApi.removeSubscriber)]: async () => {
    const email = newEmail('subscriber');
    const row = await env.DB.prepare('insert into newsletter_subscribers (email) values (?) returning id')
      .bind(email)
      .first<{ id: number }>();
    return { params: { id: String(row!.id) } };
  },
};

function key(endpoint: { method: string; path: string }) {
  return `${endpoint.method} ${endpoint.path}`;
}

/** Every method and path the Worker serves under /api/admin (a route with a validator is listed twice; middleware is 'ALL'). */
const ROUTES = [...new Set(api.routes.filter((r) => r.path.startsWith('/api/admin/') && r.method !== 'ALL').map(key))].sort();

/** Stand-in values for a guest's or customer's request: they must be refused before any of it is read. */
const PLACEHOLDER: Record<string, string> = {
  number: 'GTS-AAAA-AAAA',
  id: 'placeholder',
  reference: 'TRD-AAAAAAAAAA',
  index: '1',
};

function send(browser: Browser, route: string, request: Request = {}) {
  const [method, path] = route.split(' ') as [string, string];
  const params = Object.fromEntries([...path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => [name!, PLACEHOLDER[name!]!]));
  const url = fillPath(path, { ...params, ...request.params });
  const headers: Record<string, string> = { origin: browser.origin };
  let body: BodyInit | undefined;
  if (request.raw) {
    headers['content-type'] = request.raw.type;
    body = request.raw.bytes;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  return browser.request(url, { method, headers, body });
}

describe('the admin API refuses everyone but admins, on every route', () => {
  it('the router serves the admin routes the contract declares', () => {
    expect(ROUTES.length).toBeGreaterThan(10);
    expect(ROUTES).toEqual(Object.values(adminApi).map(key).sort());
  });

  it.each(ROUTES)('%s: a guest gets 401, a customer 403, an admin 2xx', async (route) => {
    const build = VALID[route];
    expect(build, `tests/api/admin-access.test.ts has no valid admin request for ${route}: add one to VALID`).toBeDefined();
    const { browser: admin } = await signedInAdmin();
    const { browser: customer } = await signedInCustomer();
    const request = await build!(admin);

    const guest = await send(new Browser(), route, request);
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

    const denied = await send(customer, route, request);
    expect(denied.status).toBe(403);
    const refusal = (await denied.json()) as { error: { code: string; message: string } };
    expect(refusal.error.message).toBe('Access Denied - You need admin privileges to access this page.');

    const allowed = await send(admin, route, request);
    expect(allowed.status, await allowed.clone().text()).toBeGreaterThanOrEqual(200);
    expect(allowed.status).toBeLessThan(300);
    expect(allowed.headers.get('cache-control')).toBe('no-store');
  });

  it('a guest or customer is refused on a path under /api/admin that does not exist, before it is looked up', async () => {
    expect((await new Browser().get('/admin/not-a-route')).status).toBe(401);
    const { browser: customer } = await signedInCustomer();
    expect((await customer.get('/admin/not-a-route')).status).toBe(403);
  });

  it('an admin write from another site is refused', async () => {
    const { browser: admin } = await signedInAdmin();
    const response = await admin.request('/api/admin/products', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify(productForm()),
    });
    expect(response.status).toBe(403);
  });

  it('an admin demoted in D1 loses access at once', async () => {
    const { browser, id } = await signedInAdmin();
    expect((await browser.get('/admin/dashboard')).status).toBe(200);
    await env.DB.prepare("update users set role = 'customer' where id = ?").bind(id).run();
    expect((await browser.get('/admin/dashboard')).status).toBe(403);
  });
});
