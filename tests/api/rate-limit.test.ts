import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import worker from '../../functions/index.ts';
import { openDb } from '../../functions/platform/db.ts';
import { clientCounters, clientKey, countRequest, countRequests, pruneRateLimits } from '../../functions/platform/rate-limit.ts';
import type { ErrorJson } from './client.ts';
import { orderRequest, orderRow, placeOrder, PS5 } from './orders-helpers.ts';
import { callWith } from './with-env.ts';

const db = openDb(env.DB);

async function rateLimitRows() {
  return (
    await env.DB.prepare('select key, window_start as windowStart, count from rate_limits order by key, window_start').all<{
      key: string;
      windowStart: number;
      count: number;
    }>()
  ).results;
}

describe('rate limits per client', () => {
  it('answers the request over the limit with 429, Retry-After and a readable message, and nothing else is done', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '3/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const ip = '198.51.100.1';
    const lookup = () =>
      callWith(vars, '/orders/lookup', { ip, body: { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' } });
    for (let i = 0; i < 3; i++) expect((await lookup()).status).toBe(404);
    const refused = await lookup();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The rest of this window and part of the next, as the four counted fade (the sliding window).
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(2 * 600);
    const { error } = await refused.json<ErrorJson>();
    expect(error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests\. Please wait .+ and try again\.$/),
    });
    // Another client is not held back by this one.
    expect(
      (
        await callWith(vars, '/orders/lookup', {
          ip: '198.51.100.2',
          body: { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' },
        })
      ).status,
    ).toBe(404);
  });

  it('counts every attempt, also the malformed ones, carries a burst into the next window, and lets the client in again when it has faded', async () => {
    const vars = { RATE_LIMIT_QUOTE: '2/1' };
    const ip = '198.51.100.3';
    const quote = (body: unknown) => callWith(vars, '/orders/quote', { ip, body });
    const line = { productId: PS5.id, variant: PS5.variant, quantity: 1, price: PS5.price };
    // The limiter reads the clock the test sets (Date only: D1 and the Worker's timers keep real time).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // A window of one second: 20 ms into it, so every request lands in it.
      vi.setSystemTime(Date.UTC(2031, 5, 1, 12, 0, 0, 20));
      expect((await quote({ lines: 'nonsense' })).status).toBe(400);
      expect((await quote({ lines: [line] })).status).toBe(200);
      // Still in the same second.
      vi.setSystemTime(Date.UTC(2031, 5, 1, 12, 0, 0, 980));
      const refused = await quote({ lines: [line] });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      // The next second: the three just before it still weigh (a fixed window let them all in again).
      vi.setSystemTime(Date.UTC(2031, 5, 1, 12, 0, 1, 120));
      const carried = await quote({ lines: [line] });
      expect(carried.status).toBe(429);
      expect(carried.headers.get('retry-after')).toBe('1');
      // A second later, as it said, the burst has faded: in again.
      vi.setSystemTime(Date.UTC(2031, 5, 1, 12, 0, 2, 130));
      expect((await quote({ lines: [line] })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits placing orders and payment reports with their own counters', async () => {
    const vars = { RATE_LIMIT_PLACE_ORDER: '2/600', RATE_LIMIT_PAYMENT_REPORT: '1/600' };
    const ip = '198.51.100.4';
    const placed: { order: { number: string }; accessToken: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await callWith(vars, '/orders', { ip, body: orderRequest() });
      expect(response.status).toBe(201);
      placed.push(await response.json<{ order: { number: string }; accessToken: string }>());
    }
    expect((await callWith(vars, '/orders', { ip, body: orderRequest() })).status).toBe(429);
    const report = (p: (typeof placed)[number]) =>
      callWith(vars, `/orders/${p.order.number}/payment-report`, { ip, headers: { authorization: `Bearer ${p.accessToken}` } });
    expect((await report(placed[0]!)).status).toBe(200);
    expect((await report(placed[1]!)).status).toBe(429);
    // Cancelling gives stock back: never limited.
    const cancel = await callWith(vars, `/orders/${placed[1]!.order.number}/cancel`, {
      ip,
      headers: { authorization: `Bearer ${placed[1]!.accessToken}` },
    });
    expect(cancel.status).toBe(200);
  });

  it("never refuses the browser its own order however often it asks (the checkout's payment watch); wrong tokens count as lookups", async () => {
    const vars = { RATE_LIMIT_LOOKUP: '3/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const ip = '198.51.100.9';
    const placed = await placeOrder();
    const ask = (token: string, from = ip) =>
      callWith(vars, `/orders/${placed.order.number}`, {
        ip: from,
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
      });
    // The checkout asks every 4 s while the shopper pays: ten minutes of that is 150 asks.
    for (let i = 0; i < 30; i++) expect((await ask(placed.accessToken)).status).toBe(200);
    expect((await rateLimitRows()).filter((r) => r.key === `orders.lookup:${ip}`)).toEqual([]);
    // A wrong token is a guess: counted with /track's lookups, and refused past the limit.
    const wrong = placed.accessToken.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    for (let i = 0; i < 3; i++) expect((await ask(wrong)).status).toBe(404);
    const refused = await ask(wrong);
    expect(refused.status).toBe(429);
    expect((await refused.json<ErrorJson>()).error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A guessed order number is refused the same way, with the budget /track's lookups share.
    expect(
      (await callWith(vars, '/orders/GTS-ZZZZZZZZZZ', { ip, method: 'GET', headers: { authorization: `Bearer ${wrong}` } }))
        .status,
    ).toBe(429);
    expect(
      (await callWith(vars, '/orders/lookup', { ip, body: { number: placed.order.number, email: 'x@example.com' } })).status,
    ).toBe(429);
    // The owner, from the same address, still sees the order.
    expect((await ask(placed.accessToken)).status).toBe(200);
    // Guesses at once from another address: exactly the limit is answered, the rest refused.
    const statuses = await Promise.all(Array.from({ length: 10 }, () => ask(wrong, '198.51.100.10').then((r) => r.status)));
    expect(statuses.filter((s) => s === 404)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('wrong tokens to cancel or report an order are guesses too: counted with the lookups, refused past the limit', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '3/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' };
    const ip = '198.51.100.19';
    const placed = await placeOrder();
    const wrong = placed.accessToken.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const move = (what: 'cancel' | 'payment-report', token: string) =>
      callWith(vars, `/orders/${placed.order.number}/${what}`, { ip, headers: { authorization: `Bearer ${token}` } });
    expect((await move('cancel', wrong)).status).toBe(404);
    expect((await move('payment-report', wrong)).status).toBe(404);
    expect((await move('cancel', wrong)).status).toBe(404);
    const refused = await move('cancel', wrong);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
    // The owner's own token still cancels.
    expect((await move('cancel', placed.accessToken)).status).toBe(200);
  });

  it('keeps one counter row per client, route and window, which the cron prunes once no window reads it', async () => {
    // A minute-long window that began ten days from now, 30 seconds in.
    const windowStart = Math.floor(Date.now() / 60_000) * 60 + 10 * 86_400;
    const at = (seconds: number) => new Date((windowStart + seconds) * 1000);
    const rule = { limit: 2, windowSeconds: 60 };
    const key = 'test:203.0.113.9';
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await countRequest(db, key, rule, at(30)));
    expect(results.map((r) => [r.allowed, r.count])).toEqual([
      [true, 1],
      [true, 2],
      [false, 3],
    ]);
    const ownRows = async () => (await rateLimitRows()).filter((r) => r.key === key);
    expect(await ownRows()).toEqual([{ key, windowStart, count: 3 }]);
    // The next window starts from zero, and the last one still weighs.
    expect(await countRequest(db, key, rule, at(60))).toMatchObject({ allowed: false, count: 1, previousCount: 3 });

    await pruneRateLimits(db, at(2 * 3600));
    expect(await ownRows()).toHaveLength(2);
    // A window is read until the end of the next one, and windows are at most a day long.
    await pruneRateLimits(db, at(2 * 86_400));
    expect(await ownRows()).toHaveLength(2);
    await worker.scheduled(createScheduledController({ scheduledTime: at(3 * 86_400).getTime(), cron: '*/10 * * * *' }), env);
    expect(await ownRows()).toEqual([]);
  });

  it('judges a sliding window: a burst just before a boundary is still counted after it, and Retry-After is the moment it has faded', async () => {
    const windowStart = Math.floor(Date.now() / 60_000) * 60 + 20 * 86_400;
    const at = (seconds: number) => new Date((windowStart + seconds) * 1000);
    const rule = { limit: 2, windowSeconds: 60 };
    // Two clients with the same history, 30 seconds into a window: the limit, then one refused.
    const history = async (key: string) => {
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await countRequest(db, key, rule, at(30)));
      return results;
    };
    const [, , refused] = await history('test.sliding:a');
    await history('test.sliding:b');
    // It names 70 s: three requests fading over the next window leave room for one more two thirds
    // into it (3 × 1/3 + 1 = 2), at 100 s.
    expect(refused).toMatchObject({ allowed: false, count: 3, retryAfterSeconds: 70 });
    // A millisecond before that moment client a is still refused; client b, asking on time, is let in.
    const early = await countRequest(db, 'test.sliding:a', rule, new Date(at(100).getTime() - 1));
    expect(early).toMatchObject({ allowed: false, count: 1, previousCount: 3 });
    expect(await countRequest(db, 'test.sliding:b', rule, at(100))).toMatchObject({ allowed: true, count: 1, previousCount: 3 });
    // At the boundary itself a fixed window would have let a full limit in again: here none.
    const boundary = async (key: string) => {
      for (let i = 0; i < 2; i++) await countRequest(db, key, rule, at(59));
      return countRequest(db, key, rule, at(60));
    };
    expect(await boundary('test.sliding:d')).toMatchObject({ allowed: false, count: 1, previousCount: 2 });
  });

  it('knows a client by its address, an IPv6 client by its /64 (one subscriber gets a whole /64)', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
    // IPv4-mapped: the IPv4 address, not one /64 shared by every such client.
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client under its /64 at the limit and its /48 at 8 times it, an IPv4 client under its address', () => {
    const rule = { limit: 3, windowSeconds: 600 };
    expect(clientCounters('lookup', '2001:db8:1:2:aaaa::1', rule)).toEqual([
      { key: 'lookup:2001:db8:1:2::/64', rule },
      { key: 'lookup:2001:db8:1::/48', rule: { limit: 24, windowSeconds: 600 } },
    ]);
    expect(clientCounters('lookup', '203.0.113.7', rule)).toEqual([{ key: 'lookup:203.0.113.7', rule }]);
  });

  it('limits one IPv6 /48 across all its /64s (a site rotating through 65,536 of them)', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '2/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const lookup = (ip: string) =>
      callWith(vars, '/orders/lookup', { ip, body: { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' } });
    const statuses: number[] = [];
    // Each request from a fresh /64 of 2001:db8:abc::/48.
    for (let n = 0; n < 18; n++) statuses.push((await lookup(`2001:db8:abc:${n.toString(16)}::1`)).status);
    expect(statuses).toEqual([...Array(16).fill(404), 429, 429]);
    // A neighbouring /48 has its own counters.
    expect((await lookup('2001:db8:abd:1::1')).status).toBe(404);
    // Within one /64, the /64's own limit still holds.
    expect((await lookup('2001:db8:abe:1::1')).status).toBe(404);
    expect((await lookup('2001:db8:abe:1:ffff::2')).status).toBe(404);
    expect((await lookup('2001:db8:abe:1::3')).status).toBe(429);
  });

  it('lets exactly the limit through when requests arrive at once, every key counted in one batch', async () => {
    const vars = { RATE_LIMIT_LOOKUP: '10/600', RATE_LIMIT_LOOKUP_ORDER: '1000/60' }; // the per-order limit apart (below)
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, () =>
          callWith(vars, '/orders/lookup', {
            ip: '2001:db8:bbb:1::1',
            body: { number: 'GTS-ZZZZZZZZZZ', email: 'nobody@example.com' },
          }),
        ),
      )
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // Both counters saw all 30.
    const rows = (await rateLimitRows()).filter((r) => r.key.startsWith('orders.lookup:2001:db8:bbb'));
    expect(rows.map((r) => r.count)).toEqual([30, 30]);
  });

  it('countRequests answers each key its own count and window, on the clock it is given', async () => {
    const at = new Date(Date.UTC(2031, 0, 1, 0, 0, 45));
    const keys = [
      { key: 'test.batch:a', rule: { limit: 1, windowSeconds: 60 } },
      { key: 'test.batch:b', rule: { limit: 5, windowSeconds: 3600 } },
    ];
    await countRequests(db, keys, at);
    const [a, b] = await countRequests(db, keys, at);
    // a: its one request used up; the second, 45 s in, waits out this window and the next (a limit of 1).
    expect(a).toMatchObject({ key: 'test.batch:a', count: 2, allowed: false, retryAfterSeconds: 75 });
    expect(b).toMatchObject({ key: 'test.batch:b', count: 2, allowed: true, retryAfterSeconds: 1 });
  });
});
