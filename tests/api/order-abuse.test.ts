import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../functions/index.ts';
import { openDb } from '../../functions/platform/db.ts';
import { reportedPayments } from '../../functions/orders/admin.ts';
import { readConfig } from '../../functions/env.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import { postJson, type ErrorJson } from './client.ts';
import {
  emailsOf,
  eventsOf,
  line,
  makeOverdue,
  orderRequest,
  orderRow,
  placeOrder,
  postOrder,
  rowCounts,
  setStock,
  stockOf,
} from './orders-helpers.ts';
import { callWith } from './with-env.ts';

/**
 * Issue 8: a script must not be able to take the catalogue off sale. Reported payments
 * expire when nobody confirms them, orders are small, clients are rate-limited and the
 * quote does not tell how many units are left.
 */
const db = openDb(env.DB);
const HOUR = 3_600_000;

const reportPayment = (number: string, token: string) =>
  postJson(`/orders/${number}/payment-report`, {}, { authorization: `Bearer ${token}` });
const runCron = (at: number) => worker.scheduled(createScheduledController({ scheduledTime: at, cron: '*/10 * * * *' }), env);

describe('a reported payment nobody confirms expires after PAYMENT_REPORT_HOLD_HOURS (24)', () => {
  it('holds the stock from the report for 24 hours, shows that deadline, then expires, releases the stock and e-mails the shopper', async () => {
    const id = 'lg-43-ut80-4k';
    const stock = await stockOf(id);
    const { order, accessToken } = await placeOrder({ lines: [await line(id, 2)] });
    const response = await reportPayment(order.number, accessToken);
    const reportedAt = Date.now();
    expect(response.status).toBe(200);
    const { order: reported } = await response.json<{ order: OrderView }>();
    expect(reported.holdHours).toBe(24);
    const deadline = Date.parse(reported.expiresAt);
    expect(Math.abs(deadline - (reportedAt + 24 * HOUR))).toBeLessThan(5_000);
    expect((await orderRow(order.number)).expires_at).toBe(deadline / 1000);

    // Past the unpaid hold (12 h) but within the report's: nothing happens.
    await runCron(reportedAt + 23 * HOUR);
    expect((await orderRow(order.number)).status).toBe('payment_reported');
    expect(await stockOf(id)).toBe(stock - 2);

    await runCron(deadline + 60_000);
    expect((await orderRow(order.number)).status).toBe('expired');
    expect(await stockOf(id)).toBe(stock);
    expect((await eventsOf(order.number)).at(-1)).toEqual({ from: 'payment_reported', to: 'expired', actor: 'system' });
    const emails = await emailsOf(order.number);
    expect(emails).toHaveLength(3);
    expect(emails.at(-1)!.subject).toContain('expired');
    // Someone who said they paid is told what to do if they did, not that nothing arrived.
    expect(emails.at(-1)!.text).toContain('reply to this e-mail with your transfer receipt');
    expect(emails.at(-1)!.text).not.toContain('We did not receive a transfer in time');

    // A second run, or a late read, changes nothing more.
    await runCron(deadline + 2 * HOUR);
    expect(await stockOf(id)).toBe(stock);
    expect(await emailsOf(order.number)).toHaveLength(3);
  });

  it('expires an overdue report when the order is read (the tracking lookup)', async () => {
    const id = 'hisense-55-a6-4k';
    const stock = await stockOf(id);
    const { order, accessToken } = await placeOrder({
      customer: { ...orderRequest().customer, email: 'slow.bank@example.com' },
      lines: [await line(id, 1)],
    });
    expect((await reportPayment(order.number, accessToken)).status).toBe(200);
    await makeOverdue(order.number);
    const { order: seen } = await (
      await postJson('/orders/lookup', { number: order.number, email: 'slow.bank@example.com' })
    ).json<{ order: OrderView }>();
    expect(seen.status).toBe('expired');
    expect(seen.history.map((h) => h.status)).toEqual(['awaiting_payment', 'payment_reported', 'expired']);
    expect(await stockOf(id)).toBe(stock);
  });

  it('lists the reports awaiting confirmation for the admin, oldest first, with their age', async () => {
    const id = 'tcl-65-c655-qled';
    const first = await placeOrder({ lines: [await line(id, 1)] });
    const second = await placeOrder({ lines: [await line(id, 1)] });
    const unreported = await placeOrder({ lines: [await line(id, 1)] });
    expect((await reportPayment(first.order.number, first.accessToken)).status).toBe(200);
    expect((await reportPayment(second.order.number, second.accessToken)).status).toBe(200);
    // The first was reported ten hours ago.
    await env.DB.prepare(
      `update order_events set created_at = created_at - 36000 where to_status = 'payment_reported' and order_id = (select id from orders where number = ?)`,
    )
      .bind(first.order.number)
      .run();
    await env.DB.prepare('update orders set expires_at = expires_at - 36000 where number = ?').bind(first.order.number).run();

    // What the admin's dashboard lists (functions/orders/admin.ts reportedPayments).
    const now = new Date();
    const listed = (await reportedPayments(db, readConfig(env), now)).filter((r) =>
      [first, second, unreported].some((o) => o.order.number === r.number),
    );
    expect(listed.map((r) => r.number)).toEqual([first.order.number, second.order.number]);
    expect(listed[0]).toMatchObject({ customerName: 'Ada Obi', email: 'ada.obi@example.com', total: first.order.total });
    const ageSeconds = (r: (typeof listed)[number]) => Math.floor((now.getTime() - Date.parse(r.reportedAt!)) / 1000);
    expect(ageSeconds(listed[0]!)).toBeGreaterThanOrEqual(36_000);
    expect(ageSeconds(listed[0]!)).toBeLessThan(36_000 + 60);
    expect(ageSeconds(listed[1]!)).toBeLessThan(60);
    // Reported ten hours ago, past PAYMENT_REPORT_ALERT_HOURS (12)? Not yet: not overdue; its hold ends 24 h after the report.
    expect(listed[0]!.overdue).toBe(false);
    expect(Date.parse(listed[0]!.expiresAt!) - Date.parse(listed[0]!.reportedAt!)).toBe(24 * HOUR);
  });
});

