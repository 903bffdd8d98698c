import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminOrderDetail,
  adminOrderDetailSchema,
  adminOrderListSchema,
} from '../../src/features/orders/admin/admin-order-api.ts';
import { ORDER_STATUSES } from '../../src/features/orders/order-status.ts';
import type { OrderView, PlacedOrder } from '../../src/features/orders/order-view.ts';
import { readConfig } from '../../functions/env.ts';
import { formatNaira } from '../../src/lib/money.ts';
import type { Browser } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import { api, postJson, type ErrorJson } from './client.ts';
import {
  customer,
  emailsOf,
  eventsOf,
  line,
  makeOverdue,
  orderRow,
  placeOrder,
  PS5,
  setPrice,
  setStock,
  stockOf,
} from './orders-helpers.ts';

let admin: { browser: Browser; email: string; id: string };

beforeAll(async () => {
  await setStock(PS5.id, 500);
  admin = await signedInAdmin();
});

const HOUR = 3600;

/** A new order for a shopper of its own (a unique e-mail), so searches find only what a test made. */
async function orderFor(label: string, overrides: Record<string, unknown> = {}): Promise<PlacedOrder> {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  return placeOrder({ customer: { ...customer, email }, ...overrides });
}

async function list(query = '', browser = admin.browser) {
  const response = await browser.get(`/admin/orders${query ? `?${query}` : ''}`);
  expect(response.status, await response.clone().text()).toBe(200);
  // Parsed with the contract, and the parse keeps everything the Worker sent.
  const json = await response.json();
  const parsed = adminOrderListSchema.parse(json);
  expect(parsed).toEqual(json);
  return parsed;
}

async function detail(number: string, browser = admin.browser): Promise<AdminOrderDetail> {
  const response = await browser.get(`/admin/orders/${number}`);
  expect(response.status, await response.clone().text()).toBe(200);
  const json = await response.json();
  const parsed = adminOrderDetailSchema.parse(json);
  expect(parsed).toEqual(json);
  return parsed;
}

type Move = 'confirm-payment' | 'ship' | 'deliver' | 'cancel';
const move = (number: string, action: Move, body: Record<string, unknown>, browser = admin.browser) =>
  browser.post(`/admin/orders/${number}/${action}`, body);

async function moved(number: string, action: Move, body: Record<string, unknown>) {
  const response = await move(number, action, body);
  expect(response.status, await response.clone().text()).toBe(200);
  const json = await response.json();
  return adminOrderDetailSchema.parse(json);
}

/** The order as the browser that placed it sees it (the payment step, /orders). */
async function shopperView(placed: PlacedOrder): Promise<OrderView> {
  const response = await api(`/orders/${placed.order.number}`, { headers: { authorization: `Bearer ${placed.accessToken}` } });
  expect(response.status).toBe(200);
  return (await response.json<{ order: OrderView }>()).order;
}

const reportPayment = async (placed: PlacedOrder) => {
  const response = await postJson(
    `/orders/${placed.order.number}/payment-report`,
    {},
    { authorization: `Bearer ${placed.accessToken}` },
  );
  expect(response.status).toBe(200);
};

const naira = (kobo: number) => kobo / 100;

async function auditRows(number: string) {
  const { results } = await env.DB.prepare(
    "select action, actor_user_id as actorUserId, actor_email as actorEmail, changes from admin_audit where entity = 'order' and entity_id = ? order by id",
  )
    .bind(number)
    .all<{ action: string; actorUserId: string; actorEmail: string; changes: string }>();
  return results.map((r) => ({ ...r, changes: JSON.parse(r.changes) as unknown }));
}

