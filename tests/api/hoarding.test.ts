import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../functions/platform/db.ts';
import { readConfig } from '../../functions/env.ts';
import { expireIfOverdue, expireOverdueOrders } from '../../functions/orders/expire.ts';
import { changeOrderStatus, reloadOrder } from '../../functions/orders/move.ts';
import { placeOrder as placeOrderInD1 } from '../../functions/orders/place.ts';
import { MAX_LINE_QUANTITY, mostPerOrder, UNPAID_SHARE_PER_PRODUCT } from '../../src/features/cart/cart.ts';
import { placeOrderSchema } from '../../src/features/orders/checkout.ts';
import type { OrderView, PlacedOrder } from '../../src/features/orders/order-view.ts';
import type { Quote } from '../../src/features/orders/pricing.ts';
import { Browser, linkToken, ORIGIN, signedInUser } from './account-helpers.ts';
import type { ErrorJson } from './client.ts';
import { emailsOf, line, newKey, orderRow, rowCounts, setStock, stockOf } from './orders-helpers.ts';
import { callWith, envWith } from './with-env.ts';

/**
 * Issue 20, finding 4: a few shoppers' worth of contacts and client addresses took every unit
 * of the catalogue off sale for days. Unpaid orders now hold at most MAX_UNPAID_UNITS_PER_CONTACT
 * units per e-mail address, phone number and delivery address, and all unpaid orders together at
 * most MAX_UNPAID_SHARE_PER_PRODUCT of a product's (or variant's) units; an unpaid hold lasts
 * ORDER_HOLD_HOURS (12) and a payment report extends it once, to PAYMENT_REPORT_HOLD_HOURS (24)
 * after the report at most. The test config lifts both limits; these tests set their own.
 */
const db = openDb(env.DB);
const HOUR = 3_600_000;
const LIMITS = { MAX_UNPAID_UNITS_PER_CONTACT: '10', MAX_UNPAID_SHARE_PER_PRODUCT: '0.5' };
/** Only the per-contact limits, so a test of one contact is not stopped at a product's share first. */
const CONTACT_ONLY = { MAX_UNPAID_UNITS_PER_CONTACT: '10', MAX_UNPAID_SHARE_PER_PRODUCT: '1' };

let serial = 0;
/** A stranger with an e-mail address, phone number and delivery address nobody else in this file uses. */
function stranger(overrides: Record<string, string> = {}) {
  const n = ++serial;
  return {
    delivery: 'delivery',
    name: `Stranger ${n}`,
    email: `stranger${n}@example.com`,
    phone: `0803${String(1_000_000 + n * 7919).slice(-7)}`,
    address: `${n} Herbert Macaulay Way, Yaba`,
    city: 'Yaba',
    state: 'Lagos',
    ...overrides,
  };
}

type Line = Awaited<ReturnType<typeof line>>;

/** POST /api/orders with `vars` set, from client address `ip`. */
function order(vars: Record<string, string>, customer: Record<string, string>, lines: Line[], ip = '203.0.113.10') {
  return callWith(vars, '/orders', { body: { idempotencyKey: newKey(), customer, lines }, ip });
}

