import { describe, expect, it } from 'vitest';
import { placedOrderSchema } from '../../src/features/orders/order-view.ts';
import { api, postJson } from './client.ts';
import { orderRequest } from './orders-helpers.ts';

/**
 * Reads from the nearest replica (decision 024, functions/platform/d1-session.ts): every API
 * answer hands the browser its D1 session's bookmark (a header and a cookie); the next request
 * starts from the newest one it brings, so what a shopper wrote or read is never missing from
 * what they read next. Locally there is one database and no replica: these tests prove the
 * bookmark travels, moves forward and is read back, and that nothing a client sends as one
 * breaks a request.
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

function cookieBookmark(response: Response): string | undefined {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('gts_d1='));
  return cookie?.slice('gts_d1='.length).split(';')[0];
}

describe('the D1 session bookmark', () => {
  it('comes back with a write, as a header and an HttpOnly cookie, and a read with it sees the write', async () => {
    const placed = await postJson('/orders', orderRequest());
    expect(placed.status).toBe(201);
    const bookmark = placed.headers.get('x-d1-bookmark');
    expect(bookmark).toMatch(BOOKMARK);
    expect(cookieBookmark(placed)).toBe(bookmark);
    const cookie = placed.headers.getSetCookie().find((c) => c.startsWith('gts_d1='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=900/);

    // The shopper's next read starts from that bookmark (the cookie, as a browser sends it back).
    const { order, accessToken } = placedOrderSchema.parse(await placed.json());
    const read = await api(`/orders/${order.number}`, {
      headers: { authorization: `Bearer ${accessToken}`, cookie: `gts_d1=${bookmark}` },
    });
    expect(read.status).toBe(200);
    const after = read.headers.get('x-d1-bookmark');
    expect(after).toMatch(BOOKMARK);
    // Bookmarks order oldest to newest: the read's session is at least as new as the write.
    expect(after! >= bookmark!).toBe(true);
  });

  it('starts a session from the newest of the header and the cookie', async () => {
    const first = (await api('/products?q=iph')).headers.get('x-d1-bookmark')!;
    const placed = await postJson('/orders', orderRequest());
    const newer = placed.headers.get('x-d1-bookmark')!;
    expect(newer > first).toBe(true);
    const read = await api('/products?q=iph', { headers: { 'x-d1-bookmark': first, cookie: `gts_d1=${newer}` } });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-d1-bookmark')! >= newer).toBe(true);
  });

  it.each([
    ['garbage', 'not-a-bookmark'],
    ['a constraint name', 'first-primary'],
    ['too long', `00000000-00000001-00000000-${'0'.repeat(33)}`],
    ['script', '<script>alert(1)</script>'],
  ])('ignores a bookmark that is %s: the request is answered, with a good bookmark back', async (_, bad) => {
    const read = await api('/products', { headers: { 'x-d1-bookmark': bad, cookie: `gts_d1=${encodeURIComponent(bad)}` } });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-d1-bookmark')).toMatch(BOOKMARK);
    const write = await postJson('/orders', orderRequest(), { 'x-d1-bookmark': bad });
    expect(write.status).toBe(201);
  });

  it('comes back with an error that read the database, and not with one refused before any query', async () => {
    // Looked up, not found: the session read D1.
    const missing = await postJson('/orders/lookup', { number: 'GTS-AAAAAAAAAA', email: 'nobody@example.com' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-d1-bookmark')).toMatch(BOOKMARK);
    // Refused by the query's schema before any query ran: there is no newer bookmark to hand back.
    const refused = await api('/products?minPrice=lots');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-d1-bookmark')).toBeNull();
  });
});
