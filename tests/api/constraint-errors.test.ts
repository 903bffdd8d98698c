import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../functions/platform/db.ts';
import { constraintViolation, isCheckViolation, isUniqueViolation } from '../../functions/platform/constraint-errors.ts';
import { CHECKS, orders, products, type OrderRow } from '../../functions/platform/schema.ts';
import { PS5 } from './orders-helpers.ts';

// Real failures from the migrated D1, through drizzle as the Worker meets them, read by the recogniser.
const db = openDb(env.DB);

function orderValues(overrides: Partial<OrderRow> = {}): OrderRow {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  return {
    id: crypto.randomUUID(),
    number: `GTS-${crypto.randomUUID().slice(0, 10).toUpperCase()}`,
    status: 'awaiting_payment',
    customerName: 'Ada Obi',
    email: 'ada@example.com',
    mailbox: 'ada@example.com',
    phone: '+2348031234567',
    deliveryMethod: 'delivery',
    address: '12 Allen Avenue',
    city: 'Ikeja',
    state: 'Lagos',
    subtotal: 100,
    shipping: 50,
    total: 150,
    idempotencyKeyHash: crypto.randomUUID(),
    requestHash: 'request',
    accessTokenHash: 'token',
    userId: null,
    expiresAt: now,
    lastTransitionId: null,
    paymentReceived: null,
    paymentReference: null,
    paymentConfirmedBy: null,
    paymentConfirmedAt: null,
    carrier: null,
    trackingNote: null,
    tradeInReference: null,
    credit: 0,
    amountPaid: 0,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** Runs `write`, expects it to fail, and returns what the recogniser makes of the error. */
async function violationOf(write: () => Promise<unknown>) {
  const error = await write().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, 'the write should have failed').toBeInstanceOf(Error);
  return constraintViolation(error);
}

describe('constraintViolation', () => {
  it('reads a UNIQUE failure as its table and column', async () => {
    const first = orderValues();
    await db.insert(orders).values(first);
    const violation = await violationOf(() => db.insert(orders).values(orderValues({ number: first.number })));
    expect(violation).toEqual({ kind: 'unique', table: 'orders', columns: ['number'] });
    expect(isUniqueViolation(violation, orders.number)).toBe(true);
    expect(isUniqueViolation(violation, orders.idempotencyKeyHash)).toBe(false);
    expect(isCheckViolation(violation, CHECKS.productsStockNotNegative)).toBe(false);
  });

  it('reads a UNIQUE failure inside a batch (as placeOrder meets it)', async () => {
    const first = orderValues();
    await db.insert(orders).values(first);
    const violation = await violationOf(() =>
      db.batch([
        db.select().from(orders).limit(1),
        db.insert(orders).values(orderValues({ idempotencyKeyHash: first.idempotencyKeyHash })),
      ]),
    );
    expect(violation).toEqual({ kind: 'unique', table: 'orders', columns: ['idempotency_key_hash'] });
    expect(isUniqueViolation(violation, orders.idempotencyKeyHash)).toBe(true);
    expect(isUniqueViolation(violation, orders.number)).toBe(false);
  });

  it('reads a primary key clash as a UNIQUE failure on the key column', async () => {
    const violation = await violationOf(() =>
      db
        .insert(products)
        .values({ id: PS5.id, name: 'Copy', brand: 'Sony', category: 'consoles', description: 'x', price: 1, image: '/x.svg' }),
    );
    expect(violation).toEqual({ kind: 'unique', table: 'products', columns: ['id'] });
    expect(isUniqueViolation(violation, products.id)).toBe(true);
  });

  it('reads a CHECK failure as the constraint name the schema declares', async () => {
    const violation = await violationOf(() => db.update(products).set({ stock: -1 }).where(eq(products.id, PS5.id)));
    expect(violation).toEqual({ kind: 'check', name: 'products_stock_not_negative' });
    expect(isCheckViolation(violation, CHECKS.productsStockNotNegative)).toBe(true);
    expect(isCheckViolation(violation, CHECKS.productsPricePositive)).toBe(false);
    expect(isUniqueViolation(violation, orders.number)).toBe(false);
  });

  it('reads a CHECK failure inside a batch, which rolls the whole batch back', async () => {
    const order = orderValues();
    const violation = await violationOf(() =>
      db.batch([db.insert(orders).values(order), db.update(products).set({ price: 0 }).where(eq(products.id, PS5.id))]),
    );
    expect(violation).toEqual({ kind: 'check', name: 'products_price_positive' });
    expect(await db.select().from(orders).where(eq(orders.id, order.id))).toEqual([]);
  });

  it('knows every CHECK the migrated database has, by the names the schema declares', async () => {
    const { results } = await env.DB.prepare("select sql from sqlite_master where type = 'table' and sql is not null").all<{
      sql: string;
    }>();
    const inDatabase = results.flatMap((t) => [...t.sql.matchAll(/CONSTRAINT "(\w+)" CHECK/g)].map((m) => m[1]));
    expect(inDatabase.sort()).toEqual(Object.values(CHECKS).sort());
  });

  it('reads a NOT NULL failure and a raw D1 error the same way', async () => {
    const notNull = await violationOf(() => env.DB.prepare('insert into newsletter_subscribers (email) values (null)').run());
    expect(notNull).toEqual({ kind: 'not_null', table: 'newsletter_subscribers', column: 'email' });
    const raw = await violationOf(() => env.DB.prepare('update products set stock = -5 where id = ?').bind(PS5.id).run());
    expect(raw).toEqual({ kind: 'check', name: CHECKS.productsStockNotNegative });
  });

  it('reads an error in the cause chain, and nothing from other errors', async () => {
    const violation = await violationOf(() => db.update(products).set({ stock: -1 }).where(eq(products.id, PS5.id)));
    const wrapped = new Error('placing failed', {
      cause: new Error('Failed query', {
        cause: new Error('D1_ERROR: CHECK constraint failed: products_stock_not_negative: SQLITE_CONSTRAINT'),
      }),
    });
    expect(constraintViolation(wrapped)).toEqual(violation);
    const syntax = await violationOf(() => env.DB.prepare('selec 1').run());
    expect(syntax).toBeUndefined();
    expect(constraintViolation('UNIQUE constraint failed: orders.number')).toBeUndefined();
    expect(constraintViolation(undefined)).toBeUndefined();
  });
});
