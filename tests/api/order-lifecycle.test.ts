import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../functions/index.ts';
import { openDb } from '../../functions/platform/db.ts';
import { readConfig } from '../../functions/env.ts';
import { ApiError } from '../../functions/platform/errors.ts';
import { findOrderByNumber } from '../../functions/orders/find.ts';
import { changeOrderStatus } from '../../functions/orders/move.ts';
import type { OrderEvent, OrderActor } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import { postJson, type ErrorJson } from './client.ts';
import {
  backdate,
  customer,
  emailsOf,
  eventsOf,
  line,
  makeOverdue,
  orderRow,
  placeOrder,
  PS5,
  setStock,
  stockOf,
  totalStockOf,
  updatedAtOf,
} from './orders-helpers.ts';

const db = openDb(env.DB);
const config = readConfig(env);

// Most tests here order one PlayStation 5 Slim: enough of them for every test in the file.
beforeAll(() => setStock(PS5.id, 500));

const reportPayment = (number: string, token?: string) =>
  postJson(`/orders/${number}/payment-report`, {}, token === undefined ? {} : { authorization: `Bearer ${token}` });

const lookup = (number: string, email: string) => postJson('/orders/lookup', { number, email });

/** Moves the order as D1 holds it now, through the server's own changeOrderStatus. */
async function move(number: string, event: OrderEvent, actor: OrderActor) {
  return changeOrderStatus(db, config, (await findOrderByNumber(db, number))!, event, actor);
}

/** What a refused move must leave alone: the status, the history, the e-mails and the stock. */
async function snapshot(number: string, productId: string) {
  return {
    status: (await orderRow(number)).status,
    events: await eventsOf(number),
    emails: (await emailsOf(number)).length,
    stock: await stockOf(productId),
  };
}

const cancel = (number: string, token?: string) =>
  postJson(`/orders/${number}/cancel`, {}, token === undefined ? {} : { authorization: `Bearer ${token}` });

describe('POST /api/orders/:number/cancel', () => {
  it('lets the browser holding the token cancel an unpaid order, giving its stock back once', async () => {
    const id = 'samsung-25w-usb-c-charger';
    const stock = await stockOf(id);
    const { order, accessToken } = await placeOrder({ lines: [await line(id, 2)] });
    expect(await stockOf(id)).toBe(stock - 2);
    await backdate('orders', order.number);
    const started = await backdate('products', id);
    const response = await cancel(order.number, accessToken);
    expect(response.status).toBe(200);
    expect((await response.json<{ order: OrderView }>()).order).toMatchObject({ status: 'cancelled', payment: null });
    expect(await stockOf(id)).toBe(stock);
    // The status change and the stock release both stamp updated_at (drizzle's $onUpdate, inside the batch).
    expect(await updatedAtOf('orders', order.number)).toBeGreaterThanOrEqual(started);
    expect(await updatedAtOf('products', id)).toBeGreaterThanOrEqual(started);
    expect((await cancel(order.number, accessToken)).status).toBe(200);
    expect(await stockOf(id)).toBe(stock);
    expect((await eventsOf(order.number)).at(-1)).toEqual({ from: 'awaiting_payment', to: 'cancelled', actor: 'customer' });
  });

  it("refuses another order's token (404) and a shopper cancelling after reporting payment (409 transition_not_allowed)", async () => {
    const [mine, theirs] = [await placeOrder(), await placeOrder()];
    expect((await cancel(mine.order.number, theirs.accessToken)).status).toBe(404);
    expect((await reportPayment(mine.order.number, mine.accessToken)).status).toBe(200);
    const late = await cancel(mine.order.number, mine.accessToken);
    expect(late.status).toBe(409);
    expect((await late.json<ErrorJson>()).error.code).toBe('transition_not_allowed');
    expect((await orderRow(mine.order.number)).status).toBe('payment_reported');
  });
});

