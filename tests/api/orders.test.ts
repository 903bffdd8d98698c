import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../functions/platform/db.ts';
import { readConfig } from '../../functions/env.ts';
import { placeOrder as placeOrderInD1 } from '../../functions/orders/place.ts';
import { placeOrderSchema } from '../../src/features/orders/checkout.ts';
import type { PlacedOrder } from '../../src/features/orders/order-view.ts';
import { postJson, type ErrorJson } from './client.ts';
import {
  backdate,
  customer,
  emailsOf,
  line,
  orderRequest,
  orderRow,
  placeOrder,
  postOrder,
  PS5,
  rowCounts,
  setPrice,
  setStock,
  SHIPPING,
  stockOf,
  totalStockOf,
  updatedAtOf,
} from './orders-helpers.ts';

/** Sends `body` and expects a refusal with `status` and `code` that stores nothing and leaves stock alone. */
async function expectRefused(body: unknown, status: number, code: string, productId: string = PS5.id) {
  const [before, stockBefore] = [await rowCounts(), await stockOf(productId)];
  const response = await postOrder(body);
  expect(response.status).toBe(status);
  const json = await response.json<ErrorJson>();
  expect(json.error).toMatchObject({ code, message: expect.any(String) });
  expect(await rowCounts()).toEqual(before);
  expect(await stockOf(productId)).toBe(stockBefore);
  return json.error;
}

describe('POST /api/orders: prices come from D1', () => {
  it('charges the D1 price × quantity + ₦1,500 shipping, ignoring totals the request claims', async () => {
    const stock = await stockOf(PS5.id);
    const started = await backdate('products', PS5.id);
    const response = await postOrder({
      ...orderRequest({
        lines: [{ productId: PS5.id, variant: PS5.variant, quantity: 2, price: PS5.price, unitPrice: 1, lineTotal: 2 }],
      }),
      subtotal: 100,
      shipping: 0,
      total: 100,
      orderId: 'free-order',
      number: 'GTS-FREEBIE00',
      status: 'paid',
    });
    expect(response.status).toBe(201);
    const { order, accessToken } = await response.json<PlacedOrder>();

    const subtotal = 2 * PS5.price;
    expect(order).toMatchObject({ status: 'awaiting_payment', subtotal, shipping: SHIPPING, total: subtotal + SHIPPING });
    expect(order.number).toMatch(/^GTS-[0-9A-Z]{10}$/);
    expect(order.lines).toEqual([
      expect.objectContaining({
        productId: PS5.id,
        variant: PS5.variantLabel,
        quantity: 2,
        unitPrice: PS5.price,
        lineTotal: subtotal,
      }),
    ]);
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const row = await orderRow(order.number);
    expect(row).toMatchObject({
      status: 'awaiting_payment',
      subtotal_kobo: subtotal,
      shipping_kobo: SHIPPING,
      total_kobo: 169_950_000,
    });
    expect(await stockOf(PS5.id)).toBe(stock - 2);
    // Reserving the stock is a change to the product: its updated_at moves (drizzle's $onUpdate, inside the batch).
    expect(await updatedAtOf('products', PS5.id)).toBeGreaterThanOrEqual(started);
    expect((await emailsOf(order.number)).map((e) => e.subject)).toEqual([`Your GTS order ${order.number}: transfer details`]);
  });

  it('refuses an old price with 409 price_changed naming the line, then takes the new one', async () => {
    const id = 'apple-iphone-17';
    const old = await line(id);
    await setPrice(id, old.price - 5_000_000);

    const error = await expectRefused(orderRequest({ lines: [old] }), 409, 'price_changed', id);
    expect(error.issues).toEqual([{ field: 'lines.0.price', message: expect.stringContaining('₦1,299,000') }]);

    const placed = await placeOrder({ lines: [{ ...old, price: old.price - 5_000_000 }] });
    expect(placed.order.subtotal).toBe(old.price - 5_000_000);
  });

  it('stores the customer normalised: e-mail lower-cased, phone as +234…', async () => {
    const { order } = await placeOrder({ customer: { ...customer, email: ' Ada.Obi@Example.COM ', phone: '(0803)-123-4567' } });
    expect(order.customer).toMatchObject({ email: 'ada.obi@example.com', phone: '+2348031234567', state: 'Lagos' });
  });

  it('holds an unpaid order for ORDER_HOLD_HOURS (12 by default)', async () => {
    const { order } = await placeOrder();
    expect(order.holdHours).toBe(12);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBe(12 * 3_600_000);
    const row = await orderRow(order.number);
    expect(row.expires_at - row.created_at).toBe(12 * 3600);
    expect(order.payment).toEqual({
      bankName: 'First Bank',
      accountName: 'GTS Electronics Ltd',
      accountNumber: '3081726354',
      amount: order.total,
      reference: order.number,
      due: true,
      // No payment provider here: the shared account, confirmed by a person (tests/api/payments.test.ts has the rest).
      ownAccount: false,
      received: 0,
      takesPaymentUntil: null,
    });
  });
});

