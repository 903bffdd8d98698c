import { describe, expect, it } from 'vitest';
import { type TrackOutcome, trackOrder } from '../../src/features/orders/track.server.ts';
import { type ErrorJson, pageFormPost, postJson } from './client.ts';
import { customer, placeOrder } from './orders-helpers.ts';
import { callWith, envWith } from './with-env.ts';

/**
 * POST /track/order as the Worker answers it (src/features/orders/track.server.ts, which the page
 * src/pages/track/order.astro renders), on this file's migrated, seeded D1: the same order, the
 * same refusals and the same per-client budget as the API's lookup (POST /api/orders/lookup).
 */

const SITE = 'http://localhost:8787';

/** A post of the page's form from client address `ip` (by default this file's own). */
const trackRequest = (
  fields: Record<string, string>,
  { ip = '192.0.2.10', headers = {} }: { ip?: string; headers?: Record<string, string> } = {},
) => pageFormPost('/track/order', fields, { ip, headers });

const refused = (outcome: TrackOutcome) => {
  if (outcome.found) throw new Error(`expected a refusal, found ${outcome.order.number}`);
  return outcome;
};

describe('/track as the Worker renders it', () => {
  it('finds a guest’s order by number and checkout e-mail, the same view the API gives', async () => {
    const placed = await placeOrder();
    // Typed loosely, as a shopper might: lower case, spaces, a capitalised e-mail.
    const outcome = await trackOrder(
      trackRequest({ number: ` ${placed.order.number.toLowerCase()} `, email: customer.email.toUpperCase() }),
    );
    expect(outcome.found).toBe(true);
    if (!outcome.found) return;
    const viaApi = await postJson('/orders/lookup', { number: placed.order.number, email: customer.email });
    expect(viaApi.status).toBe(200);
    const { order } = await viaApi.json<{ order: unknown }>();
    expect(JSON.parse(JSON.stringify(outcome.order))).toEqual(order);
    expect(outcome.order.number).toBe(placed.order.number);
    expect(outcome.order.total).toBe(placed.order.total);
  });

  it('names each field to correct, with the API’s messages, and keeps what was typed', async () => {
    const outcome = refused(await trackOrder(trackRequest({ number: 'order 12', email: 'ada@' })));
    expect(outcome.status).toBe(400);
    expect(outcome.lookup).toEqual({ number: 'order 12', email: 'ada@' });
    const viaApi = await postJson('/orders/lookup', { number: 'order 12', email: 'ada@' });
    const { error } = await viaApi.json<ErrorJson>();
    expect(outcome.fields).toEqual({
      number: error.issues?.find((i) => i.field === 'number')?.message,
      email: error.issues?.find((i) => i.field === 'email')?.message,
    });
    expect(outcome.fields.number).toBe('Order numbers look like GTS-7K3M9Q2XWD');

    const empty = refused(await trackOrder(trackRequest({})));
    expect(empty.status).toBe(400);
    expect(empty.fields.number).toBe('Please enter your order number');
    expect(empty.fields.email).toMatch(/e-?mail/i);
  });

  it('says the same for a wrong e-mail as for a number that does not exist', async () => {
    const placed = await placeOrder();
    const wrongEmail = refused(await trackOrder(trackRequest({ number: placed.order.number, email: 'eve@example.com' })));
    const noSuchOrder = refused(await trackOrder(trackRequest({ number: 'GTS-ZZZZZZZZZZ', email: customer.email })));
    expect(wrongEmail.status).toBe(404);
    expect(noSuchOrder.status).toBe(404);
    expect(wrongEmail.message).toBe('We could not find an order with that order number and e-mail address.');
    expect(noSuchOrder.message).toBe(wrongEmail.message);
    expect(wrongEmail.fields).toEqual({});
  });

  it('refuses a form sent from another site, and shows it no order', async () => {
    const placed = await placeOrder();
    const fields = { number: placed.order.number, email: customer.email };
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }];
    for (const headers of crossSite) {
      const outcome = refused(await trackOrder(trackRequest(fields, { headers })));
      expect(outcome.status).toBe(403);
      expect(outcome.lookup).toEqual({ number: '', email: '' });
    }
  });

  it('refuses a body that is not a small form, unread past its limit', async () => {
    const json = new Request(`${SITE}/track/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: JSON.stringify({ number: 'GTS-ZZZZZZZZZZ', email: customer.email }),
    });
    expect(refused(await trackOrder(json)).status).toBe(400);

    const oversized = trackRequest({ number: 'GTS-ZZZZZZZZZZ', email: customer.email, padding: 'x'.repeat(5_000) });
    expect(refused(await trackOrder(oversized)).status).toBe(400);

    // The same oversized form streamed without a Content-Length: found out while reading.
    const bytes = new TextEncoder().encode(`number=GTS-ZZZZZZZZZZ&email=a%40b.co&padding=${'x'.repeat(50_000)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1_000) controller.enqueue(bytes.slice(at, at + 1_000));
        controller.close();
      },
    });
    const streamed = new Request(`${SITE}/track/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE },
      body: stream,
    });
    expect(streamed.headers.get('content-length')).toBeNull();
    const outcome = refused(await trackOrder(streamed));
    expect(outcome.status).toBe(400);
    expect(outcome.message).toMatch(/could not read the form/);
  });

  it('shares one lookup budget with the API: a client over it is refused both ways', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '3/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const bindings = envWith(vars);
    const guess = { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' };
    const viaPage = (ip: string) => trackOrder(trackRequest(guess, { ip }), bindings);
    const viaApi = (ip: string) => callWith(vars, '/orders/lookup', { ip, body: guess });

    // Page first, then the API.
    const first = '198.51.100.71';
    for (let i = 0; i < 2; i++) expect(refused(await viaPage(first)).status).toBe(404);
    expect((await viaApi(first)).status).toBe(404);
    expect((await viaApi(first)).status).toBe(429);
    const limited = refused(await viaPage(first));
    expect(limited.status).toBe(429);
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    // The rest of this window and part of the next (a sliding window: decision 010).
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(2 * 600);
    expect(limited.message).toMatch(/^Too many requests\. Please wait .+ and try again\.$/);
    // A malformed guess over the budget is refused too: nothing is checked before the limit.
    expect(refused(await trackOrder(trackRequest({ number: 'x' }, { ip: first }), bindings)).status).toBe(429);

    // The API first, then the page.
    const second = '198.51.100.72';
    for (let i = 0; i < 3; i++) expect((await viaApi(second)).status).toBe(404);
    expect(refused(await viaPage(second)).status).toBe(429);

    // Another client is not held back.
    expect(refused(await viaPage('198.51.100.73')).status).toBe(404);
  });

  it('an order number tried with wrong e-mails from many client addresses: past RATE_LIMIT_LOOKUP_ORDER its lookups wait, both ways', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '1000/60', RATE_LIMIT_LOOKUP_ORDER: '3/3600' };
    const bindings = envWith(vars);
    const [target, other] = [await placeOrder(), await placeOrder()];
    const right = { number: target.order.number, email: customer.email };
    const viaApi = (body: Record<string, string>, ip: string) => callWith(vars, '/orders/lookup', { ip, body });
    // The owner's own lookups are not counted, however many.
    for (let i = 0; i < 5; i++) expect((await viaApi(right, `198.51.100.${110 + i}`)).status).toBe(200);
    // Three wrong addresses from three clients, then a fourth from a fourth client: refused.
    for (let i = 0; i < 3; i++)
      expect((await viaApi({ ...right, email: `guess${i}@example.com` }, `203.0.113.${120 + i}`)).status).toBe(404);
    const refusedGuess = await viaApi({ ...right, email: 'guess3@example.com' }, '203.0.113.123');
    expect(refusedGuess.status).toBe(429);
    expect(Number(refusedGuess.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refusedGuess.json<ErrorJson>()).error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^This order number was tried with a wrong e-mail address too many times\./),
    });
    // Tries while it waits are not counted: the wait told stays true, it does not grow.
    const firstWait = Number(refusedGuess.headers.get('retry-after'));
    for (let i = 0; i < 8; i++) {
      const again = await viaApi({ ...right, email: `more${i}@example.com` }, `203.0.113.${140 + i}`);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(firstWait);
    }
    // The right address waits too, on the page as on the API; another order does not.
    expect((await viaApi(right, '198.51.100.130')).status).toBe(429);
    const page = refused(await trackOrder(trackRequest(right, { ip: '198.51.100.131' }), bindings));
    expect(page.status).toBe(429);
    expect(page.retryAfterSeconds).toBeGreaterThan(0);
    expect((await viaApi({ number: other.order.number, email: customer.email }, '198.51.100.132')).status).toBe(200);
  });

  it('holds the budget against parallel guesses through both doors', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '4/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const bindings = envWith(vars);
    const guess = { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' };
    const ip = '198.51.100.74';
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? trackOrder(trackRequest(guess, { ip }), bindings).then((o) => refused(o).status)
          : callWith(vars, '/orders/lookup', { ip, body: guess }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 404)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
  });
});
