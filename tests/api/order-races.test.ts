import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../functions/platform/db.ts';
import { openDb } from '../../functions/platform/db.ts';
import { readConfig } from '../../functions/env.ts';
import { sha256Hex } from '../../functions/platform/crypto.ts';
import { mailboxKey } from '../../functions/platform/mailbox.ts';
import { ApiError } from '../../functions/platform/errors.ts';
import { expireIfOverdue } from '../../functions/orders/expire.ts';
import { findGuestOrder, findOrderByNumber } from '../../functions/orders/find.ts';
import { changeOrderStatus } from '../../functions/orders/move.ts';
import { placeOrder as placeOrderInD1 } from '../../functions/orders/place.ts';
import { placeOrderSchema } from '../../src/features/orders/checkout.ts';
import type { OrderView, PlacedOrder } from '../../src/features/orders/order-view.ts';
import { postJson, type ErrorJson } from './client.ts';
import {
  emailsOf,
  eventsOf,
  line,
  orderRequest,
  placeOrder,
  postOrder,
  productRow,
  rowCounts,
  setPrice,
  setStock,
  stockOf,
} from './orders-helpers.ts';

const db = openDb(env.DB);
const config = readConfig(env);

const reportPayment = (number: string, token: string) =>
  postJson(`/orders/${number}/payment-report`, {}, { authorization: `Bearer ${token}` });
const cancel = (number: string, token: string) => postJson(`/orders/${number}/cancel`, {}, { authorization: `Bearer ${token}` });

/** Lets `n` D1 round trips pass, so a second request starts that far behind the first. */
async function lag(n: number) {
  for (let i = 0; i < n; i++) await env.DB.prepare('select 1').run();
}