describe('the hold time', () => {
  it('follows ORDER_HOLD_HOURS when it is set', async () => {
    const config = readConfig({ ...env, ORDER_HOLD_HOURS: '6' });
    const { order } = await placeOrderInD1(openDb(env.DB), config, placeOrderSchema.parse(orderRequest()));
    expect(order.holdHours).toBe(6);
    const row = await orderRow(order.number);
    expect(row.expires_at - row.created_at).toBe(6 * 3600);
  });
});

describe('POST /api/orders: refusals store nothing', () => {
  const withLine = (change: Record<string, unknown>) =>
    orderRequest({ lines: [{ productId: PS5.id, variant: PS5.variant, quantity: 1, price: PS5.price, ...change }] });
  const withCustomer = (change: Record<string, unknown>) => orderRequest({ customer: { ...customer, ...change } });

  it.each([
    ['a zero quantity', withLine({ quantity: 0 }), 'lines.0.quantity'],
    ['a negative quantity', withLine({ quantity: -2 }), 'lines.0.quantity'],
    ['a fractional quantity', withLine({ quantity: 1.5 }), 'lines.0.quantity'],
    ['a huge quantity', withLine({ quantity: 1e9 }), 'lines.0.quantity'],
    ['a quantity over 5 (MAX_UNITS_PER_PRODUCT)', withLine({ quantity: 6 }), 'lines.0.quantity'],
    ['a quantity as text', withLine({ quantity: '2' }), 'lines.0.quantity'],
    ['a negative price', withLine({ price: -1 }), 'lines.0.price'],
    ['a product id that cannot be one', withLine({ productId: 'DROP TABLE' }), 'lines.0.productId'],
    ['no lines', orderRequest({ lines: [] }), 'lines'],
    [
      'the same product and variant twice',
      orderRequest({
        lines: [
          { productId: PS5.id, variant: PS5.variant, quantity: 1, price: PS5.price },
          { productId: PS5.id, variant: PS5.variant, quantity: 2, price: PS5.price },
        ],
      }),
      'lines.1',
    ],
    ['a non-Nigerian phone', withCustomer({ phone: '+44 20 7946 0958' }), 'customer.phone'],
    ['a landline-length phone', withCustomer({ phone: '12345' }), 'customer.phone'],
    ['a state not in the list', withCustomer({ state: 'London' }), 'customer.state'],
    ['an invalid e-mail', withCustomer({ email: 'ada@' }), 'customer.email'],
    ['a missing name', withCustomer({ name: undefined }), 'customer.name'],
    ['a one-letter name', withCustomer({ name: 'A' }), 'customer.name'],
    ['a short address', withCustomer({ address: '12' }), 'customer.address'],
    ['no customer', orderRequest({ customer: undefined }), 'customer'],
    ['no idempotency key', orderRequest({ idempotencyKey: undefined }), 'idempotencyKey'],
    ['a short idempotency key', orderRequest({ idempotencyKey: 'abc123' }), 'idempotencyKey'],
    ['an idempotency key with spaces', orderRequest({ idempotencyKey: 'not a valid key at all' }), 'idempotencyKey'],
    ['a JSON array', [orderRequest()], '(body)'],
    ['a JSON string', JSON.stringify('order please'), '(body)'],
  ])('refuses %s with 400 invalid_request naming %s', async (_, body, field) => {
    const error = await expectRefused(body, 400, 'invalid_request');
    expect(error.issues?.map((i) => i.field)).toContain(field);
  });

  it('says a negative price is negative (it is a number)', async () => {
    const error = await expectRefused(withLine({ price: -1 }), 400, 'invalid_request');
    expect(error.issues).toContainEqual({ field: 'lines.0.price', message: 'Price cannot be negative' });
  });

  it.each([
    ['an unknown product', { productId: 'nokia-3310-classic' }, 'lines.0.productId'],
    ['an unknown variant', { variant: 'Blu-ray Edition' }, 'lines.0.variant'],
    ['no variant where one must be chosen', { variant: '' }, 'lines.0.variant'],
    [
      'a variant of a product that has none',
      { productId: 'mario-kart-world', variant: 'Deluxe', price: 8_950_000 },
      'lines.0.variant',
    ],
  ])('refuses %s (checked against D1) with 400 naming %s', async (_, change, field) => {
    const error = await expectRefused(withLine(change), 400, 'invalid_request');
    expect(error.issues).toEqual([{ field, message: expect.any(String) }]);
  });

  it('names every bad line, not just the first', async () => {
    const body = orderRequest({
      lines: [
        await line('hisense-55-a6-4k'),
        { ...(await line('jbl-flip-7')), variant: 'Gold' },
        { ...(await line('ghost-of-yotei')), productId: 'no-such-game' },
      ],
    });
    const error = await expectRefused(body, 400, 'invalid_request');
    expect(error.issues?.map((i) => i.field).sort()).toEqual(['lines.1.variant', 'lines.2.productId']);
  });

  it('refuses an archived product as unknown', async () => {
    const archived = await line('hisense-55-a6-4k');
    await env.DB.prepare('update products set active = 0 where id = ?').bind(archived.productId).run();
    const error = await expectRefused(orderRequest({ lines: [archived] }), 400, 'invalid_request', archived.productId);
    expect(error.issues?.[0]?.field).toBe('lines.0.productId');
    await env.DB.prepare('update products set active = 1 where id = ?').bind(archived.productId).run();
  });

  it('answers malformed JSON with 400 bad_request naming the body, not a 500', async () => {
    const error = await expectRefused('{"idempotencyKey": "abc', 400, 'bad_request');
    expect(error.issues).toEqual([{ field: '(body)', message: expect.stringMatching(/JSON/) }]);
  });
});