describe('per-order limits', () => {
  it.each([
    [
      '6 of one product',
      async () => [await line('hisense-32-a4-hd', 6)],
      'lines.0.quantity',
      'You can order at most 5 of one product',
    ],
    [
      '6 of one product across two variants',
      async () => [await line('itel-a90', 3, '4GB + 64GB'), await line('itel-a90', 3, '4GB + 128GB')],
      'lines.1.quantity',
      'You can order at most 5 of one product',
    ],
    [
      '11 different items',
      async () => {
        const ids = (
          await env.DB.prepare('select id from products where stock >= 1 and active = 1 order by id limit 11').all<{
            id: string;
          }>()
        ).results;
        return Promise.all(ids.map((r) => line(r.id, 1)));
      },
      'lines',
      'An order can have at most 10 different items',
    ],
  ])('refuses %s with a field message and stores nothing', async (_, lines, field, message) => {
    const before = await rowCounts();
    const response = await postOrder(orderRequest({ lines: await lines() }));
    expect(response.status).toBe(400);
    const { error } = await response.json<ErrorJson>();
    expect(error.issues).toContainEqual({ field, message });
    expect(await rowCounts()).toEqual(before);
  });

  it('enforces lower configured limits (MAX_UNITS_PER_PRODUCT, MAX_ORDER_LINES) in the Worker', async () => {
    const vars = { MAX_UNITS_PER_PRODUCT: '2', MAX_ORDER_LINES: '1' };
    const before = await rowCounts();
    const tooMany = await callWith(vars, '/orders', { body: orderRequest({ lines: [await line('hisense-32-a4-hd', 3)] }) });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json<ErrorJson>()).error.issues).toEqual([
      { field: 'lines.0.quantity', message: 'You can order at most 2 of one product' },
    ]);
    const twoItems = await callWith(vars, '/orders', {
      body: orderRequest({ lines: [await line('hisense-32-a4-hd', 1), await line('lg-43-ut80-4k', 1)] }),
    });
    expect(twoItems.status).toBe(400);
    expect((await twoItems.json<ErrorJson>()).error.issues).toEqual([
      { field: 'lines', message: 'An order can have at most 1 different items' },
    ]);
    expect(await rowCounts()).toEqual(before);
    // A configured value above the shared limit does not raise it.
    const raised = await callWith({ MAX_UNITS_PER_PRODUCT: '50' }, '/orders', {
      body: orderRequest({ lines: [await line('hisense-32-a4-hd', 6)] }),
    });
    expect(raised.status).toBe(400);
  });
});

describe('the quote does not tell how many units are left', () => {
  it('says at most 5 (the most one order may take) when more are in stock, and the exact number below that', async () => {
    const id = 'hisense-32-a4-hd';
    await setStock(id, 57);
    const quote = async (quantity: number) =>
      (
        await (
          await postJson('/orders/quote', { lines: [await line(id, quantity)] })
        ).json<{ lines: { available: number; problem?: { kind: string } }[] }>()
      ).lines[0]!;
    expect(await quote(1)).toMatchObject({ available: 5 });
    expect(JSON.stringify(await quote(5))).not.toContain('57');
    await setStock(id, 3);
    expect(await quote(1)).toMatchObject({ available: 3 });
    expect(await quote(4)).toMatchObject({ available: 3, problem: { kind: 'insufficient_stock' } });
    // Asking for 99 is no longer a way to learn the stock: it is refused before D1 is read.
    const big = await postJson('/orders/quote', { lines: [await line(id, 99)] });
    expect(big.status).toBe(400);
    expect(await big.text()).not.toMatch(/"available"/);
  });
});

describe('a script placing and reporting orders cannot take a product off sale', () => {
  it('is stopped by the rate limit, and what it held goes back on sale when the report hold runs out', async () => {
    const id = 'samsung-55-qled-q60d';
    await setStock(id, 40);
    const vars = { RATE_LIMIT_PLACE_ORDER: '3/600', RATE_LIMIT_PAYMENT_REPORT: '3/600' };
    const ip = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const placed = await callWith(vars, '/orders', { ip, body: orderRequest({ lines: [await line(id, 5)] }) });
      statuses.push(placed.status);
      if (placed.status !== 201) continue;
      const { order, accessToken } = await placed.json<{ order: OrderView; accessToken: string }>();
      const reported = await callWith(vars, `/orders/${order.number}/payment-report`, {
        ip,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(reported.status).toBe(200);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    // Three orders of at most five: one client holds at most 15 of 40.
    expect(await stockOf(id)).toBe(25);
    const held = await env.DB.prepare(
      `select count(*) as n from orders o join order_lines l on l.order_id = o.id where l.product_id = ? and o.status = 'payment_reported'`,
    )
      .bind(id)
      .first<{ n: number }>();
    expect(held!.n).toBe(3);

    await runCron(Date.now() + 24 * HOUR + 10 * 60_000);
    expect(await stockOf(id)).toBe(40);
  });
});
