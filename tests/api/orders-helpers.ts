import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { PlaceOrderRequest } from '../../src/features/orders/checkout.ts';
import type { PlacedOrder } from '../../src/features/orders/order-view.ts';
import { ADA } from '../fixtures/shopper.ts';
import { postJson } from './client.ts';

/** Seeded facts (src/data/products/consoles.json): the Disc Edition at ₦849,000, 10 in stock (the Digital Edition: ₦749,000, 9). */
export const PS5 = {
  id: 'sony-playstation-5-slim',
  price: 84_900_000,
  variant: 'disc-edition',
  variantLabel: 'Disc Edition',
} as const;

export const SHIPPING = 150_000;

export const customer = ADA;

/** A fresh idempotency key, as the browser makes one per checkout attempt. */
export const newKey = () => `key-${crypto.randomUUID()}`;

/** One PlayStation 5 Slim (Disc Edition) for Ada, with a fresh key; `overrides` replace top-level fields. */
export function orderRequest(overrides: Record<string, unknown> = {}): PlaceOrderRequest {
  return {
    idempotencyKey: newKey(),
    customer: { ...customer },
    lines: [{ productId: PS5.id, variant: PS5.variant, quantity: 1, price: PS5.price }],
    ...overrides,
  } as PlaceOrderRequest;
}

/** A line for `productId` at its current D1 price, in its first variant unless one is given. */
export async function line(productId: string, quantity = 1, variant?: string) {
  const unit = await productRow(productId, variant);
  return { productId, variant: unit.variant, quantity, price: unit.price };
}

export const postOrder = (body: unknown, headers?: Record<string, string>) => postJson('/orders', body, headers);

/** Places an order through the API and expects it to be created. */
export async function placeOrder(overrides: Record<string, unknown> = {}): Promise<PlacedOrder> {
  const response = await postOrder(orderRequest(overrides));
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

/**
 * What a line of the product sells at in D1: the variant's price and stock (the first
 * variant unless one is named) or, for a product without variants, its own.
 */
export async function productRow(id: string, variant?: string) {
  const row = await env.DB.prepare(
    `select p.price_kobo as price, p.stock, coalesce(v.id, '') as variant, v.price_kobo as variantPrice, v.stock as variantStock
       from products p left join product_variants v on v.product_id = p.id and (v.id = ?2 or (?2 is null and v.position = (select min(position) from product_variants where product_id = p.id)))
      where p.id = ?1`,
  )
    .bind(id, variant ?? null)
    .first<{ price: number; stock: number; variant: string; variantPrice: number | null; variantStock: number | null }>();
  if (!row) throw new Error(`no product ${id}`);
  return { price: row.variantPrice ?? row.price, stock: row.variantStock ?? row.stock, variant: row.variant, total: row.stock };
}

/** Units left of the product (its first variant unless one is named). */
export const stockOf = async (id: string, variant?: string) => (await productRow(id, variant)).stock;

/** Units left of the product over all its variants. */
export const totalStockOf = async (id: string) => (await productRow(id)).total;

/** Sets the stock of the product (its first variant unless one is named). */
export async function setStock(id: string, stock: number, variant?: string) {
  const { variant: v } = await productRow(id, variant);
  if (v) await env.DB.prepare('update product_variants set stock = ? where product_id = ? and id = ?').bind(stock, id, v).run();
  else await env.DB.prepare('update products set stock = ? where id = ?').bind(stock, id).run();
}

/** Sets the price of the product (its first variant unless one is named). */
export async function setPrice(id: string, price: number, variant?: string) {
  const { variant: v } = await productRow(id, variant);
  if (v)
    await env.DB.prepare('update product_variants set price_kobo = ? where product_id = ? and id = ?').bind(price, id, v).run();
  else await env.DB.prepare('update products set price_kobo = ? where id = ?').bind(price, id).run();
}

/** How many rows each order table holds: a refused request must leave them all as they were. */
export async function rowCounts() {
  const count = async (table: string) => (await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())!.n;
  return {
    orders: await count('orders'),
    orderLines: await count('order_lines'),
    orderEvents: await count('order_events'),
    emails: await count('email_outbox'),
  };
}

/** The order's row as D1 holds it. */
export async function orderRow(number: string) {
  const row = await env.DB.prepare('select * from orders where number = ?').bind(number).first<Record<string, unknown>>();
  if (!row) throw new Error(`no order ${number}`);
  return row as {
    id: string;
    status: string;
    subtotal_kobo: number;
    shipping_kobo: number;
    total_kobo: number;
    delivery_method: string;
    expires_at: number;
    created_at: number;
  };
}

/** The order's history rows, oldest first. */
export async function eventsOf(number: string) {
  const { results } = await env.DB.prepare(
    'select from_status as "from", to_status as "to", actor from order_events where order_id = (select id from orders where number = ?) order by id',
  )
    .bind(number)
    .all<{ from: string | null; to: string; actor: string }>();
  return results;
}

/** The e-mails queued for the order, oldest first. */
export async function emailsOf(number: string) {
  const { results } = await env.DB.prepare(
    'select id, recipient, subject, text, html, status, attempts, last_error as lastError, next_attempt_at as nextAttemptAt from email_outbox where order_id = (select id from orders where number = ?) order by id',
  )
    .bind(number)
    .all<{
      id: number;
      recipient: string;
      subject: string;
      text: string;
      html: string;
      status: string;
      attempts: number;
      lastError: string | null;
      /** Unix seconds. */
      nextAttemptAt: number | null;
    }>();
  return results;
}

/** Moves an order's hold time into the past, as if its hold (ORDER_HOLD_HOURS) had run out a minute (or `secondsAgo`) ago. */
export async function makeOverdue(number: string, secondsAgo = 60) {
  await env.DB.prepare('update orders set expires_at = unixepoch() - ? where number = ?').bind(secondsAgo, number).run();
}

/** A product's or an order's updated_at, in unix seconds (orders by number). */
export async function updatedAtOf(table: 'products' | 'orders', key: string) {
  const column = table === 'products' ? 'id' : 'number';
  const row = await env.DB.prepare(`select updated_at as at from ${table} where ${column} = ?`).bind(key).first<{ at: number }>();
  if (!row) throw new Error(`no row ${key} in ${table}`);
  return row.at;
}

/** Moves a product's or an order's updated_at back to 2001, so that a change to the row shows; returns the time now in unix seconds. */
export async function backdate(table: 'products' | 'orders', key: string) {
  const column = table === 'products' ? 'id' : 'number';
  await env.DB.prepare(`update ${table} set updated_at = 1000000000 where ${column} = ?`).bind(key).run();
  expect(await updatedAtOf(table, key)).toBe(1_000_000_000);
  return Math.floor(Date.now() / 1000);
}
