import { and, asc, eq, exists, inArray, lte, sql } from 'drizzle-orm';
import type { PlaceOrder } from '../../src/features/orders/checkout.ts';
import { nextStatus, awaitsPayment, type OrderActor, type OrderEvent } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import { priceOrder, type PricingProduct, type Quote } from '../../src/features/orders/pricing.ts';
import type { Db } from '../db/client.ts';
import { orderEvents, orderLines, orders, products, type OrderLineRow, type OrderRow } from '../db/schema.ts';
import { orderConfirmationEmail, statusChangeEmail } from '../email/messages.ts';
import { queueEmail, queueEmailIfTransition } from '../email/outbox.ts';
import { bankAccount, type Config } from '../env.ts';
import { newOrderNumber, orderAccessToken, sameDigest, sha256Hex } from '../lib/crypto.ts';
import { ApiError, type FieldIssue } from '../lib/errors.ts';

/**
 * Orders on the server: placing one (priced from D1, stock reserved in the same
 * batch that writes it), finding one, and moving one through its life cycle with
 * the pure state machine in src/features/orders/order-status.ts.
 */

const HOUR_MS = 3_600_000;

/** D1 binds at most 100 parameters per statement; an order line takes 8. */
const LINES_PER_INSERT = 12;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Live rows for the products an order names (archived ones count as missing). */
export async function loadPricingProducts(db: Db, ids: readonly string[]): Promise<Map<string, PricingProduct>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: products.id, name: products.name, price: products.price, image: products.image, variants: products.variants, stock: products.stock })
    .from(products)
    .where(and(inArray(products.id, [...new Set(ids)]), eq(products.active, true)));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function quoteLines(db: Db, lines: PlaceOrder['lines']): Promise<Quote> {
  return priceOrder(lines, await loadPricingProducts(db, lines.map((l) => l.productId)));
}

/** Turns a quote's problems into the API's answer: the shopper's mistake (400) or the shop's state (409). */
function rejectQuote(quote: Quote): never {
  const issues = (kinds: string[], field: string): FieldIssue[] =>
    quote.lines.flatMap((line, i) =>
      line.problem && kinds.includes(line.problem.kind) ? [{ field: `lines.${i}.${field}`, message: line.problem.message }] : [],
    );
  const unknownProducts = issues(['unavailable'], 'productId');
  const unknownVariants = issues(['unknown_variant'], 'variant');
  if (unknownProducts.length || unknownVariants.length) {
    const all = [...unknownProducts, ...unknownVariants];
    throw new ApiError(400, 'invalid_request', `The request is not valid: check ${all.map((i) => i.field).join(', ')}.`, all);
  }
  const stock = issues(['insufficient_stock'], 'quantity');
  if (stock.length) {
    throw new ApiError(409, 'out_of_stock', `Not enough stock: ${stock.map((i) => i.message).join('; ')}.`, stock);
  }
  const prices = issues(['price_changed'], 'price');
  throw new ApiError(409, 'price_changed', `Prices changed since you filled your cart: ${prices.map((i) => i.message).join('; ')}. Please check your cart.`, prices);
}

export interface PlacedOrderResult {
  order: OrderView;
  accessToken: string;
  /** False when the idempotency key had already placed this order. */
  created: boolean;
}

/**
 * Places an order. Every price comes from D1; the batch reserves each line's stock
 * with an UPDATE that would drive stock below zero (and so trips the table's CHECK)
 * if another checkout took the units first, or if the price or the product changed
 * since it was read. D1 runs a batch as one transaction, so then nothing is written.
 */
