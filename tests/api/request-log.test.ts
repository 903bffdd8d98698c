import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import worker from '../../functions/index.ts';
import { finishPageRequest, pageRoute, REQUEST_ID_HEADER } from '../../functions/platform/request-log.ts';
import { adminOrderDetailSchema } from '../../src/features/orders/admin/admin-order-api.ts';
import { placedOrderSchema } from '../../src/features/orders/order-view.ts';
import { signedInAdmin } from './admin-helpers.ts';
import { api, postJson } from './client.ts';
import { line, orderRequest, PS5, setStock } from './orders-helpers.ts';
import { callWith } from './with-env.ts';

/**
 * Logs an operator can use, and that hold nobody's details (functions/platform/request-log.ts):
 * one JSON line per API request and per cron run. A whole checkout (placed, looked up, reported,
 * confirmed and shipped by an admin, its e-mails delivered by the cron) must leave no line with the
 * shopper's name, e-mail, phone or address, nor the order's access token.
 */
const SHOPPER = {
  name: 'Zainab Quokkaface',
  email: 'zainab.quokkaface@example.com',
  phone: '0803 555 0199',
  address: '77 Obscure Crescent, Ikeja',
  city: 'Ikeja',
  state: 'Lagos',
} as const;

let lines: string[] = [];
const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error };