describe('GET /api/admin/orders', () => {
  it('searches by number (exact or prefix, any case), e-mail, phone digits and name', async () => {
    const email = `search-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const phoneDigits = `0809${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    const name = `Chiamaka Searchable ${letters}`;
    const { order } = await placeOrder({ customer: { ...customer, email, phone: phoneDigits, name } });
    const other = await orderFor('other');

    const numbers = async (q: string) => (await list(`q=${encodeURIComponent(q)}`)).orders.map((o) => o.number);
    expect(await numbers(order.number)).toEqual([order.number]);
    expect(await numbers(order.number.toLowerCase())).toEqual([order.number]);
    // A prefix, without "GTS-", lower case: this order is among those it matches, the other is not unless it shares the prefix.
    const prefix = order.number.slice(4, 10).toLowerCase();
    const byPrefix = await numbers(prefix);
    expect(byPrefix).toContain(order.number);
    expect(byPrefix.every((n) => n.startsWith(`GTS-${prefix.toUpperCase()}`))).toBe(true);
    expect(await numbers(email.slice(0, 15).toUpperCase())).toEqual([order.number]);
    expect(await numbers(`${phoneDigits.slice(0, 4)} ${phoneDigits.slice(4, 7)} ${phoneDigits.slice(7)}`)).toEqual([
      order.number,
    ]);
    expect(await numbers(`+234${phoneDigits.slice(1)}`)).toEqual([order.number]);
    expect(await numbers(name.split(' ')[2]!.toUpperCase())).toEqual([order.number]);
    expect(await numbers(`zz-nothing-${crypto.randomUUID()}`)).toEqual([]);
    expect(await numbers(order.number)).not.toContain(other.order.number);

    // A Yoruba name, with its tone marks and dots (precomposed, or as combining marks): found as
    // typed, in capitals, and plain as staff type it.
    const tag = letters.slice(0, 5);
    const yoruba = await placeOrder({
      customer: { ...customer, email: `yoruba-${tag}@example.com`, name: `Ọlábísí Àjàyí ${tag}` },
    });
    const decomposed = await placeOrder({
      customer: { ...customer, email: `nfd-${tag}@example.com`, name: `Ade${'\u0301'}o${'\u0323'}la${'\u0301'} ${tag}` },
    });
    for (const q of ['Ọlábísí', 'ỌLÁBÍSÍ', 'olabisi', 'Olabisi Ajayi', 'àjàyí']) {
      expect(await numbers(q), q).toContain(yoruba.order.number);
    }
    for (const q of ['Adéọlá', 'ADEOLA', 'adeola']) expect(await numbers(q), q).toContain(decomposed.order.number);

    const [summary] = (await list(`q=${order.number}`)).orders;
    expect(summary).toEqual({
      number: order.number,
      status: 'awaiting_payment',
      createdAt: order.createdAt,
      customerName: name,
      email,
      phone: `+234${phoneDigits.slice(1)}`,
      deliveryMethod: 'delivery',
      items: 1,
      total: order.total,
      received: 0,
      reportedAt: null,
      expiresAt: order.expiresAt,
      overdue: false,
    });
  });

  it('filters by status, pages newest first (20 a page) and counts every status over the whole store', async () => {
    const tag = `paging${crypto.randomUUID().slice(0, 6)}`;
    const placed: PlacedOrder[] = [];
    for (let i = 0; i < 21; i++) placed.push(await orderFor(tag));
    // Distinct creation times, oldest first in `placed`.
    const base = Math.floor(Date.now() / 1000) - 3 * HOUR;
    for (const [i, p] of placed.entries()) {
      await env.DB.prepare('update orders set created_at = ? where number = ?')
        .bind(base + i * 60, p.order.number)
        .run();
    }
    await reportPayment(placed[3]!);

    const first = await list(`q=${tag}`);
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: 21 });
    const newestFirst = placed.map((p) => p.order.number).reverse();
    expect(first.orders.map((o) => o.number)).toEqual(newestFirst.slice(0, 20));
    const second = await list(`q=${tag}&page=2`);
    expect(second).toMatchObject({ page: 2, total: 21 });
    expect(second.orders.map((o) => o.number)).toEqual(newestFirst.slice(20));

    const reported = await list(`q=${tag}&status=payment_reported`);
    expect(reported.total).toBe(1);
    expect(reported.orders.map((o) => o.number)).toEqual([placed[3]!.order.number]);
    expect(reported.orders[0]!.reportedAt).not.toBeNull();

    // The counts are the store's, whatever the filter and search.
    const { results } = await env.DB.prepare('select status, count(*) as n from orders group by status').all<{
      status: string;
      n: number;
    }>();
    const expected = Object.fromEntries(ORDER_STATUSES.map((s) => [s, results.find((r) => r.status === s)?.n ?? 0]));
    expect(reported.counts).toEqual(expected);
    expect((await list()).counts).toEqual(expected);
    expect(expected.awaiting_payment).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it('flags a reported transfer unconfirmed for longer than PAYMENT_REPORT_ALERT_HOURS (12) as overdue', async () => {
    const [late, recent] = [await orderFor('late'), await orderFor('recent')];
    await reportPayment(late);
    await reportPayment(recent);
    const backdateReport = (number: string, hoursAgo: number) =>
      env.DB.prepare(
        "update order_events set created_at = unixepoch() - ? where to_status = 'payment_reported' and order_id = (select id from orders where number = ?)",
      )
        .bind(Math.round(hoursAgo * HOUR), number)
        .run();
    await backdateReport(late.order.number, 13);
    await backdateReport(recent.order.number, 11);

    const [lateSummary] = (await list(`q=${late.order.number}`)).orders;
    const [recentSummary] = (await list(`q=${recent.order.number}`)).orders;
    expect(lateSummary).toMatchObject({ status: 'payment_reported', overdue: true });
    expect(Date.now() - Date.parse(lateSummary!.reportedAt!)).toBeGreaterThan(13 * HOUR * 1000 - 60_000);
    expect(recentSummary).toMatchObject({ status: 'payment_reported', overdue: false });
    expect((await detail(late.order.number)).overdue).toBe(true);
    expect((await detail(recent.order.number)).overdue).toBe(false);
  });

  it('expires an order whose hold ran out before listing it', async () => {
    const { order } = await orderFor('expired-on-read');
    await env.DB.prepare('update orders set expires_at = unixepoch() - 60 where number = ?').bind(order.number).run();
    const [summary] = (await list(`q=${order.number}`)).orders;
    expect(summary).toMatchObject({ status: 'expired', expiresAt: null });
    expect((await orderRow(order.number)).status).toBe('expired');
  });

  it('refuses an unknown status and a page below 1, naming the field', async () => {
    for (const [query, field] of [
      ['status=lost', 'status'],
      ['page=0', 'page'],
      [`q=${'x'.repeat(101)}`, 'q'],
    ] as const) {
      const response = await admin.browser.get(`/admin/orders?${query}`);
      expect(response.status).toBe(400);
      const { error } = await response.json<ErrorJson>();
      expect(error.code).toBe('invalid_request');
      expect(error.issues?.map((i) => i.field)).toEqual([field]);
    }
  });
});

describe('GET /api/admin/orders/:number', () => {
  it("shows the shopper's view of the order, its version and its history", async () => {
    const placed = await orderFor('detail');
    const shown = await detail(placed.order.number);
    expect(shown.order).toEqual(await shopperView(placed));
    expect(shown).toMatchObject({ overdue: false, payment: null, shipment: null, audit: [] });
    expect(shown.version).toMatch(/^awaiting_payment\./);
    expect(shown.history).toEqual([
      { from: null, to: 'awaiting_payment', actor: 'customer', by: null, note: null, at: placed.order.createdAt },
    ]);
    // Any move gives a new version.
    await reportPayment(placed);
    const after = await detail(placed.order.number);
    expect(after.version).not.toBe(shown.version);
    expect(after.history.at(-1)).toMatchObject({ from: 'awaiting_payment', to: 'payment_reported', actor: 'customer', by: null });
  });

  it('answers an unknown number with 404 and a malformed one with 400 naming `number`', async () => {
    const unknown = await admin.browser.get('/admin/orders/GTS-ZZZZZZZZZZ');
    expect(unknown.status).toBe(404);
    expect((await unknown.json<ErrorJson>()).error.code).toBe('order_not_found');
    const malformed = await admin.browser.get('/admin/orders/order-12');
    expect(malformed.status).toBe(400);
    expect((await malformed.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['number']);
    const moveUnknown = await move('GTS-ZZZZZZZZZZ', 'deliver', { version: 'x' });
    expect(moveUnknown.status).toBe(404);
  });
});

describe('POST /api/admin/orders/:number/…', () => {
  it('confirms a reported payment, ships and delivers, each seen by the shopper, recorded with the admin and audited', async () => {
    const placed = await orderFor('walk');
    const { number, total } = placed.order;
    await reportPayment(placed);

    const start = await detail(number);
    const paid = await moved(number, 'confirm-payment', {
      version: start.version,
      amountReceivedNaira: naira(total) + 0.5,
      bankReference: '  NIP-000123456789  ',
    });
    expect(paid.order.status).toBe('paid');
    expect(paid.payment).toEqual({
      received: total + 50,
      reference: 'NIP-000123456789',
      confirmedBy: admin.email,
      confirmedAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(paid.payment!.confirmedAt) - Date.now())).toBeLessThan(60_000);
    expect(paid.history.at(-1)).toMatchObject({ from: 'payment_reported', to: 'paid', actor: 'admin', by: admin.email });
    expect((await shopperView(placed)).status).toBe('paid');
    expect(await orderRow(number)).toMatchObject({ payment_confirmed_by: admin.id, payment_received_kobo: total + 50 });

    const shipped = await moved(number, 'ship', {
      version: paid.version,
      carrier: 'GIG Logistics',
      trackingNote: 'Waybill 55501 · rider Musa 0803 000 0000',
    });
    expect(shipped.order.status).toBe('shipped');
    expect(shipped.shipment).toEqual({ carrier: 'GIG Logistics', trackingNote: 'Waybill 55501 · rider Musa 0803 000 0000' });
    const seen = await shopperView(placed);
    expect(seen.status).toBe('shipped');
    expect(seen.shipment).toEqual(shipped.shipment);

    const delivered = await moved(number, 'deliver', { version: shipped.version });
    expect(delivered.order.status).toBe('delivered');
    const lookup = await postJson('/orders/lookup', { number, email: placed.order.customer.email });
    expect((await lookup.json<{ order: OrderView }>()).order.status).toBe('delivered');

    expect(await eventsOf(number)).toEqual([
      { from: null, to: 'awaiting_payment', actor: 'customer' },
      { from: 'awaiting_payment', to: 'payment_reported', actor: 'customer' },
      { from: 'payment_reported', to: 'paid', actor: 'admin' },
      { from: 'paid', to: 'shipped', actor: 'admin' },
      { from: 'shipped', to: 'delivered', actor: 'admin' },
    ]);
    expect(delivered.history.filter((h) => h.actor === 'admin').map((h) => h.by)).toEqual([
      admin.email,
      admin.email,
      admin.email,
    ]);
    expect(await auditRows(number)).toEqual([
      {
        action: 'confirm_payment',
        actorUserId: admin.id,
        actorEmail: admin.email,
        changes: {
          status: { from: 'payment_reported', to: 'paid' },
          paymentReceived: { from: null, to: total + 50 },
          paymentReference: { from: null, to: 'NIP-000123456789' },
        },
      },
      {
        action: 'ship',
        actorUserId: admin.id,
        actorEmail: admin.email,
        changes: {
          status: { from: 'paid', to: 'shipped' },
          carrier: { from: null, to: 'GIG Logistics' },
          trackingNote: { from: null, to: 'Waybill 55501 · rider Musa 0803 000 0000' },
        },
      },
      {
        action: 'deliver',
        actorUserId: admin.id,
        actorEmail: admin.email,
        changes: { status: { from: 'shipped', to: 'delivered' } },
      },
    ]);
    // The detail's trail: newest first, by the admin's e-mail.
    expect(delivered.audit.map((a) => [a.action, a.by])).toEqual([
      ['deliver', admin.email],
      ['ship', admin.email],
      ['confirm_payment', admin.email],
    ]);

    // The shopper's e-mails: one per move, the shipped one with the carrier and the note.
    const emails = await emailsOf(number);
    expect(emails.map((e) => e.subject)).toEqual([
      `Your GTS order ${number}: transfer details`,
      `Your GTS order ${number}: payment reported, waiting for us to confirm the transfer`,
      `Your GTS order ${number}: paid, being packed`,
      `Your GTS order ${number}: on its way to you`,
      `Your GTS order ${number}: delivered`,
    ]);
    expect(emails[3]!.text).toContain('Carrier: GIG Logistics\nTracking: Waybill 55501 · rider Musa 0803 000 0000');
  });

  it('confirms a transfer seen before the shopper reported it (awaiting payment → paid), with the exact total', async () => {
    const placed = await orderFor('early');
    const { version } = await detail(placed.order.number);
    const paid = await moved(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total),
      bankReference: 'TRF/2026/001',
    });
    expect(paid.order.status).toBe('paid');
    expect(paid.payment?.received).toBe(placed.order.total);
    expect((await shopperView(placed)).status).toBe('paid');
  });

  describe('a transfer found on the statement after the order expired', () => {
    /** An order whose hold ran out, expired as the shopper looks at it: its units are back on sale. */
    async function expiredOrder(label: string, secondsAgo?: number) {
      const placed = await orderFor(label);
      await makeOverdue(placed.order.number, secondsAgo);
      expect((await shopperView(placed)).status).toBe('expired');
      return placed;
    }
    const confirmLate = async (placed: PlacedOrder) =>
      move(placed.order.number, 'confirm-payment', {
        version: (await detail(placed.order.number)).version,
        amountReceivedNaira: naira(placed.order.total),
        bankReference: 'NIP-LATE-0001',
      });

    it('revives it as paid: its units taken again, the money recorded, the shopper told', async () => {
      const placed = await expiredOrder('late');
      const { number, total } = placed.order;
      const stock = await stockOf(PS5.id, PS5.variant);
      const response = await confirmLate(placed);
      expect(response.status, await response.clone().text()).toBe(200);
      expect(adminOrderDetailSchema.parse(await response.json()).order.status).toBe('paid');
      expect(await stockOf(PS5.id, PS5.variant)).toBe(stock - 1);
      expect((await eventsOf(number)).map((e) => [e.from, e.to, e.actor])).toEqual([
        [null, 'awaiting_payment', 'customer'],
        ['awaiting_payment', 'expired', 'system'],
        ['expired', 'paid', 'admin'],
      ]);
      expect(await orderRow(number)).toMatchObject({ payment_received_kobo: total, payment_reference: 'NIP-LATE-0001' });
      const payment = await env.DB.prepare(
        'select provider, via, outcome, amount_kobo as amount from provider_payments where order_id = (select id from orders where number = ?)',
      )
        .bind(number)
        .first();
      expect(payment).toEqual({ provider: 'store_account', via: 'admin', outcome: 'paid', amount: total });
      expect((await emailsOf(number)).at(-1)!.subject).toContain('paid');
      expect((await shopperView(placed)).status).toBe('paid');
    });

    it('its units sold meanwhile: 409 saying to refund, and nothing changes', async () => {
      const placed = await expiredOrder('late-sold');
      const stock = await stockOf(PS5.id, PS5.variant);
      await setStock(PS5.id, 0, PS5.variant);
      try {
        const refused = await confirmLate(placed);
        expect(refused.status).toBe(409);
        const { error } = await refused.json<ErrorJson>();
        expect(error).toMatchObject({
          code: 'late_payment_out_of_stock',
          message: expect.stringContaining('Refund the transfer'),
        });
        expect(await stockOf(PS5.id, PS5.variant)).toBe(0);
        expect((await orderRow(placed.order.number)).status).toBe('expired');
        expect(await auditRows(placed.order.number)).toEqual([]);
        const payments = await env.DB.prepare(
          'select count(*) as n from provider_payments where order_id = (select id from orders where number = ?)',
        )
          .bind(placed.order.number)
          .first<{ n: number }>();
        expect(payments!.n).toBe(0);
      } finally {
        await setStock(PS5.id, stock, PS5.variant);
      }
    });

    it('its product taken off sale: 409 saying to refund, and nothing changes', async () => {
      const placed = await expiredOrder('late-gone');
      await env.DB.prepare('update products set active = 0 where id = ?').bind(PS5.id).run();
      try {
        const refused = await confirmLate(placed);
        expect(refused.status).toBe(409);
        expect((await refused.json<ErrorJson>()).error.code).toBe('late_payment_unsellable');
        expect((await orderRow(placed.order.number)).status).toBe('expired');
      } finally {
        await env.DB.prepare('update products set active = 1 where id = ?').bind(PS5.id).run();
      }
    });

    it('its price changed since: 409 saying to refund, and nothing changes', async () => {
      const placed = await expiredOrder('late-repriced');
      const ordered = placed.order.lines[0]!.unitPrice;
      const stock = await stockOf(PS5.id, PS5.variant);
      await setPrice(PS5.id, ordered + 10_000_000, PS5.variant);
      try {
        const refused = await confirmLate(placed);
        expect(refused.status).toBe(409);
        expect((await refused.json<ErrorJson>()).error).toMatchObject({
          code: 'late_payment_price_changed',
          message: expect.stringContaining('Refund the transfer'),
        });
        expect((await orderRow(placed.order.number)).status).toBe('expired');
        expect(await stockOf(PS5.id, PS5.variant)).toBe(stock);
        expect(await auditRows(placed.order.number)).toEqual([]);
      } finally {
        await setPrice(PS5.id, ordered, PS5.variant);
      }
    });

    it('expired more than LATE_PAYMENT_HOURS ago: 409 saying to refund, and nothing changes', async () => {
      const placed = await expiredOrder('late-weeks', (readConfig(env).LATE_PAYMENT_HOURS + 1) * 3600);
      const refused = await confirmLate(placed);
      expect(refused.status).toBe(409);
      expect((await refused.json<ErrorJson>()).error.code).toBe('late_payment_too_late');
      expect((await orderRow(placed.order.number)).status).toBe('expired');
      expect(await auditRows(placed.order.number)).toEqual([]);
    });
  });

  it('refuses an amount received with a fraction of a kobo (it would be rounded to another amount), changing nothing', async () => {
    const placed = await orderFor('sub-kobo');
    const { version } = await detail(placed.order.number);
    const response = await move(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total) - 0.001,
      bankReference: 'SUBKOBO-001',
    });
    expect(response.status).toBe(400);
    // However small the fraction: a hair under the total is not rounded up to it.
    const hair = await move(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total) - 0.000000001,
      bankReference: 'SUBKOBO-002',
    });
    expect(hair.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues).toEqual([
      expect.objectContaining({ field: 'amountReceivedNaira', message: 'At most two decimals (kobo)' }),
    ]);
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
    expect(await auditRows(placed.order.number)).toEqual([]);
  });

  it("refuses an amount below the order's total with 400 naming amountReceivedNaira and the total, changing nothing", async () => {
    const placed = await orderFor('short');
    const { version } = await detail(placed.order.number);
    const response = await move(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total) - 0.01,
      bankReference: 'SHORT-001',
    });
    expect(response.status).toBe(400);
    const { error } = await response.json<ErrorJson>();
    expect(error.code).toBe('invalid_request');
    expect(error.issues?.map((i) => i.field)).toEqual(['amountReceivedNaira']);
    // Written as every other amount in the store: ₦180,500, not ₦180,500.00.
    expect(placed.order.total % 100).toBe(0);
    expect(error.issues?.[0]?.message).toContain(`Less than the order's total of ${formatNaira(placed.order.total)}:`);
    expect(error.issues?.[0]?.message).not.toContain('.00');
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
    expect(await auditRows(placed.order.number)).toEqual([]);

    // With a part in already (as a provider reports one), the balance alone is the likely
    // mistake: the message says to enter all that arrived.
    await env.DB.prepare('update orders set amount_paid_kobo = 1000000 where number = ?').bind(placed.order.number).run();
    const balance = await move(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total) - 10_000,
      bankReference: 'REST-001',
    });
    expect(balance.status).toBe(400);
    expect((await balance.json<ErrorJson>()).error.issues?.[0]?.message).toBe(
      `Less than the order's total of ${formatNaira(placed.order.total)}: enter all that arrived for this order, the ₦10,000 that arrived before included.`,
    );
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
  });

  it('refuses a body the schema refuses, naming each field', async () => {
    const placed = await orderFor('invalid');
    const { version } = await detail(placed.order.number);
    const noReference = await move(placed.order.number, 'confirm-payment', { version, amountReceivedNaira: 'lots' });
    expect(noReference.status).toBe(400);
    expect((await noReference.json<ErrorJson>()).error.issues?.map((i) => i.field).sort()).toEqual([
      'amountReceivedNaira',
      'bankReference',
    ]);
    const shortReason = await move(placed.order.number, 'cancel', { version, reason: 'no' });
    expect(shortReason.status).toBe(400);
    expect((await shortReason.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['reason']);
    const noVersion = await move(placed.order.number, 'deliver', {});
    expect(noVersion.status).toBe(400);
    expect((await noVersion.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['version']);
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
  });

  it('refuses a move the state machine does not allow with 409 illegal_transition, changing nothing', async () => {
    const placed = await orderFor('illegal');
    const { version } = await detail(placed.order.number);
    for (const action of ['ship', 'deliver'] as const) {
      const response = await move(placed.order.number, action, { version });
      expect(response.status).toBe(409);
      expect((await response.json<ErrorJson>()).error.code).toBe('illegal_transition');
    }
    expect(await eventsOf(placed.order.number)).toHaveLength(1);
    expect(await auditRows(placed.order.number)).toEqual([]);
    expect((await detail(placed.order.number)).version).toBe(version);
  });

  it('refuses a move made on a stale version with 409 order_changed', async () => {
    const placed = await orderFor('stale');
    const { version } = await detail(placed.order.number);
    await reportPayment(placed); // the shopper moves it meanwhile
    const response = await move(placed.order.number, 'confirm-payment', {
      version,
      amountReceivedNaira: naira(placed.order.total),
      bankReference: 'STALE-001',
    });
    expect(response.status).toBe(409);
    expect((await response.json<ErrorJson>()).error.code).toBe('order_changed');
    expect((await orderRow(placed.order.number)).status).toBe('payment_reported');
    expect(await auditRows(placed.order.number)).toEqual([]);
  });

  it('lets exactly one of two admins confirming the same order at once win: one 200, one 409, one history row, one audit row', async () => {
    const second = await signedInAdmin();
    const placed = await orderFor('race');
    await reportPayment(placed);
    const { version } = await detail(placed.order.number);
    const body = (ref: string) => ({ version, amountReceivedNaira: naira(placed.order.total), bankReference: ref });
    const answers = await Promise.all([
      move(placed.order.number, 'confirm-payment', body('RACE-A')),
      move(placed.order.number, 'confirm-payment', body('RACE-B'), second.browser),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expect((await loser.json<ErrorJson>()).error.code).toBe('order_changed');
    expect((await eventsOf(placed.order.number)).filter((e) => e.to === 'paid')).toHaveLength(1);
    const audits = await auditRows(placed.order.number);
    expect(audits).toHaveLength(1);
    // The stored payment is the winner's, and so is the audit row.
    const winner = answers[0]!.status === 200 ? { ref: 'RACE-A', id: admin.id } : { ref: 'RACE-B', id: second.id };
    expect(await orderRow(placed.order.number)).toMatchObject({ payment_reference: winner.ref, payment_confirmed_by: winner.id });
    expect(audits[0]).toMatchObject({ action: 'confirm_payment', actorUserId: winner.id });
    expect((await emailsOf(placed.order.number)).filter((e) => e.subject.endsWith('paid, being packed'))).toHaveLength(1);
  });

  it("cancels with a reason: the stock goes back, the reason is the history note and is in the shopper's e-mail and view", async () => {
    const id = 'samsung-25w-usb-c-charger';
    const stock = await stockOf(id);
    const placed = await orderFor('cancel', { lines: [await line(id, 2)] });
    expect(await stockOf(id)).toBe(stock - 2);
    await reportPayment(placed);
    const { version } = await detail(placed.order.number);
    const reason = 'The transfer never arrived,\nchecked with the bank';
    const cancelled = await moved(placed.order.number, 'cancel', { version, reason });
    expect(cancelled.order.status).toBe('cancelled');
    // What /track and /orders show, on one line as the e-mail says it.
    const oneLine = 'The transfer never arrived, checked with the bank';
    expect(cancelled.order.cancelReason).toBe(oneLine);
    expect((await shopperView(placed)).cancelReason).toBe(oneLine);
    expect(await stockOf(id)).toBe(stock);
    expect(cancelled.history.at(-1)).toMatchObject({ to: 'cancelled', actor: 'admin', by: admin.email, note: reason });
    expect((await shopperView(placed)).status).toBe('cancelled');
    expect((await emailsOf(placed.order.number)).at(-1)?.text).toContain(`Reason: ${oneLine}`);
    expect((await auditRows(placed.order.number)).at(-1)).toMatchObject({
      action: 'cancel',
      changes: { status: { from: 'payment_reported', to: 'cancelled' }, reason: { from: null, to: reason } },
    });
    // Cancelling again is illegal, and gives nothing back twice.
    const again = await move(placed.order.number, 'cancel', { version: cancelled.version, reason });
    expect(again.status).toBe(409);
    expect((await again.json<ErrorJson>()).error.code).toBe('illegal_transition');
    expect(await stockOf(id)).toBe(stock);
  });
});