export async function placeOrder(db: Db, config: Config, request: PlaceOrder, now = new Date()): Promise<PlacedOrderResult> {
  // D1 keeps whole seconds: the order answered now must equal the order read back later.
  now = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const keyHash = await sha256Hex(request.idempotencyKey);
  const requestHash = await sha256Hex(JSON.stringify({ customer: request.customer, lines: request.lines }));
  const accessToken = await orderAccessToken(request.idempotencyKey);

  const replay = await findReplay(db, config, keyHash, requestHash, accessToken, now);
  if (replay) return replay;

  const quote = await quoteLines(db, request.lines);
  if (!quote.ok) rejectQuote(quote);

  const id = crypto.randomUUID();
  const row: OrderRow = {
    id,
    number: newOrderNumber(),
    status: 'awaiting_payment',
    customerName: request.customer.name,
    email: request.customer.email,
    phone: request.customer.phone,
    address: request.customer.address,
    city: request.customer.city,
    state: request.customer.state,
    subtotal: quote.subtotal,
    shipping: quote.shipping,
    total: quote.total,
    idempotencyKeyHash: keyHash,
    requestHash,
    accessTokenHash: await sha256Hex(accessToken),
    userId: null,
    expiresAt: new Date(now.getTime() + config.ORDER_HOLD_HOURS * HOUR_MS),
    lastTransitionId: null,
    createdAt: now,
    updatedAt: now,
  };
  const lineRows: OrderLineRow[] = quote.lines.map((l, i) => ({
    id: i,
    orderId: id,
    productId: l.productId,
    name: l.name,
    image: l.image,
    variant: l.variant,
    unitPrice: l.unitPrice,
    quantity: l.quantity,
    lineTotal: l.lineTotal,
  }));
  const view = toOrderView(row, lineRows, [{ toStatus: row.status, createdAt: now }], config);

  try {
    await db.batch([
      db.insert(orders).values(row),
      ...quote.lines.map((line) =>
        db
          .update(products)
          .set({
            stock: sql`CASE WHEN ${products.active} = 1 AND ${products.price} = ${line.unitPrice}
                       THEN ${products.stock} - ${line.quantity} ELSE -1 END`,
          })
          .where(eq(products.id, line.productId)),
      ),
      ...chunks(lineRows.map(({ id: _, ...line }) => line), LINES_PER_INSERT).map((rows) => db.insert(orderLines).values(rows)),
      db.insert(orderEvents).values({ orderId: id, fromStatus: null, toStatus: row.status, actor: 'customer', createdAt: now }),
      queueEmail(db, orderConfirmationEmail(view, bankAccount(config), config.SITE_URL), id),
    ]);
  } catch (err) {
    const message = errorText(err);
    if (/UNIQUE constraint failed: orders\.idempotency_key_hash/.test(message)) {
      // The same key won a race with this request: answer with that order.
      const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
      if (winner) return winner;
    }
    if (/CHECK constraint failed: products_stock_not_negative/.test(message)) {
      // Stock or price moved between the read and the write: say what changed.
      const fresh = await quoteLines(db, request.lines);
      if (!fresh.ok) rejectQuote(fresh);
      throw new ApiError(409, 'out_of_stock', 'The stock changed while your order was placed. Please try again.');
    }
    if (/UNIQUE constraint failed: orders\.number/.test(message)) {
      // 50 random bits collided: try once more with a new number.
      return placeOrder(db, config, request, now);
    }
    throw err;
  }
  return { order: view, accessToken, created: true };
}

function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join(' | ');
}

async function findReplay(db: Db, config: Config, keyHash: string, requestHash: string, accessToken: string, now: Date) {
  const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKeyHash, keyHash)).limit(1);
  if (!existing) return undefined;
  if (!sameDigest(existing.requestHash, requestHash)) {
    throw new ApiError(422, 'idempotency_key_reused', 'This idempotency key was already used for a different order. Start a new checkout.', [
      { field: 'idempotencyKey', message: 'Already used for a different order' },
    ]);
  }
  const order = await expireIfOverdue(db, config, existing, now);
  return { order: await loadOrderView(db, config, order), accessToken, created: false };
}

export async function findOrderByNumber(db: Db, number: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.number, number)).limit(1);
  return row;
}

const NOT_FOUND = () => new ApiError(404, 'order_not_found', 'We could not find an order with that order number and e-mail address.');

/** A guest's lookup: the number and the checkout e-mail must both match; a wrong pair reveals nothing. */
export async function findGuestOrder(db: Db, config: Config, number: string, email: string, now = new Date()): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  if (!row || !sameDigest(await sha256Hex(row.email), await sha256Hex(email))) throw NOT_FOUND();
  return expireIfOverdue(db, config, row, now);
}

/** The order whose access token the caller holds (the browser that placed it). */
export async function findOrderForToken(db: Db, config: Config, number: string, accessToken: string, now = new Date()): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  const presented = await sha256Hex(accessToken);
  if (!row || !sameDigest(row.accessTokenHash, presented)) {
    throw new ApiError(404, 'order_not_found', 'We could not find that order for this browser.');
  }
  return expireIfOverdue(db, config, row, now);
}

export async function loadOrderView(db: Db, config: Config, order: OrderRow): Promise<OrderView> {
  const [lines, events] = await db.batch([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db
      .select({ toStatus: orderEvents.toStatus, createdAt: orderEvents.createdAt })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.id)),
  ]);
  return toOrderView(order, lines, events, config);
}