async function placed(response: Response): Promise<PlacedOrder> {
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

async function refused(response: Response, code: string) {
  expect(response.status, await response.clone().text()).toBe(409);
  const body = await response.json<ErrorJson>();
  expect(body.error.code).toBe(code);
  return body.error;
}

/** Units held by unpaid orders of one product (or variant), as D1 holds them. */
async function heldUnpaid(productId: string, variant = '') {
  const row = await env.DB.prepare(
    `select coalesce(sum(l.quantity), 0) as n from order_lines l join orders o on o.id = l.order_id
      where l.product_id = ? and l.variant_id = ? and o.status in ('awaiting_payment', 'payment_reported')`,
  )
    .bind(productId, variant)
    .first<{ n: number }>();
  return row!.n;
}

const cancel = (vars: Record<string, string>, o: PlacedOrder) =>
  callWith(vars, `/orders/${o.order.number}/cancel`, { headers: { authorization: `Bearer ${o.accessToken}` } });
const reportPayment = (vars: Record<string, string>, o: PlacedOrder) =>
  callWith(vars, `/orders/${o.order.number}/payment-report`, { headers: { authorization: `Bearer ${o.accessToken}` } });

describe('the finding, scaled down: strangers cannot hold more than half of a product unpaid', () => {
  it('stops four strangers, each with their own contacts and client address, at half the units; refusals write nothing', async () => {
    const id = 'mario-kart-world';
    await setStock(id, 20);
    const strangers = [1, 2, 3, 4].map(() => stranger());
    const answers: Response[] = [];
    // Each stranger stays under every per-client and per-contact limit: two orders of 5.
    for (const round of [0, 1]) {
      for (const [i, who] of strangers.entries()) {
        const before = await rowCounts();
        const response = await order(LIMITS, who, [await line(id, 5)], `198.51.100.${i + 1}`);
        answers.push(response);
        if (response.status !== 201) expect(await rowCounts(), `round ${round}, stranger ${i}`).toEqual(before);
      }
    }
    expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
    expect(await heldUnpaid(id)).toBe(10);
    expect(await stockOf(id)).toBe(10);
    const error = await refused(answers.at(-1)!, 'product_hold_limit');
    expect(error.issues).toEqual([{ field: 'lines.0.quantity', message: expect.stringContaining('Mario Kart World') }]);
    expect(error.message).toMatch(/contact us/i);
  });

  it('lets the same strangers hold half of each variant of a product, no more', async () => {
    const id = 'itel-a90';
    const one = await line(id, 1);
    const { variant } = one;
    await setStock(id, 8, variant);
    const responses = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => order(LIMITS, stranger(), [one], `198.51.100.${20 + i}`)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(4);
    expect(await heldUnpaid(id, variant)).toBe(4);
    expect(await stockOf(id, variant)).toBe(4);
  });

  it('sends 20 strangers at once at a product of 20 units: exactly 10 hold one each', async () => {
    const id = 'ghost-of-yotei';
    await setStock(id, 20);
    const one = await line(id, 1);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => order(LIMITS, stranger(), [one], `192.0.2.${i + 1}`)),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of responses.filter((r) => r.status !== 201)) await refused(r, 'product_hold_limit');
    expect(await heldUnpaid(id)).toBe(10);
    expect(await stockOf(id)).toBe(10);
  });

  it('at low stock, one unit can always be held when nobody holds any, and no more than half past that', async () => {
    // One unit: the first shopper may hold it (half of 1 rounds to none, but one can always be held).
    await setStock('sony-playstation-5-pro', 1);
    await placed(await order(LIMITS, stranger(), [await line('sony-playstation-5-pro', 1)]));
    expect(await stockOf('sony-playstation-5-pro')).toBe(0);

    // Two units: one may be held; the other stays on the shelf until that one is paid, cancelled or expired.
    const id = 'sony-55-bravia-7-mini-led';
    await setStock(id, 2);
    // Nobody else holds any: the refusal says what the limit is, not that other shoppers hold them.
    const alone = await refused(await order(LIMITS, stranger(), [await line(id, 2)]), 'product_hold_limit');
    expect(alone.issues).toEqual([{ field: 'lines.0.quantity', message: expect.stringMatching(/^At most 1 of .+ at a time$/) }]);
    expect(alone.message).not.toMatch(/other shoppers/);
    expect(alone.message).toMatch(/once this order is paid/);
    const first = await placed(await order(LIMITS, stranger(), [await line(id, 1)]));
    const taken = await refused(await order(LIMITS, stranger(), [await line(id, 1)]), 'product_hold_limit');
    expect(taken.message).toMatch(/other shoppers' unpaid orders: .+ is held by other unpaid orders right now/);
    expect(await stockOf(id)).toBe(1);
    expect((await cancel(LIMITS, first)).status).toBe(200);
    await placed(await order(LIMITS, stranger(), [await line(id, 1)]));

    // Three units: half rounds down, so still one.
    await setStock('lg-65-oled-evo-c5', 3);
    await placed(await order(LIMITS, stranger(), [await line('lg-65-oled-evo-c5', 1)]));
    await refused(await order(LIMITS, stranger(), [await line('lg-65-oled-evo-c5', 1)]), 'product_hold_limit');
  });
});

