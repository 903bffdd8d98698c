import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, dashboardSchema } from '../../src/features/admin/admin-api.ts';
import type { Browser } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import { postJson } from './client.ts';
import { placeOrder, PS5, setStock } from './orders-helpers.ts';

const HOUR = 3600;
const DAY = 86_400;

let admin: { browser: Browser; email: string; id: string };

beforeAll(async () => {
  await setStock(PS5.id, 500);
  admin = await signedInAdmin();
});

async function dashboard(): Promise<Dashboard> {
  const response = await admin.browser.get('/admin/dashboard');
  expect(response.status, await response.clone().text()).toBe(200);
  const json = await response.json();
  const parsed = dashboardSchema.parse(json);
  expect(parsed).toEqual(json);
  return parsed;
}

/** The Lagos (UTC+1) calendar day of a unix time in seconds, as days since 1970-01-01. */
const lagosDayNumber = (seconds: number) => Math.floor((seconds + HOUR) / DAY);
const isoDay = (dayNumber: number) => new Date(dayNumber * DAY * 1000).toISOString().slice(0, 10);
const nowSeconds = () => Math.floor(Date.now() / 1000);

const sql = (query: string, ...params: unknown[]) =>
  env.DB.prepare(query)
    .bind(...params)
    .run();

describe('GET /api/admin/dashboard', () => {
  it('has 30 days of orders and revenue (paid, shipped, delivered) by the Lagos day they were placed, zeros included', async () => {
    const before = await dashboard();
    const today = lagosDayNumber(nowSeconds());
    expect(before.daily).toHaveLength(30);
    expect(before.daily.map((d) => d.day)).toEqual(Array.from({ length: 30 }, (_, i) => isoDay(today - 29 + i)));

    const noonDaysAgo = (n: number) => (today - n) * DAY - HOUR + 12 * HOUR;
    const place = async (createdAt: number | null, status: string | null) => {
      const { order } = await placeOrder();
      if (createdAt !== null) await sql('update orders set created_at = ? where number = ?', createdAt, order.number);
      if (status !== null) await sql('update orders set status = ? where number = ?', status, order.number);
      return order;
    };
    const total = (await place(null, null)).total; // today, unpaid: an order, no revenue
    await place(noonDaysAgo(3), 'paid');
    await place(noonDaysAgo(10), 'delivered');
    await place(noonDaysAgo(10), 'cancelled'); // an order, no revenue
    await place(noonDaysAgo(40), 'paid'); // older than the series
    // 23:30 UTC is 00:30 the next day in Lagos: it counts for that day.
    const lateUtc = (today - 6) * DAY + 23 * HOUR + 30 * 60;
    expect(lagosDayNumber(lateUtc)).toBe(today - 5);
    await place(lateUtc, 'shipped');
    // 22:59:59 UTC is still the same day in Lagos (23:59:59).
    await place((today - 8) * DAY - HOUR + DAY - 1, 'expired');

    const after = await dashboard();
    const delta = Object.fromEntries(
      after.daily.map((d, i) => [
        d.day,
        { orders: d.orders - before.daily[i]!.orders, revenue: d.revenue - before.daily[i]!.revenue },
      ]),
    );
    const expected = Object.fromEntries(after.daily.map((d) => [d.day, { orders: 0, revenue: 0 }]));
    expected[isoDay(today)] = { orders: 1, revenue: 0 };
    expected[isoDay(today - 3)] = { orders: 1, revenue: total };
    expected[isoDay(today - 10)] = { orders: 2, revenue: total };
    expected[isoDay(today - 5)] = { orders: 1, revenue: total };
    expected[isoDay(today - 8)] = { orders: 1, revenue: 0 };
    expect(delta).toEqual(expected);
    // The day with only the new orders shows them exactly (no order of this file is older than today).
    expect(after.daily.find((d) => d.day === isoDay(today - 10))).toEqual({ day: isoDay(today - 10), orders: 2, revenue: total });
  });

  it('lists reported transfers oldest first, flagging those older than the alert hours', async () => {
    const report = async () => {
      const placed = await placeOrder();
      const response = await postJson(
        `/orders/${placed.order.number}/payment-report`,
        {},
        { authorization: `Bearer ${placed.accessToken}` },
      );
      expect(response.status).toBe(200);
      return placed.order.number;
    };
    const [recent, old] = [await report(), await report()];
    const reportedAgo = (number: string, seconds: number) =>
      sql(
        "update order_events set created_at = unixepoch() - ? where to_status = 'payment_reported' and order_id = (select id from orders where number = ?)",
        seconds,
        number,
      );
    await reportedAgo(old, 20 * HOUR);
    await reportedAgo(recent, 2 * HOUR);

    const { reportedPayments, alertHours } = await dashboard();
    expect(alertHours).toBe(12);
    const mine = reportedPayments.filter((o) => o.number === old || o.number === recent);
    expect(mine.map((o) => [o.number, o.overdue])).toEqual([
      [old, true],
      [recent, false],
    ]);
    expect(reportedPayments.every((o) => o.status === 'payment_reported')).toBe(true);
    const times = reportedPayments.map((o) => Date.parse(o.reportedAt!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('lists unpaid orders whose hold ends within 12 hours, soonest first', async () => {
    const [soon, sooner, later] = [await placeOrder(), await placeOrder(), await placeOrder()];
    const expiresIn = (number: string, seconds: number) =>
      sql('update orders set expires_at = unixepoch() + ? where number = ?', seconds, number);
    await expiresIn(soon.order.number, 5 * HOUR);
    await expiresIn(sooner.order.number, 1 * HOUR);
    await expiresIn(later.order.number, 13 * HOUR);

    const { expiringSoon } = await dashboard();
    const numbers = expiringSoon.map((o) => o.number);
    expect(numbers).toContain(soon.order.number);
    expect(numbers).not.toContain(later.order.number);
    expect(numbers.indexOf(sooner.order.number)).toBeLessThan(numbers.indexOf(soon.order.number));
    expect(expiringSoon.every((o) => o.status === 'awaiting_payment')).toBe(true);
    const ends = expiringSoon.map((o) => Date.parse(o.expiresAt!));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(ends.every((t) => t > Date.now() && t <= Date.now() + 12 * HOUR * 1000)).toBe(true);
  });

  it('lists products and variants on sale at or below LOW_STOCK_THRESHOLD (3), fewest first', async () => {
    await sql('update products set stock = 0 where id = ?', 'sony-playstation-5-pro');
    await sql("update product_variants set stock = 2 where product_id = 'samsung-25w-usb-c-charger' and label = 'White'");
    await sql("update product_variants set stock = 4 where product_id = 'samsung-25w-usb-c-charger' and label = 'Black'");
    await sql('update products set stock = 3 where id = ?', 'steelseries-apex-pro-tkl-keyboard');
    await sql('update products set stock = 4 where id = ?', 'asus-tuf-gaming-a15');
    // Archived: not on sale, not listed.
    await sql('update products set stock = 0, active = 0 where id = ?', 'ghost-of-yotei');

    const { lowStock, lowStockThreshold } = await dashboard();
    expect(lowStockThreshold).toBe(3);
    const white = await env.DB.prepare(
      "select id from product_variants where product_id = 'samsung-25w-usb-c-charger' and label = 'White'",
    ).first<{ id: string }>();
    expect(lowStock).toContainEqual({
      productId: 'sony-playstation-5-pro',
      variantId: '',
      name: 'Sony PlayStation 5 Pro',
      variant: '',
      stock: 0,
    });
    expect(lowStock).toContainEqual({
      productId: 'samsung-25w-usb-c-charger',
      variantId: white!.id,
      name: 'Samsung 25W USB-C Super Fast Charger',
      variant: 'White',
      stock: 2,
    });
    expect(lowStock.find((l) => l.productId === 'steelseries-apex-pro-tkl-keyboard')?.stock).toBe(3);
    expect(lowStock.some((l) => l.productId === 'asus-tuf-gaming-a15')).toBe(false);
    expect(lowStock.some((l) => l.variant === 'Black' && l.productId === 'samsung-25w-usb-c-charger')).toBe(false);
    expect(lowStock.some((l) => l.productId === 'ghost-of-yotei')).toBe(false);
    // A product with variants is listed by its variants only.
    expect(lowStock.some((l) => l.productId === 'samsung-25w-usb-c-charger' && l.variantId === '')).toBe(false);
    expect(lowStock.every((l) => l.stock <= 3)).toBe(true);
    const stocks = lowStock.map((l) => l.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
    expect(lowStock.length).toBeLessThanOrEqual(50);
  });
});