describe('POST /api/orders/:number/payment-report', () => {
  it('moves the order to payment_reported for the browser holding its token', async () => {
    const { order, accessToken } = await placeOrder();
    const response = await reportPayment(order.number, accessToken);
    expect(response.status).toBe(200);
    const { order: reported } = await response.json<{ order: OrderView }>();
    // The bank details stay (the shopper may check what they sent), no longer due.
    expect(reported).toMatchObject({
      number: order.number,
      status: 'payment_reported',
      payment: { reference: order.number, amount: order.total, due: false },
    });
    expect(reported.history.map((h) => h.status)).toEqual(['awaiting_payment', 'payment_reported']);
    expect(await eventsOf(order.number)).toEqual([
      { from: null, to: 'awaiting_payment', actor: 'customer' },
      { from: 'awaiting_payment', to: 'payment_reported', actor: 'customer' },
    ]);
  });

  it("answers another order's token with 404 and leaves the order alone", async () => {
    const [mine, theirs] = [await placeOrder(), await placeOrder()];
    const before = await snapshot(mine.order.number, mine.order.lines[0]!.productId);
    const response = await reportPayment(mine.order.number, theirs.accessToken);
    expect(response.status).toBe(404);
    expect((await response.json<ErrorJson>()).error.code).toBe('order_not_found');
    expect(await snapshot(mine.order.number, mine.order.lines[0]!.productId)).toEqual(before);
  });

  it.each([
    ['no token', undefined],
    ['a token too short to be one', 'abc'],
  ])('answers %s with 401 and leaves the order alone', async (_, token) => {
    const { order } = await placeOrder();
    const response = await reportPayment(order.number, token);
    expect(response.status).toBe(401);
    expect((await response.json<ErrorJson>()).error.code).toBe('unauthorized');
    expect((await orderRow(order.number)).status).toBe('awaiting_payment');
  });

  it('answers a repeated report (a retry after a lost answer) with the same order, recording it once', async () => {
    const { order, accessToken } = await placeOrder();
    expect((await reportPayment(order.number, accessToken)).status).toBe(200);
    const again = await reportPayment(order.number, accessToken);
    expect(again.status).toBe(200);
    expect((await again.json<{ order: OrderView }>()).order.status).toBe('payment_reported');
    expect(await eventsOf(order.number)).toHaveLength(2);
    expect(await emailsOf(order.number)).toHaveLength(2);
  });

  it('refuses a report once the order has moved past it, with 409 illegal_transition', async () => {
    const { order, accessToken } = await placeOrder();
    await move(order.number, 'confirm_payment', 'admin');
    const late = await reportPayment(order.number, accessToken);
    expect(late.status).toBe(409);
    expect((await late.json<ErrorJson>()).error.code).toBe('illegal_transition');
    expect((await orderRow(order.number)).status).toBe('paid');
  });

  it('answers an unknown number with 404 and a malformed one with 400', async () => {
    const { accessToken } = await placeOrder();
    expect((await reportPayment('GTS-0000000000', accessToken)).status).toBe(404);
    const malformed = await reportPayment('ORDER-1', accessToken);
    expect(malformed.status).toBe(400);
    expect((await malformed.json<ErrorJson>()).error.issues?.[0]?.field).toBe('number');
  });
});

describe('POST /api/orders/lookup', () => {
  it('finds the order by number and checkout e-mail, in any letter case', async () => {
    const { order } = await placeOrder({ customer: { ...customer, email: 'chidi.eze@example.com' } });
    const response = await lookup(order.number.toLowerCase(), 'Chidi.Eze@EXAMPLE.com');
    expect(response.status).toBe(200);
    const json = await response.json<{ order: OrderView; accessToken?: string }>();
    expect(json.order).toEqual(expect.objectContaining({ number: order.number, status: 'awaiting_payment', total: order.total }));
    expect(json.accessToken).toBeUndefined();
  });

  it('shows the order exactly as the checkout answered it', async () => {
    const placed = await placeOrder({ customer: { ...customer, email: 'same.view@example.com' } });
    const { order } = await (await lookup(placed.order.number, 'same.view@example.com')).json<{ order: OrderView }>();
    expect(order).toEqual(placed.order);
  });

  it('answers a wrong e-mail and an unknown number with the same 404, revealing nothing', async () => {
    const { order } = await placeOrder({ customer: { ...customer, email: 'ngozi@example.com' } });
    const wrongEmail = await lookup(order.number, 'someone.else@example.com');
    const unknownNumber = await lookup('GTS-ZZZZZZZZZZ', 'ngozi@example.com');
    expect([wrongEmail.status, unknownNumber.status]).toEqual([404, 404]);
    const [a, b] = [await wrongEmail.text(), await unknownNumber.text()];
    expect(a).toBe(b);
    expect(JSON.parse(a)).toEqual({ error: { code: 'order_not_found', message: expect.any(String) } });
    expect(a).not.toContain(order.number);
  });

  it.each([
    [{ number: 'GTS-7K3M9Q2XWD' }, 'email'],
    [{ number: '12345', email: 'ada@example.com' }, 'number'],
    [{ number: 'GTS-7K3M9Q2XWD', email: 'not-an-email' }, 'email'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const response = await postJson('/orders/lookup', body);
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues?.map((i) => i.field)).toContain(field);
  });
});