export function toOrderView(
  order: OrderRow,
  lines: readonly OrderLineRow[],
  events: readonly { toStatus: OrderRow['status']; createdAt: Date }[],
  config: Config,
): OrderView {
  return {
    number: order.number,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    expiresAt: order.expiresAt.toISOString(),
    holdHours: config.ORDER_HOLD_HOURS,
    customer: {
      name: order.customerName,
      email: order.email,
      phone: order.phone,
      address: order.address,
      city: order.city,
      state: order.state as OrderView['customer']['state'],
    },
    lines: lines.map(({ id: _id, orderId: _order, ...line }) => line),
    subtotal: order.subtotal,
    shipping: order.shipping,
    total: order.total,
    payment: awaitsPayment(order.status)
      ? { ...bankAccount(config), amount: order.total, reference: order.number }
      : null,
    history: events.map((e) => ({ status: e.toStatus, at: e.createdAt.toISOString() })),
  };
}

/**
 * Moves an order with the state machine, as one D1 batch: a compare-and-set on the
 * status that stamps a fresh transition id, then the history row, the e-mail and
 * (for cancelled or expired orders) the stock release, each guarded by that id so
 * they happen only if this change won. An illegal move is a 409.
 */
export async function changeOrderStatus(
  db: Db,
  config: Config,
  order: OrderRow,
  event: OrderEvent,
  actor: OrderActor,
  { note, now = new Date() }: { note?: string; now?: Date } = {},
): Promise<OrderRow> {
  const move = nextStatus(order.status, event, actor);
  if (!move.ok) {
    throw new ApiError(move.reason === 'illegal' ? 409 : 403, move.reason === 'illegal' ? 'illegal_transition' : 'forbidden', move.message);
  }
  const transitionId = crypto.randomUUID();
  const moved = { ...order, status: move.to, lastTransitionId: transitionId, updatedAt: now };
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const view = toOrderView(moved, lines, [], config);
  // Only query builders go in the batch: drizzle's D1 batch cannot bind the parameters of a
  // raw db.run(sql`…`) statement (drizzle-orm#2277, "Cannot read properties of undefined (reading 'bind')").
  const won = and(eq(orders.id, order.id), eq(orders.lastTransitionId, transitionId));

  const [updated] = await db.batch([
    db
      .update(orders)
      .set({ status: move.to, lastTransitionId: transitionId, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, move.from)))
      .returning(),
    db.insert(orderEvents).select(
      db
        .select({
          id: sql<number>`NULL`.as('id'),
          orderId: orders.id,
          fromStatus: sql`${move.from}`.as('from_status'),
          toStatus: sql`${move.to}`.as('to_status'),
          actor: sql`${actor}`.as('actor'),
          note: sql`${note ?? null}`.as('note'),
          createdAt: sql`${Math.floor(now.getTime() / 1000)}`.as('created_at'),
        })
        .from(orders)
        .where(won),
    ),
    queueEmailIfTransition(db, statusChangeEmail(view, move.to, config.SITE_URL), order.id, transitionId),
    ...(move.releasesStock
      ? [
          db
            .update(products)
            .set({
              stock: sql`stock + (SELECT SUM(quantity) FROM order_lines WHERE order_id = ${order.id} AND product_id = products.id)`,
              updatedAt: sql`(unixepoch())`,
            })
            .where(
              and(
                inArray(products.id, db.select({ id: orderLines.productId }).from(orderLines).where(eq(orderLines.orderId, order.id))),
                exists(db.select({ one: sql`1` }).from(orders).where(won)),
              ),
            ),
        ]
      : []),
  ]);
  const row = updated[0];
  if (!row) {
    // Someone else moved the order first; judge the request against where it is now.
    const current = await findOrderByNumber(db, order.number);
    if (current && current.status !== order.status) return changeOrderStatus(db, config, current, event, actor, { note, now });
    throw new ApiError(409, 'order_changed', 'The order changed while this request ran. Please reload it.');
  }
  return row;
}

/** Expiry also happens when an order is read, so nobody sees (or pays for) an order that should be gone. */
export async function expireIfOverdue(db: Db, config: Config, order: OrderRow, now = new Date()): Promise<OrderRow> {
  if (order.status !== 'awaiting_payment' || order.expiresAt.getTime() > now.getTime()) return order;
  try {
    return await changeOrderStatus(db, config, order, 'expire', 'system', { now, note: 'Not paid within the hold time' });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return (await findOrderByNumber(db, order.number)) ?? order;
    throw err;
  }
}

/** The scheduled job: expires every unpaid order past its hold time and releases its stock. */
export async function expireOverdueOrders(db: Db, config: Config, now = new Date(), limit = 200): Promise<number> {
  const overdue = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'awaiting_payment'), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const order of overdue) {
    const after = await expireIfOverdue(db, config, order, now);
    if (after.status === 'expired') expired++;
  }
  return expired;
}