describe('POST /api/orders: stock', () => {
  it('refuses a sold-out product with 409 out_of_stock naming the line', async () => {
    const soldOut = await line('valve-steam-deck-oled');
    expect(await stockOf(soldOut.productId)).toBe(0);
    const error = await expectRefused(
      orderRequest({ lines: [await line('lg-43-ut80-4k'), soldOut] }),
      409,
      'out_of_stock',
      soldOut.productId,
    );
    expect(error.issues).toEqual([{ field: 'lines.1.quantity', message: expect.stringContaining('sold out') }]);
  });

  it("refuses more than the variant's own stock, whatever its other variants hold", async () => {
    const id = 'microsoft-xbox-series-x';
    await setStock(id, 3, '1tb-carbon-black');
    await setStock(id, 1, '2tb-galaxy-black');
    const error = await expectRefused(
      orderRequest({ lines: [await line(id, 2, '1tb-carbon-black'), await line(id, 2, '2tb-galaxy-black')] }),
      409,
      'out_of_stock',
      id,
    );
    expect(error.issues).toEqual([
      { field: 'lines.1.quantity', message: 'Only 1 of Microsoft Xbox Series X (2TB Galaxy Black) left' },
    ]);

    await placeOrder({ lines: [await line(id, 2, '1tb-carbon-black'), await line(id, 1, '2tb-galaxy-black')] });
    expect([await stockOf(id, '1tb-carbon-black'), await stockOf(id, '2tb-galaxy-black'), await totalStockOf(id)]).toEqual([
      1, 0, 1,
    ]);
  });

  it('charges no delivery fee for pick-up at the store, needs no address and stores the method', async () => {
    const { address: _a, city: _c, state: _s, ...contact } = customer;
    const response = await postOrder(orderRequest({ customer: { ...contact, delivery: 'pickup' } }));
    expect(response.status, await response.clone().text()).toBe(201);
    const { order } = await response.json<PlacedOrder>();
    expect(order).toMatchObject({ deliveryMethod: 'pickup', subtotal: PS5.price, shipping: 0, total: PS5.price });
    expect(order.customer).toMatchObject({ address: '', city: '', state: '' });
    expect(await orderRow(order.number)).toMatchObject({ shipping_kobo: 0, total_kobo: PS5.price, delivery_method: 'pickup' });
    const [confirmation] = await emailsOf(order.number);
    expect(confirmation?.text).toContain('Pick-up at GTS store, 23 Otigba Street, Computer Village, Ikeja, Lagos: free');
    expect(confirmation?.text).not.toContain('Shipping:');
  });

  it('charges ₦1,500 for delivery, and refuses delivery without an address, naming the fields', async () => {
    const delivered = await placeOrder({ customer: { ...customer, delivery: 'delivery' } });
    expect(delivered.order).toMatchObject({ deliveryMethod: 'delivery', shipping: SHIPPING, total: PS5.price + SHIPPING });
    const { address: _a, city: _c, state: _s, ...contact } = customer;
    const refused = await postOrder(orderRequest({ customer: { ...contact, delivery: 'delivery' } }));
    expect(refused.status).toBe(400);
    const { error } = await refused.json<ErrorJson>();
    expect(error.issues?.map((i) => i.field)).toEqual(['customer.address', 'customer.city', 'customer.state']);
  });

  it('prices each variant at its own price and stores the variant on the order line', async () => {
    const id = 'apple-iphone-17';
    const response = await postOrder(orderRequest({ lines: [await line(id, 1, '512gb')] }));
    expect(response.status).toBe(201);
    const { order } = await response.json<PlacedOrder>();
    expect(order.lines).toEqual([expect.objectContaining({ variant: '512GB', unitPrice: 174_900_000 })]);
    expect(order.subtotal).toBe(174_900_000);
    const stored = await env.DB.prepare(
      'select variant, variant_id as variantId, unit_price_kobo as price from order_lines where order_id = (select id from orders where number = ?)',
    )
      .bind(order.number)
      .first();
    expect(stored).toEqual({ variant: '512GB', variantId: '512gb', price: 174_900_000 });
  });
});