describe('a request that loses a race for the same move answers with the order as it now is', () => {
  it('two payment reports at once: both 200 with the reported order, recorded once', async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const { order, accessToken } = await placeOrder();
      const answers = await Promise.all([
        reportPayment(order.number, accessToken),
        lag(attempt).then(() => reportPayment(order.number, accessToken)),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const [a, b] = await Promise.all(answers.map((r) => r.json<{ order: OrderView }>()));
      expect(a!.order.status).toBe('payment_reported');
      expect(b!.order).toEqual(a!.order);
      expect((await eventsOf(order.number)).map((e) => e.to)).toEqual(['awaiting_payment', 'payment_reported']);
      expect(await emailsOf(order.number)).toHaveLength(2);
    }
  });

  it('two cancels at once: both 200 with the cancelled order, stock released once', async () => {
    const id = 'mario-kart-world';
    for (let attempt = 0; attempt < 4; attempt++) {
      const stock = await stockOf(id);
      const { order, accessToken } = await placeOrder({ lines: [await line(id, 2)] });
      const answers = await Promise.all([
        cancel(order.number, accessToken),
        lag(attempt).then(() => cancel(order.number, accessToken)),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const [a, b] = await Promise.all(answers.map((r) => r.json<{ order: OrderView }>()));
      expect(a!.order.status).toBe('cancelled');
      expect(b!.order).toEqual(a!.order);
      expect(await stockOf(id)).toBe(stock);
      expect((await eventsOf(order.number)).map((e) => e.to)).toEqual(['awaiting_payment', 'cancelled']);
    }
  });
});

describe('a double submit on the last unit', () => {
  it('answers both requests with the one order the first placed, never out_of_stock', async () => {
    const id = 'sony-playstation-5-pro';
    for (let attempt = 0; attempt < 8; attempt++) {
      await setStock(id, 1);
      const body = orderRequest({ lines: [await line(id, 1)] });
      const answers = await Promise.all([postOrder(body), lag(attempt).then(() => postOrder(body))]);
      const json = await Promise.all(
        answers.map(async (r) => ({ status: r.status, body: await r.json<PlacedOrder & ErrorJson>() })),
      );
      expect(json.map((j) => j.status).sort(), `attempt ${attempt}: ${JSON.stringify(json)}`).toEqual([200, 201]);
      expect(json[0]!.body.order.number).toBe(json[1]!.body.order.number);
      expect(json[0]!.body.accessToken).toBe(json[1]!.body.accessToken);
      expect(await stockOf(id)).toBe(0);
    }
  });
});

/** A D1 whose batch first runs `meanwhile`: another request's change landing between the read and the write. */
function racing(meanwhile: () => Promise<unknown>): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'batch') {
        return async (...args: Parameters<Db['batch']>) => {
          await meanwhile();
          return target.batch(...args);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

describe('a variant removed after the quote', () => {
  /** Leaves the product in exactly these variants: others removed, new ones added at the product's price with 5 in stock. */
  const setVariants = async (id: string, variants: string[]) => {
    await env.DB.batch([
      env.DB.prepare(
        `delete from product_variants where product_id = ? and id not in (${variants.map(() => '?').join(', ')})`,
      ).bind(id, ...variants),
      ...variants.map((variant, position) =>
        env.DB.prepare(
          `insert into product_variants (product_id, id, label, price_kobo, stock, position)
           select id, ?, ?, price_kobo, 5, ? from products where id = ? on conflict do nothing`,
        ).bind(variant, variant.toUpperCase(), position, id),
      ),
    ]);
  };

  it('is refused when it is gone before the order is placed (400 naming lines.0.variant)', async () => {
    const id = 'jbl-flip-7';
    const request = orderRequest({ lines: [await line(id, 1, 'camo')] });
    await setVariants(id, ['black', 'blue', 'red']);
    const before = await rowCounts();
    const response = await postOrder(request);
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['lines.0.variant']);
    expect(await rowCounts()).toEqual(before);
  });

  it.each([
    ['a variant dropped from the list', 'oraimo-freepods-4-anc-earbuds', 'white', ['black']],
    ['a product that now comes in variants', 'ghost-of-yotei', '', ['ps5', 'ps4']],
  ])('is refused when %s lands between the quote and the write: nothing stored, stock kept', async (_, id, variant, after) => {
    // What the variant left standing holds once the race is over: its stock as it is now or,
    // for a product that newly comes in variants, the 5 that setVariants() gives each one.
    const stock = variant ? await stockOf(id, after[0]) : 5;
    const request = placeOrderSchema.parse(orderRequest({ lines: [await line(id, 1, variant)] }));
    const before = await rowCounts();
    const placing = placeOrderInD1(
      racing(() => setVariants(id, after)),
      config,
      request,
    );
    await expect(placing).rejects.toBeInstanceOf(ApiError);
    await expect(placing).rejects.toMatchObject({
      status: 400,
      issues: [{ field: 'lines.0.variant', message: expect.any(String) }],
    });
    expect(await rowCounts()).toEqual(before);
    expect(await stockOf(id, after[0])).toBe(stock);
  });
});

/**
 * A D1 whose batch that writes an order (its first statement inserts into orders) first runs
 * `meanwhile`: a change landing after placeOrder() has quoted the lines and before it reserves
 * their stock. Earlier batches (the e-mail allowance) run untouched, so the quote sees D1 as it was.
 */
function racingTheOrderBatch(meanwhile: () => Promise<unknown>): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'batch') {
        return async (...args: Parameters<Db['batch']>) => {
          const [first] = args[0] as readonly unknown[];
          if (sqlOf(first).startsWith('insert into "orders"')) await meanwhile();
          return target.batch(...args);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/** The SQL of a drizzle query, or '' for anything else in a batch. */
function sqlOf(statement: unknown): string {
  const query = statement as { toSQL?: () => { sql: string } } | undefined;
  return typeof query?.toSQL === 'function' ? query.toSQL().sql : '';
}

describe('a price change between the quote and the reservation of stock', () => {
  it.each([
    ['a product without variants, its price raised', 'sony-playstation-5-pro', undefined, 1_000_000],
    ['a product without variants, its price lowered', 'sony-playstation-5-pro', undefined, -1_000_000],
    ['a variant, its price raised', 'apple-macbook-air-13-m4', 'silver', 1_000_000],
    ['a variant, its price lowered', 'apple-macbook-air-13-m4', 'silver', -1_000_000],
  ])('%s: refused with 409 price_changed, never placed at the old price', async (_, id, variant, change) => {
    await setStock(id, 5, variant);
    const quoted = await line(id, 1, variant);
    expect(quoted.variant).toBe(variant ?? '');
    const request = placeOrderSchema.parse(orderRequest({ lines: [quoted] }));
    const before = await rowCounts();
    const newPrice = quoted.price + change;

    const placing = placeOrderInD1(
      racingTheOrderBatch(() => setPrice(id, newPrice, variant)),
      config,
      request,
    );
    // Placing it at the new price would also be right; at the old one (what the quote saw) never.
    await expect(placing).rejects.toBeInstanceOf(ApiError);
    await expect(placing).rejects.toMatchObject({
      status: 409,
      code: 'price_changed',
      issues: [{ field: 'lines.0.price', message: expect.any(String) }],
    });
    expect((await productRow(id, variant)).price).toBe(newPrice);
    expect(await rowCounts()).toEqual(before);
    expect(await stockOf(id, variant)).toBe(5);
  });
});

describe('a guest lookup takes the same path for a known and an unknown number', () => {
  it('hashes the e-mail and compares it against a stand-in when the number is unknown', async () => {
    const { order } = await placeOrder();
    const counting = () => {
      const seen: string[] = [];
      const hash = (text: string) => {
        seen.push(text);
        return sha256Hex(text);
      };
      return { seen, hash };
    };
    const wrongEmail = counting();
    await expect(
      findGuestOrder(db, config, order.number, 'someone.else@example.com', new Date(), wrongEmail.hash),
    ).rejects.toMatchObject({ status: 404 });
    const unknownNumber = counting();
    await expect(
      findGuestOrder(db, config, 'GTS-ZZZZZZZZZZ', 'someone.else@example.com', new Date(), unknownNumber.hash),
    ).rejects.toMatchObject({ status: 404 });
    expect(wrongEmail.seen).toHaveLength(2);
    expect(unknownNumber.seen).toHaveLength(2);
    expect(unknownNumber.seen).toContain('someone.else@example.com');
  });
});

describe('a reported order still shows where the money went', () => {
  it('keeps the bank details and reference, marked as no longer due, in the report answer and the lookup', async () => {
    const { order, accessToken } = await placeOrder({
      customer: { ...orderRequest().customer, email: 'paid.already@example.com' },
    });
    expect(order.payment).toMatchObject({ due: true, reference: order.number });
    const { order: reported } = await (await reportPayment(order.number, accessToken)).json<{ order: OrderView }>();
    const expected = {
      bankName: 'First Bank',
      accountName: 'GTS Electronics Ltd',
      accountNumber: '3081726354',
      amount: order.total,
      reference: order.number,
      due: false,
      ownAccount: false,
      received: 0,
      takesPaymentUntil: null,
    };
    expect(reported.payment).toEqual(expected);
    const { order: found } = await (
      await postJson('/orders/lookup', { number: order.number, email: 'paid.already@example.com' })
    ).json<{ order: OrderView }>();
    expect(found.payment).toEqual(expected);
  });
});

describe('an expiry racing a payment report', () => {
  it('does not expire an order whose shopper reported the transfer just before: the report starts a new hold', async () => {
    const { order, accessToken } = await placeOrder();
    await env.DB.prepare('update orders set expires_at = unixepoch() - 60 where number = ?').bind(order.number).run();
    // The cron read the overdue order; then the shopper's report landed first.
    const stale = (await findOrderByNumber(db, order.number))!;
    await changeOrderStatus(db, config, { ...stale }, 'report_payment', 'customer');
    const after = await expireIfOverdue(db, config, stale);
    expect(after.status).toBe('payment_reported');
    expect((await eventsOf(order.number)).map((e) => e.to)).toEqual(['awaiting_payment', 'payment_reported']);
    expect(accessToken).toBeTruthy();
  });
});

describe('the confirmation e-mail allowance (RATE_LIMIT_EMAIL_RECIPIENT)', () => {
  const counted = async (email: string) =>
    (
      await env.DB.prepare('select coalesce(sum(count), 0) as n from rate_limits where key = ?')
        .bind(`email.to.order:${await sha256Hex(mailboxKey(email))}`)
        .first<{ n: number }>()
    )?.n;

  it('is given back when the order’s write loses a race: a refused order spends none of the recipient’s e-mails, a placed one spends one', async () => {
    const id = 'sony-playstation-5-pro';
    const email = `allowance-${crypto.randomUUID()}@example.com`;
    const request = (lines: unknown[]) =>
      placeOrderSchema.parse(orderRequest({ lines, customer: { ...orderRequest().customer, email } }));
    await setStock(id, 1);
    const lost = request([await line(id, 1)]);
    // The last unit sold between the quote and the write: 409, after the allowance was counted.
    const placing = placeOrderInD1(
      racingTheOrderBatch(() => setStock(id, 0)),
      config,
      lost,
    );
    await expect(placing).rejects.toMatchObject({ status: 409, code: 'out_of_stock' });
    expect(await counted(email)).toBe(0);

    await setStock(id, 1);
    const placed = await placeOrderInD1(db, config, request([await line(id, 1)]));
    expect(placed.created).toBe(true);
    expect(await counted(email)).toBe(1);
  });
});