describe('changeOrderStatus in D1', () => {
  it('walks an order from awaiting payment to delivered, recording each change and queueing one e-mail for it', async () => {
    const id = 'samsung-galaxy-a56-5g';
    const { order } = await placeOrder({ lines: [await line(id, 1)] });
    const stock = await stockOf(id);

    const walk: [OrderEvent, OrderActor, string, string][] = [
      ['report_payment', 'customer', 'payment_reported', 'payment reported, waiting for us to confirm the transfer'],
      ['confirm_payment', 'admin', 'paid', 'paid, being packed'],
      ['ship', 'admin', 'shipped', 'on its way to you'],
      ['deliver', 'admin', 'delivered', 'delivered'],
    ];
    for (const [event, actor, status, subject] of walk) {
      const moved = await move(order.number, event, actor);
      expect(moved.status).toBe(status);
      expect((await orderRow(order.number)).status).toBe(status);
      expect((await emailsOf(order.number)).at(-1)).toMatchObject({
        recipient: customer.email,
        subject: `Your GTS order ${order.number}: ${subject}`,
        text: expect.stringMatching(/^Hello Ada Obi,\n\n.+Total: ₦\d/s),
        html: expect.stringMatching(/^<!doctype html>/),
        attempts: 0,
      });
    }

    expect(await eventsOf(order.number)).toEqual([
      { from: null, to: 'awaiting_payment', actor: 'customer' },
      { from: 'awaiting_payment', to: 'payment_reported', actor: 'customer' },
      { from: 'payment_reported', to: 'paid', actor: 'admin' },
      { from: 'paid', to: 'shipped', actor: 'admin' },
      { from: 'shipped', to: 'delivered', actor: 'admin' },
    ]);
    expect(await emailsOf(order.number)).toHaveLength(1 + walk.length);
    expect(await stockOf(id)).toBe(stock);
  });

  it.each<[string, [OrderEvent, OrderActor][], OrderEvent, OrderActor, number, string]>([
    ['ship an unpaid order', [], 'ship', 'admin', 409, 'illegal_transition'],
    ['deliver a paid order not shipped', [['confirm_payment', 'admin']], 'deliver', 'admin', 409, 'illegal_transition'],
    [
      'cancel a shipped order',
      [
        ['confirm_payment', 'admin'],
        ['ship', 'admin'],
      ],
      'cancel',
      'admin',
      409,
      'illegal_transition',
    ],
    ['let a customer confirm their own payment', [], 'confirm_payment', 'customer', 409, 'transition_not_allowed'],
    [
      'let a customer cancel after reporting payment',
      [['report_payment', 'customer']],
      'cancel',
      'customer',
      409,
      'transition_not_allowed',
    ],
  ])('refuses to %s and changes nothing', async (_, before, event, actor, status, code) => {
    const id = 'hp-250-g10';
    const { order } = await placeOrder({ lines: [await line(id, 1)] });
    for (const [e, a] of before) await move(order.number, e, a);
    const was = await snapshot(order.number, id);

    const refused = move(order.number, event, actor);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status, code });
    expect(await snapshot(order.number, id)).toEqual(was);
  });

  it.each<[OrderActor, OrderEvent, OrderActor, string[], string[]]>([
    ['admin', 'cancel', 'admin', ['cancelled'], ['illegal_transition']],
    // An expiry that loses is not retried against the new status (its hold may have changed): 409 order_changed.
    ['customer', 'expire', 'system', ['cancelled', 'expired'], ['order_changed', 'transition_not_allowed']],
  ])(
    'releases the stock exactly once when a cancel by the %s races a second move (%s)',
    async (canceller, rival, rivalActor, winners, refusals) => {
      const id = 'apple-macbook-air-13-m4';
      const stock = await totalStockOf(id);
      const { order } = await placeOrder({ lines: [await line(id, 2, 'silver'), await line(id, 1, 'midnight')] });
      expect(await totalStockOf(id)).toBe(stock - 3);

      const row = (await findOrderByNumber(db, order.number))!;
      const results = await Promise.allSettled([
        changeOrderStatus(db, config, row, 'cancel', canceller),
        changeOrderStatus(db, config, row, rival, rivalActor),
      ]);
      const [won] = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const [lost] = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(winners).toContain(won?.status);
      expect(lost).toBeInstanceOf(ApiError);
      expect(refusals).toContain(lost.code);

      expect(await totalStockOf(id)).toBe(stock);
      expect((await eventsOf(order.number)).map((e) => e.to)).toEqual(['awaiting_payment', won!.status]);
      expect(await emailsOf(order.number)).toHaveLength(2);

      await expect(move(order.number, 'cancel', 'admin')).rejects.toMatchObject({ status: 409 });
      expect(await totalStockOf(id)).toBe(stock);
    },
  );

  it('judges a move made with a stale row against where the order is now', async () => {
    const { order } = await placeOrder();
    const stale = (await findOrderByNumber(db, order.number))!;
    await move(order.number, 'report_payment', 'customer');
    const confirmed = await changeOrderStatus(db, config, stale, 'confirm_payment', 'admin');
    expect(confirmed.status).toBe('paid');
    expect((await eventsOf(order.number)).map((e) => `${e.from}>${e.to}`)).toEqual([
      'null>awaiting_payment',
      'awaiting_payment>payment_reported',
      'payment_reported>paid',
    ]);
  });
});