describe('POST /api/orders: idempotency', () => {
  it('answers a retried key with the same order: 201 once, then 200, stock taken once', async () => {
    const id = 'jbl-flip-7';
    const stock = await stockOf(id);
    const body = orderRequest({ lines: [await line(id, 2)] });
    const before = await rowCounts();

    const answers = [];
    for (let i = 0; i < 4; i++) {
      const response = await postOrder(body);
      answers.push({ status: response.status, ...(await response.json<PlacedOrder>()) });
    }
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200]);
    for (const replay of answers.slice(1)) expect(replay).toEqual({ ...answers[0], status: 200 });
    expect(await rowCounts()).toMatchObject({
      orders: before.orders + 1,
      orderLines: before.orderLines + 1,
      emails: before.emails + 1,
    });
    expect(await stockOf(id)).toBe(stock - 2);
  });

  it('places one order when the same key arrives 10 times at once', async () => {
    const id = 'hisense-32-a4-hd';
    const stock = await stockOf(id);
    const body = orderRequest({ lines: [await line(id, 3)] });
    const before = await rowCounts();

    const responses = await Promise.all(Array.from({ length: 10 }, () => postOrder(body)));
    const answers = await Promise.all(responses.map(async (r) => ({ status: r.status, ...(await r.json<PlacedOrder>()) })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.order.number)).size).toBe(1);
    expect(new Set(answers.map((a) => a.accessToken)).size).toBe(1);
    expect(await rowCounts()).toMatchObject({
      orders: before.orders + 1,
      orderLines: before.orderLines + 1,
      orderEvents: before.orderEvents + 1,
    });
    expect(await stockOf(id)).toBe(stock - 3);
  });

  it('refuses the same key with a different body: 422 idempotency_key_reused', async () => {
    const first = orderRequest();
    await placeOrder(first);
    const changed = { ...first, lines: [{ ...first.lines[0]!, quantity: 2 }] };
    const error = await expectRefused(changed, 422, 'idempotency_key_reused');
    expect(error.issues).toEqual([{ field: 'idempotencyKey', message: expect.any(String) }]);
  });

  it('gives each key its own order and access token', async () => {
    const [a, b] = [await placeOrder(), await placeOrder()];
    expect(a.order.number).not.toBe(b.order.number);
    expect(a.accessToken).not.toBe(b.accessToken);
  });
});

describe('POST /api/orders: concurrent checkouts never oversell', () => {
  it.each([
    { id: 'tecno-spark-40-pro', stock: 5, each: 1, shoppers: 25 },
    { id: 'itel-a90', stock: 7, each: 2, shoppers: 12 },
  ])(
    '$shoppers shoppers for $each of $stock in stock: only whole orders that fit succeed',
    async ({ id, stock, each, shoppers }) => {
      await setStock(id, stock);
      const orderLine = await line(id, each);
      const responses = await Promise.all(
        Array.from({ length: shoppers }, () => postOrder(orderRequest({ lines: [orderLine] }))),
      );

      const winners = Math.floor(stock / each);
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(winners);
      expect(statuses.filter((s) => s === 409)).toHaveLength(shoppers - winners);
      for (const refused of responses.filter((r) => r.status === 409)) {
        const { error } = await refused.json<ErrorJson>();
        expect(error.code).toBe('out_of_stock');
        expect(error.issues?.[0]?.field).toBe('lines.0.quantity');
      }
      expect(await stockOf(id)).toBe(stock - winners * each);
      const sold = await env.DB.prepare(
        'select sum(quantity) as n, count(distinct order_id) as orders from order_lines where product_id = ?',
      )
        .bind(id)
        .first<{ n: number; orders: number }>();
      expect(sold).toEqual({ n: winners * each, orders: winners });
    },
  );
});

describe('POST /api/orders/quote', () => {
  it('prices lines from D1 and says what stops each one', async () => {
    const response = await postJson('/orders/quote', {
      lines: [await line('lg-65-oled-evo-c5', 1), await line('google-pixel-10-pro')],
    });
    expect(response.status).toBe(200);
    const quote = await response.json<{ ok: boolean; subtotal: number; lines: { problem?: { kind: string } }[] }>();
    expect(quote.ok).toBe(false);
    expect(quote.lines.map((l) => l.problem?.kind)).toEqual([undefined, 'insufficient_stock']);
    expect(quote.subtotal).toBe(384_900_000 + 174_900_000);
  });
});