describe("the cart's quote says the hold limit before checkout", () => {
  /** POST /api/orders/quote for `quantity` of `id`, with `vars`. */
  async function quote(vars: Record<string, string>, id: string, quantity: number): Promise<Quote> {
    const response = await callWith(vars, '/orders/quote', { body: { lines: [await line(id, quantity)] } });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  }

  it('at 2 units, a quote for both says 1 can wait unpaid; once another order holds one, none more; as Place Order does', async () => {
    const id = 'samsung-75-crystal-uhd-du8000';
    await setStock(id, 2);
    const both = await quote(LIMITS, id, 2);
    expect(both.ok).toBe(false);
    expect(both.lines[0]!.problem).toEqual({
      kind: 'hold_limit',
      available: 1,
      message: expect.stringMatching(/^At most 1 of .+ can wait in unpaid orders at a time$/),
    });
    expect(both.lines[0]!.available).toBe(1);
    // Place Order refuses the same quantity, with the same words.
    const refusal = await refused(await order(LIMITS, stranger(), [await line(id, 2)]), 'product_hold_limit');
    expect(refusal.issues?.[0]?.message).toBe(both.lines[0]!.problem?.message);
    expect((await quote(LIMITS, id, 1)).ok).toBe(true);

    await placed(await order(LIMITS, stranger(), [await line(id, 1)]));
    const held = await quote(LIMITS, id, 1);
    expect(held.ok).toBe(false);
    expect(held.lines[0]!.problem).toEqual({
      kind: 'hold_limit',
      available: 0,
      message: expect.stringMatching(/is held by other unpaid orders right now$/),
    });
    await refused(await order(LIMITS, stranger(), [await line(id, 1)]), 'product_hold_limit');
    // Without the share limit (a store that sets it to 1), the same cart is only short of stock.
    expect((await quote(CONTACT_ONLY, id, 1)).ok).toBe(true);
  });

  it("takes exactly what the product page offers one order while nobody holds any (mostPerOrder, the page's rule), and refuses one more", async () => {
    // The product page says "Up to N per order" from its stock with the default share, which LIMITS sets.
    expect(Number(LIMITS.MAX_UNPAID_SHARE_PER_PRODUCT)).toBe(UNPAID_SHARE_PER_PRODUCT);
    const id = 'steelseries-apex-pro-tkl-keyboard';
    for (const stock of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
      await setStock(id, stock);
      const offered = mostPerOrder(stock);
      const within = await quote(LIMITS, id, offered);
      expect(within.ok, `${offered} of ${stock}`).toBe(true);
      // Within it, `available` is that same number: the cart's '+' stops where the page's does.
      expect(within.lines[0]!.available, `available at ${stock}`).toBe(offered);
      expect((await quote(LIMITS, id, 1)).lines[0]!.available, `available for 1 of ${stock}`).toBe(offered);
      if (offered < MAX_LINE_QUANTITY)
        expect((await quote(LIMITS, id, offered + 1)).ok, `${offered + 1} of ${stock}`).toBe(false);
    }
  });

  it('answers each line of a longer cart for its own product, in its place (all lines read in one query)', async () => {
    const [tight, roomy, held] = ['acer-nitro-v-15', 'jbl-flip-7', 'asus-tuf-gaming-a15'];
    await setStock(tight, 2);
    await setStock(roomy, 10);
    await setStock(held, 4);
    await placed(await order(LIMITS, stranger(), [await line(held, 2)]));
    const response = await callWith(LIMITS, '/orders/quote', {
      body: { lines: [await line(tight, 2), await line(roomy, 3), await line(held, 1)] },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const cart = await response.json<Quote>();
    expect(cart.ok).toBe(false);
    expect(cart.lines.map((l) => [l.productId, l.problem?.kind ?? null, l.available])).toEqual([
      [tight, 'hold_limit', 1],
      // 10 on the shelf, 5 of them for unpaid orders, and 5 (MAX_UNITS_PER_PRODUCT) to one order.
      [roomy, null, 5],
      [held, 'hold_limit', 0],
    ]);
    expect(cart.lines[0]!.problem?.message).toMatch(/^At most 1 of .+ can wait in unpaid orders at a time$/);
    expect(cart.lines[2]!.problem?.message).toMatch(/is held by other unpaid orders right now$/);
  });
});

describe('unpaid units per contact', () => {
  it('counts one e-mail address however it is written, across different phones and addresses', async () => {
    const id = 'hisense-32-a4-hd';
    const before = await rowCounts();
    await placed(await order(CONTACT_ONLY, stranger({ email: 'hoarder@example.com' }), [await line(id, 5)]));
    await placed(await order(CONTACT_ONLY, stranger({ email: 'Hoarder@Example.com' }), [await line(id, 4)]));
    const counts = await rowCounts();
    const error = await refused(
      await order(CONTACT_ONLY, stranger({ email: 'hoarder+again@example.com' }), [await line(id, 2)]),
      'unpaid_limit',
    );
    expect(await rowCounts()).toEqual(counts);
    expect(counts.orders - before.orders).toBe(2);
    expect(error.issues).toEqual([{ field: 'customer.email', message: expect.any(String) }]);
    expect(error.message).toMatch(/e-mail address/);
    expect(error.message).toMatch(/pay for or cancel/i);
    expect(error.message).toMatch(/contact us/i);
    // Up to the limit is still fine.
    await placed(await order(CONTACT_ONLY, stranger({ email: 'hoarder@example.com' }), [await line(id, 1)]));
  });

  it('counts one Gmail mailbox however its dots, +tag and domain are written, as Gmail delivers them', async () => {
    const id = 'hisense-32-a4-hd';
    await placed(await order(CONTACT_ONLY, stranger({ email: 'chi.di.hoards@gmail.com' }), [await line(id, 5)]));
    await placed(await order(CONTACT_ONLY, stranger({ email: 'chidihoards+2@googlemail.com' }), [await line(id, 4)]));
    const counts = await rowCounts();
    const error = await refused(
      await order(CONTACT_ONLY, stranger({ email: 'c.h.i.d.i.hoards@gmail.com' }), [await line(id, 2)]),
      'unpaid_limit',
    );
    expect(await rowCounts()).toEqual(counts);
    expect(error.issues).toEqual([{ field: 'customer.email', message: expect.any(String) }]);
    // Dots are a Gmail rule: at another provider, c.hidi@ and chidi@ are two mailboxes.
    await placed(await order(CONTACT_ONLY, stranger({ email: 'chi.di.hoards@example.com' }), [await line(id, 5)]));
    await placed(await order(CONTACT_ONLY, stranger({ email: 'chidihoards@example.com' }), [await line(id, 5)]));
  });

  it('counts one phone number however it is written', async () => {
    const id = 'hisense-55-a6-4k';
    await placed(await order(CONTACT_ONLY, stranger({ phone: '0805 555 0101' }), [await line(id, 5)]));
    await placed(await order(CONTACT_ONLY, stranger({ phone: '+234 805 555 0101' }), [await line(id, 5)]));
    const error = await refused(
      await order(CONTACT_ONLY, stranger({ phone: '2348055550101' }), [await line(id, 1)]),
      'unpaid_limit',
    );
    expect(error.issues).toEqual([{ field: 'customer.phone', message: expect.any(String) }]);
    expect(error.message).toMatch(/phone number/);
  });

  it('counts one delivery address however it is spaced, cased and punctuated', async () => {
    const id = 'lg-43-ut80-4k';
    const home = { address: '7 Private Road, Ikoyi', city: 'Lagos Island', state: 'Lagos' };
    await placed(await order(CONTACT_ONLY, stranger(home), [await line(id, 5)]));
    await placed(
      await order(CONTACT_ONLY, stranger({ ...home, address: '7, private road ikoyi.', city: 'LAGOS  ISLAND' }), [
        await line(id, 5),
      ]),
    );
    const error = await refused(
      await order(CONTACT_ONLY, stranger({ ...home, address: '7 Private-Road Ikoyi' }), [await line(id, 1)]),
      'unpaid_limit',
    );
    expect(error.issues).toEqual([{ field: 'customer.address', message: expect.any(String) }]);
    // The same street in another state is another address.
    await placed(await order(CONTACT_ONLY, stranger({ ...home, state: 'Ogun' }), [await line(id, 1)]));
  });

  it('has no address for pick-up orders, which still count per e-mail address and phone', async () => {
    const id = 'tcl-65-c655-qled';
    await setStock(id, 100);
    const pickUp = (overrides: Record<string, string> = {}) => {
      const { address: _a, city: _c, state: _s, ...who } = stranger(overrides);
      return { ...who, delivery: 'pickup' };
    };
    // Three strangers collecting at the store share no address: none is refused for one.
    for (let i = 0; i < 3; i++) await placed(await order(CONTACT_ONLY, pickUp(), [await line(id, 4)]));
    await placed(await order(CONTACT_ONLY, pickUp({ phone: '0907 000 1122' }), [await line(id, 5)]));
    await placed(await order(CONTACT_ONLY, pickUp({ phone: '0907 000 1122' }), [await line(id, 5)]));
    const error = await refused(
      await order(CONTACT_ONLY, pickUp({ phone: '0907 000 1122' }), [await line(id, 1)]),
      'unpaid_limit',
    );
    expect(error.issues).toEqual([{ field: 'customer.phone', message: expect.any(String) }]);
  });

  it('holds under 20 parallel orders with one phone: never more than the limit', async () => {
    const id = 'anker-735-charger-ganprime-65w';
    await setStock(id, 100);
    const one = await line(id, 1);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        order(CONTACT_ONLY, stranger({ phone: '0706 123 9876' }), [one], `192.0.2.${100 + i}`),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of responses.filter((r) => r.status !== 201)) await refused(r, 'unpaid_limit');
    expect(await heldUnpaid(id)).toBe(10);
    expect(await stockOf(id)).toBe(90);
  });

  it('gives the allowance back when an order is cancelled, paid or expired', async () => {
    const id = 'dell-inspiron-15-3530';
    await setStock(id, 100);
    const who = stranger();
    const a = await placed(await order(CONTACT_ONLY, who, [await line(id, 5)]));
    const b = await placed(await order(CONTACT_ONLY, who, [await line(id, 5)]));
    await refused(await order(CONTACT_ONLY, who, [await line(id, 1)]), 'unpaid_limit');

    // Cancelled by the shopper.
    expect((await cancel(CONTACT_ONLY, a)).status).toBe(200);
    const c = await placed(await order(CONTACT_ONLY, who, [await line(id, 5)]));
    await refused(await order(CONTACT_ONLY, who, [await line(id, 1)]), 'unpaid_limit');

    // Paid: the admin confirmed the transfer.
    const config = readConfig(envWith(CONTACT_ONLY));
    const bRow = (await reloadOrder(db, { id: (await orderRow(b.order.number)).id }))!;
    await changeOrderStatus(db, config, bRow, 'confirm_payment', 'admin');
    const d = await placed(await order(CONTACT_ONLY, who, [await line(id, 5)]));
    await refused(await order(CONTACT_ONLY, who, [await line(id, 1)]), 'unpaid_limit');

    // A report does not give it back: the order still holds its units.
    expect((await reportPayment(CONTACT_ONLY, d)).status).toBe(200);
    await refused(await order(CONTACT_ONLY, who, [await line(id, 1)]), 'unpaid_limit');

    // Past its hold, an order holds nothing, even before the cron has expired it.
    await env.DB.prepare('update orders set expires_at = unixepoch() - 60 where number = ?').bind(c.order.number).run();
    await placed(await order(CONTACT_ONLY, who, [await line(id, 5)]));
    expect((await orderRow(c.order.number)).status).toBe('awaiting_payment');
  });
});

describe('the unpaid hold', () => {
  it('lasts ORDER_HOLD_HOURS, 12 by default: long enough to order at night and pay in the morning', async () => {
    const config = readConfig(env);
    expect(config.ORDER_HOLD_HOURS).toBe(12);
    const now = new Date('2027-03-01T22:30:00Z');
    const { order: placedOrder } = await placeOrderInD1(db, config, await request('tcl-65-c655-qled'), now);
    expect(placedOrder.holdHours).toBe(12);
    expect(Date.parse(placedOrder.expiresAt) - now.getTime()).toBe(12 * HOUR);
  });

  it('is extended once by a payment report, to PAYMENT_REPORT_HOLD_HOURS (24) after it, and never again', async () => {
    const config = readConfig(env);
    expect(config.PAYMENT_REPORT_HOLD_HOURS).toBe(24);
    const placedAt = new Date('2027-03-02T20:00:00Z');
    const { order: placedOrder, accessToken } = await placeOrderInD1(db, config, await request('hisense-55-a6-4k'), placedAt);
    const row = (await reloadOrder(db, { id: (await orderRow(placedOrder.number)).id }))!;

    const reportedAt = new Date(placedAt.getTime() + 11 * HOUR);
    const reported = await changeOrderStatus(db, config, row, 'report_payment', 'customer', { now: reportedAt });
    expect(reported.expiresAt.getTime()).toBe(reportedAt.getTime() + 24 * HOUR);

    // Asking again (a retry, a double click) answers the order as it is and moves nothing.
    const again = await callWith({}, `/orders/${placedOrder.number}/payment-report`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(again.status).toBe(200);
    expect(Date.parse((await again.json<{ order: OrderView }>()).order.expiresAt)).toBe(reported.expiresAt.getTime());
    await expect(
      changeOrderStatus(db, config, reported, 'report_payment', 'customer', { now: new Date(reportedAt.getTime() + 20 * HOUR) }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await orderRow(placedOrder.number)).expires_at * 1000).toBe(reported.expiresAt.getTime());

    // Just before the end it still holds; at the end it expires and the stock is back.
    expect((await expireIfOverdue(db, config, reported, new Date(reported.expiresAt.getTime() - 1000))).status).toBe(
      'payment_reported',
    );
    expect((await expireIfOverdue(db, config, reported, reported.expiresAt)).status).toBe('expired');
  });

  it('is never shortened by a report when the unpaid hold had longer to run', async () => {
    const config = readConfig(envWith({ ORDER_HOLD_HOURS: '48', PAYMENT_REPORT_HOLD_HOURS: '24' }));
    const placedAt = new Date('2027-03-03T08:00:00Z');
    const { order: placedOrder } = await placeOrderInD1(db, config, await request('lg-43-ut80-4k'), placedAt);
    const row = (await reloadOrder(db, { id: (await orderRow(placedOrder.number)).id }))!;
    const reported = await changeOrderStatus(db, config, row, 'report_payment', 'customer', {
      now: new Date(placedAt.getTime() + HOUR),
    });
    expect(reported.expiresAt.getTime()).toBe(placedAt.getTime() + 48 * HOUR);
  });
});

describe("a stranger's orders in someone's name (an attacker's review, 2026-11-29)", () => {
  it('do not lock out that person once they sign in with their address confirmed; the orders join their account, which can cancel them', async () => {
    const victim = stranger();
    const [a, b] = ['hisense-55-a6-4k', 'lg-43-ut80-4k'];
    await setStock(a, 40);
    await setStock(b, 40);
    // Someone else fills the victim's allowance with one guest order in the victim's name.
    const planted = await placed(await order(CONTACT_ONLY, victim, [await line(a, 5), await line(b, 5)], '198.51.100.77'));

    // As a guest, the victim is refused, and told the way out.
    const asGuest = await refused(await order(CONTACT_ONLY, victim, [await line(a, 1)]), 'unpaid_limit');
    expect(asGuest.message).toContain('Not yours? Sign in to an account whose e-mail address you have confirmed');

    // Signed in to an account whose address is not confirmed yet: still counted by the details typed.
    const browser = new Browser(ORIGIN, CONTACT_ONLY, '203.0.113.61');
    await signedInUser(browser, victim.email);
    const placeAs = async (customer: Record<string, string>, lines: Line[]) =>
      browser.post('/orders', { idempotencyKey: newKey(), customer, lines });
    await refused(await placeAs(victim, [await line(a, 1)]), 'unpaid_limit');

    // Confirmed: the planted order joins the account, which now holds its 10 units; the account
    // cancels it without the planting browser's token, and orders.
    expect((await browser.post('/account/verify-email', { token: await linkToken(victim.email, 'verify') })).status).toBe(200);
    const asAccount = await refused(await placeAs(victim, [await line(a, 1)]), 'unpaid_limit');
    expect(asAccount.message).toMatch(/^Unpaid orders with this account already hold 10 items/);
    const other = new Browser(ORIGIN, CONTACT_ONLY, '203.0.113.62');
    await signedInUser(other);
    expect((await other.post(`/orders/${planted.order.number}/cancel`)).status).toBe(404);
    const cancel = await browser.post(`/orders/${planted.order.number}/cancel`);
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    expect((await orderRow(planted.order.number)).status).toBe('cancelled');
    await placed(await placeAs(victim, [await line(a, 1)]));

    // Guest orders with the victim's phone and address under another e-mail (they do not join the
    // account) no longer count against the account either.
    await placed(
      await order(
        CONTACT_ONLY,
        { ...victim, email: `planted-${newKey().slice(0, 8)}@example.com` },
        [await line(b, 5), await line(a, 4)],
        '198.51.100.78',
      ),
    );
    await placed(await placeAs(victim, [await line(b, 1)]));
    // Its own orders still count: 1 + 1 held, 8 more is the limit.
    await refused(await placeAs(victim, [await line(a, 5), await line(b, 4)]), 'unpaid_limit');
  });
});

describe('order confirmation e-mails per recipient', () => {
  it('leaves the confirmation out past RATE_LIMIT_EMAIL_RECIPIENT, while the order itself is placed', async () => {
    const vars = { RATE_LIMIT_EMAIL_RECIPIENT: '2/3600' };
    const victim = 'bombed@example.com';
    const orders = [];
    for (let i = 0; i < 3; i++) {
      orders.push(
        await placed(
          await order(vars, stranger({ email: i === 1 ? 'Bombed@Example.com' : victim }), [await line('hisense-32-a4-hd', 1)]),
        ),
      );
    }
    expect((await emailsOf(orders[0]!.order.number)).map((e) => e.recipient)).toEqual([victim]);
    expect(await emailsOf(orders[1]!.order.number)).toHaveLength(1);
    expect(await emailsOf(orders[2]!.order.number)).toHaveLength(0);
    expect((await orderRow(orders[2]!.order.number)).status).toBe('awaiting_payment');
  });

  it("orders placed in one mailbox's name and cancelled at once, from many clients and spellings, send it at most the limit of each kind", async () => {
    // Cancelling gives the units back, so the per-contact hold never stops this loop; the
    // cancel's e-mail is counted per mailbox as the confirmation is ("a+tag@", Gmail's dots).
    const vars = { RATE_LIMIT_EMAIL_RECIPIENT: '2/3600' };
    const spellings = [
      'ada.obi@gmail.com',
      'adaobi+1@gmail.com',
      'Ada.Obi+shop@googlemail.com',
      'a.d.a.o.b.i@gmail.com',
      'adaobi@gmail.com',
    ];
    const emails = [];
    for (const [i, email] of spellings.entries()) {
      const o = await placed(await order(vars, stranger({ email }), [await line('hisense-32-a4-hd', 1)], `198.51.100.${i + 1}`));
      expect((await cancel(vars, o)).status).toBe(200);
      expect((await orderRow(o.order.number)).status).toBe('cancelled');
      emails.push(...(await emailsOf(o.order.number)));
    }
    const subjects = emails.map((e) => e.subject);
    expect(subjects.filter((s) => /cancel/i.test(s))).toHaveLength(2);
    expect(subjects).toHaveLength(4);
  });
});

describe('orders placed in one mailbox’s name, left to expire', () => {
  it('send it at most the limit of expiry e-mails when they all expire together', async () => {
    // A stranger (or a confirmed account typing someone else's address) places orders in the
    // victim's name; the confirmations are counted per mailbox, and so is the expiry of each.
    const vars = { RATE_LIMIT_EMAIL_RECIPIENT: '2/3600' };
    const config = readConfig(envWith(vars));
    const spellings = [
      'chi.eze@gmail.com',
      'chieze+a@gmail.com',
      'Chi.Eze+b@googlemail.com',
      'c.h.i.e.z.e@gmail.com',
      'chieze@gmail.com',
    ];
    const numbers: string[] = [];
    for (const [i, email] of spellings.entries()) {
      const o = await placed(await order(vars, stranger({ email }), [await line('hisense-32-a4-hd', 1)], `198.51.100.${20 + i}`));
      numbers.push(o.order.number);
    }
    for (const number of numbers)
      await env.DB.prepare('update orders set expires_at = unixepoch() - 60 where number = ?').bind(number).run();
    // The expiry job's run, as the cron makes it.
    await expireOverdueOrders(db, config);
    for (const number of numbers) expect((await orderRow(number)).status).toBe('expired');
    const subjects = (await Promise.all(numbers.map((n) => emailsOf(n)))).flat().map((e) => e.subject);
    expect(subjects.filter((s) => /expired/i.test(s))).toHaveLength(2);
    expect(subjects.filter((s) => /transfer details/.test(s))).toHaveLength(2);
    expect(subjects).toHaveLength(4);
  });
});

/** One unit of `productId` for a stranger, as the shared schema reads the request. */
async function request(productId: string) {
  return placeOrderSchema.parse({ idempotencyKey: newKey(), customer: stranger(), lines: [await line(productId, 1)] });
}