describe('unpaid orders expire and release their stock', () => {
  it('expires an overdue order when it is looked up', async () => {
    const id = 'dell-inspiron-15-3530';
    const stock = await stockOf(id);
    const { order } = await placeOrder({
      customer: { ...customer, email: 'late.payer@example.com' },
      lines: [await line(id, 2)],
    });
    expect(await stockOf(id)).toBe(stock - 2);
    await makeOverdue(order.number);

    const response = await lookup(order.number, 'late.payer@example.com');
    const { order: seen } = await response.json<{ order: OrderView }>();
    expect(seen).toMatchObject({ status: 'expired', payment: null });
    expect(seen.history.map((h) => h.status)).toEqual(['awaiting_payment', 'expired']);
    expect(await stockOf(id)).toBe(stock);

    // Reading it again changes nothing more.
    await lookup(order.number, 'late.payer@example.com');
    expect(await stockOf(id)).toBe(stock);
    expect(await eventsOf(order.number)).toHaveLength(2);
  });

  it('expires overdue orders in the scheduled job, and only those', async () => {
    const id = 'acer-nitro-v-15';
    const stock = await stockOf(id);
    const overdue = await placeOrder({ lines: [await line(id, 2)] });
    const onTime = await placeOrder({ lines: [await line(id, 1)] });
    const reported = await placeOrder({ lines: [await line(id, 3)] });
    expect((await reportPayment(reported.order.number, reported.accessToken)).status).toBe(200);
    await makeOverdue(overdue.order.number);

    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), env);

    expect((await orderRow(overdue.order.number)).status).toBe('expired');
    expect((await eventsOf(overdue.order.number)).at(-1)).toEqual({ from: 'awaiting_payment', to: 'expired', actor: 'system' });
    expect((await orderRow(onTime.order.number)).status).toBe('awaiting_payment');
    // A reported transfer holds the stock for PAYMENT_REPORT_HOLD_HOURS from the report (tests/api/order-abuse.test.ts).
    expect((await orderRow(reported.order.number)).status).toBe('payment_reported');
    expect(await stockOf(id)).toBe(stock - 1 - 3);
    expect((await emailsOf(overdue.order.number)).at(-1)?.subject).toContain('expired');

    const late = await reportPayment(overdue.order.number, overdue.accessToken);
    expect(late.status).toBe(409);
    expect((await late.json<ErrorJson>()).error.code).toBe('illegal_transition');
  });

  it('expires an overdue order when its payment is reported, and refuses the report', async () => {
    const id = 'lenovo-thinkpad-e14-gen-6';
    const stock = await stockOf(id);
    const { order, accessToken } = await placeOrder({ lines: [await line(id, 1)] });
    await makeOverdue(order.number);
    const response = await reportPayment(order.number, accessToken);
    expect(response.status).toBe(409);
    expect((await orderRow(order.number)).status).toBe('expired');
    expect(await stockOf(id)).toBe(stock);
  });
});