beforeEach(() => {
  lines = [];
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => {
      lines.push(
        args
          .map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.name}: ${a.message}` : JSON.stringify(a)))
          .join(' '),
      );
    };
  }
});
afterEach(() => {
  Object.assign(console, originals);
});

const requestLines = () =>
  lines
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.kind === 'request');

describe('the request log', () => {
  it('writes one JSON line per request: id (also in the answer), method, route pattern, status, time, reference', async () => {
    await setStock(PS5.id, 50, PS5.variant);
    const placed = await postJson('/orders', orderRequest({ customer: { ...SHOPPER } }));
    expect(placed.status).toBe(201);
    const { order } = placedOrderSchema.parse(await placed.json());
    const id = placed.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const [entry] = requestLines().filter((l) => l.id === id);
    expect(entry).toMatchObject({ kind: 'request', method: 'POST', route: '/api/orders', status: 201, reference: order.number });
    expect(typeof entry!.ms).toBe('number');
    expect(Date.parse(entry!.at as string)).not.toBeNaN();

    // A refusal and an unknown route are logged too, by pattern, never by the values in the path or query.
    const refused = await api(`/orders/${order.number}`, {
      headers: { authorization: 'Bearer wrong-token-xxxxxxxxxxxxxxxxxxxx' },
    });
    expect(refused.status).toBe(404);
    const refusedLine = requestLines().find((l) => l.id === refused.headers.get('x-request-id'));
    expect(refusedLine).toMatchObject({ method: 'GET', route: '/api/orders/:number', status: 404, reference: order.number });
    const search = await api('/products?q=zainab.quokkaface%40example.com');
    const searchLine = requestLines().find((l) => l.id === search.headers.get('x-request-id'));
    expect(searchLine).toMatchObject({ route: '/api/products', status: 200 });
    expect(JSON.stringify(searchLine)).not.toContain('quokkaface');
  });

  it('holds no name, e-mail, phone, address or token through a whole checkout, its admin moves and the cron', async () => {
    await setStock(PS5.id, 50, PS5.variant);
    const placed = await postJson(
      '/orders',
      orderRequest({ customer: { ...SHOPPER }, lines: [await line(PS5.id, 1, PS5.variant)] }),
    );
    expect(placed.status).toBe(201);
    const { order, accessToken } = placedOrderSchema.parse(await placed.json());
    expect((await postJson('/orders/lookup', { number: order.number, email: SHOPPER.email })).status).toBe(200);
    expect(
      (await postJson(`/orders/${order.number}/payment-report`, {}, { authorization: `Bearer ${accessToken}` })).status,
    ).toBe(200);

    const { browser: admin } = await signedInAdmin();
    const detail = adminOrderDetailSchema.parse(await (await admin.get(`/admin/orders/${order.number}`)).json());
    const confirmed = await admin.post(`/admin/orders/${order.number}/confirm-payment`, {
      version: detail.version,
      amountReceivedNaira: order.total / 100,
      bankReference: 'NIP-LOG-TEST',
    });
    expect(confirmed.status).toBe(200);
    const { version } = adminOrderDetailSchema.parse(await confirmed.json());
    expect((await admin.post(`/admin/orders/${order.number}/ship`, { version, carrier: 'GIG Logistics' })).status).toBe(200);
    // The cron delivers (here: holds) the e-mails and logs what it did.
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), env);

    expect(requestLines().length).toBeGreaterThanOrEqual(6);
    const job = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.kind === 'scheduled');
    expect(job).toMatchObject({ cron: '*/10 * * * *', ordersExpired: expect.any(Number), emails: expect.any(Object) });

    const secrets = [
      SHOPPER.name,
      'Zainab',
      'Quokkaface',
      SHOPPER.email,
      'quokkaface@',
      '0803 555 0199',
      '08035550199',
      '+2348035550199',
      '8035550199',
      '77 Obscure Crescent',
      'Obscure',
      accessToken,
    ];
    for (const logged of lines) {
      for (const secret of secrets) expect(logged, `a log line holds "${secret}"`).not.toContain(secret);
    }
  });

  it('would see a leak: with EMAIL_LOG_BODIES (local runs only) the whole e-mail is printed, and the capture finds the address', async () => {
    await setStock(PS5.id, 50, PS5.variant);
    const email = 'leak.control@example.com';
    const placed = await callWith({ EMAIL_LOG_BODIES: 'true' }, '/orders', {
      body: orderRequest({ customer: { ...SHOPPER, email } }),
    });
    expect(placed.status).toBe(201);
    expect(lines.some((l) => l.includes(email))).toBe(true);
  });
});

describe('page requests the Worker answers (functions/worker.ts → finishPageRequest)', () => {
  const ERROR_PAGE =
    '<html><body><h1>Something went wrong</h1><p data-request-ref hidden>Tell us this reference: <code data-request-id></code></p></body></html>';
  const html = (status: number, body = ERROR_PAGE) =>
    new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const finish = (path: string, response: Response, id = crypto.randomUUID()) =>
    finishPageRequest(new Request(`http://localhost:8787${path}`), response, { id, started: Date.now() });

  it('an error page shows its request id, the same as its header and its log line', async () => {
    const id = crypto.randomUUID();
    const answered = await finish('/products', html(500), id);
    expect(answered.status).toBe(500);
    expect(answered.headers.get(REQUEST_ID_HEADER)).toBe(id);
    const body = await answered.text();
    expect(body).toContain(`<p data-request-ref>Tell us this reference: <code data-request-id>${id}</code></p>`);
    expect(body).not.toContain('hidden');
    expect(requestLines().find((l) => l.id === id)).toMatchObject({ method: 'GET', route: '/products', status: 500 });
  });

  it('a page that is not an error, or an answer that is not HTML, is passed on unchanged but for the header', async () => {
    const ok = await finish('/products', html(200));
    expect(await ok.text()).toBe(ERROR_PAGE);
    const image = await finish(
      '/images/uploads/x.png',
      new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } }),
    );
    expect(await image.text()).toBe('not found');
    expect(image.headers.get(REQUEST_ID_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a route, never a path that could hold anything: query strings and unknown paths stay out', async () => {
    expect(pageRoute('/products')).toBe('/products');
    expect(pageRoute('/product/apple-iphone-17')).toBe('/product/:id');
    expect(pageRoute('/images/uploads/ab12.png')).toBe('/images/uploads/:file');
    expect(pageRoute('/zainab.quokkaface@example.com')).toBe('(no page)');
    const id = crypto.randomUUID();
    await finish('/newsletter/unsubscribe?email=zainab.quokkaface%40example.com&token=secret-token', html(404), id);
    const logged = lines.find((l) => l.includes(id))!;
    expect(JSON.parse(logged)).toMatchObject({ route: '/newsletter/unsubscribe', status: 404 });
    expect(logged).not.toContain('quokkaface');
    expect(logged).not.toContain('secret-token');
  });
});
