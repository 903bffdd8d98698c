import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { deliveryAddress, type PlaceOrder } from '../../src/features/orders/checkout.ts';
import { fillEmptyProfileStatement } from '../accounts/profile.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import type { Db } from '../platform/db.ts';
import { unlessChanged } from '../platform/compare-and-set.ts';
import { constraintViolation, isCheckViolation, isUniqueViolation } from '../platform/constraint-errors.ts';
import {
  CHECKS,
  orderEvents,
  orderLines,
  orders,
  paymentAccounts,
  products,
  productVariants,
  type OrderLineRow,
  type OrderRow,
  type PaymentAccountRow,
  type UserRow,
} from '../platform/schema.ts';
import { orderConfirmationEmail } from './messages.ts';
import { queueEmail } from '../platform/outbox.ts';
import type { Config } from '../env.ts';
import { paymentProvider } from '../payments/providers.ts';
import { ProviderError } from '../payments/provider.ts';
import { newOrderNumber, orderAccessToken, sameDigest, sha256Hex } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { countEmailTo } from '../platform/rate-limit.ts';
import { mailboxKey } from '../platform/mailbox.ts';
import { expireIfOverdue } from './expire.ts';
import { enforceOrderLimits, guardUnpaidHolds, unpaidHoldRefusal } from './limits.ts';
import { quoteLines, rejectQuote } from './quote.ts';
import type { Quote } from '../../src/features/orders/pricing.ts';
import { loadOrderView, toOrderView } from './view.ts';

/**
 * Placing an order: priced from D1, stock reserved in the same batch that writes it
 * (docs/decisions/006-stock-reserved-in-the-order-batch.md), idempotent by the
 * browser's key (docs/decisions/005-order-number-and-access-token.md).
 */

const HOUR_MS = 3_600_000;

/**
 * D1 binds at most 100 parameters per statement; an order line takes 8. An order has at
 * most MAX_ORDER_LINES (10) lines, so today one insert holds them all; the grouping stays
 * so that raising the limit cannot break the insert.
 */
const LINES_PER_INSERT = 12;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A credit taken off an order's total by what the order was made from (an accepted swap:
 * functions/trade-ins/order.ts builds it). Its statements go into the order's batch, so
 * refusing them refuses the order whole; placeOrder() knows nothing else of where it came from.
 */
export interface OrderCredit {
  /** Kept on the order (trade_in_reference) and in the request's hash. */
  reference: string;
  /** Kobo taken off the total. */
  amount: number;
  /** Statements for the order's batch, given the new order's id. */
  statements: (orderId: string) => BatchItem<'sqlite'>[];
  /** The refusal to answer when the batch failed because of those statements, or undefined for any other failure. */
  refusal: (err: unknown) => ApiError | undefined;
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
export function placeOrder(
  db: Db,
  config: Config,
  request: PlaceOrder,
  now = new Date(),
  /** The signed-in shopper placing it (functions/accounts/session.ts), or null for a guest: the order then belongs to that account. */
  owner: OrderOwner | null = null,
  /** A credit and its statements, for an order made from an accepted trade-in. */
  credit?: OrderCredit,
): Promise<PlacedOrderResult> {
  return place(db, config, request, now, owner, credit, 2);
}

/**
 * The account placing an order. One whose e-mail address is confirmed is counted by its own
 * unpaid orders, not by the contacts it orders with: a stranger's orders with the same e-mail,
 * phone or address must not lock its owner out (functions/orders/limits.ts).
 */
export type OrderOwner = Pick<UserRow, 'id' | 'email' | 'emailVerified' | 'sessionVersion'>;

const provenAccount = (owner: OrderOwner | null) => (owner?.emailVerified ? owner.id : null);

async function place(
  db: Db,
  config: Config,
  request: PlaceOrder,
  now: Date,
  owner: OrderOwner | null,
  credit: OrderCredit | undefined,
  /** Tries left when a race makes a refusal vanish before it can be explained (a colliding number, an allowance freed meanwhile). */
  tries: number,
): Promise<PlacedOrderResult> {
  // D1 keeps whole seconds: the order answered now must equal the order read back later.
  now = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const keyHash = await sha256Hex(request.idempotencyKey);
  const requestHash = await sha256Hex(
    JSON.stringify({ customer: request.customer, lines: request.lines, ...(credit ? { tradeIn: credit.reference } : {}) }),
  );
  const accessToken = await orderAccessToken(request.idempotencyKey);

  const replay = await findReplay(db, config, keyHash, requestHash, accessToken, now);
  if (replay) return replay;

  enforceOrderLimits(config, request.lines);
  const quote = await quoteLines(db, request.lines, request.customer.delivery);
  if (!quote.ok) {
    // A double submit: the first request may have placed the order, taking the last units,
    // between our look for the key and this quote. Its order is our answer, not out_of_stock.
    const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
    if (winner) return winner;
    rejectQuote(quote);
  }
  const creditAmount = credit?.amount ?? 0;
  // An offer is below the product's price when it is made (functions/trade-ins/move.ts); a price
  // lowered since to the credit or below would leave nothing to pay, or money owed to the shopper.
  // The product's price, not the total: credit above the price must not quietly pay the delivery fee.
  if (credit && quote.subtotal - creditAmount <= 0) {
    throw new ApiError(
      409,
      'price_below_credit',
      'The product now costs no more than your trade-in value, so there would be nothing to pay. Please contact us and we will settle it with you.',
    );
  }

  const id = crypto.randomUUID();
  const row: OrderRow = {
    id,
    number: newOrderNumber(),
    status: 'awaiting_payment',
    customerName: request.customer.name,
    email: request.customer.email,
    mailbox: mailboxKey(request.customer.email),
    phone: request.customer.phone,
    deliveryMethod: request.customer.delivery,
    ...deliveryAddress(request.customer),
    subtotal: quote.subtotal,
    shipping: quote.shipping,
    total: quote.total - creditAmount,
    idempotencyKeyHash: keyHash,
    requestHash,
    accessTokenHash: await sha256Hex(accessToken),
    userId: owner?.id ?? null,
    expiresAt: new Date(now.getTime() + config.ORDER_HOLD_HOURS * HOUR_MS),
    lastTransitionId: null,
    paymentReceived: null,
    paymentReference: null,
    paymentConfirmedBy: null,
    paymentConfirmedAt: null,
    carrier: null,
    trackingNote: null,
    tradeInReference: credit?.reference ?? null,
    credit: creditAmount,
    amountPaid: 0,
    createdAt: now,
    updatedAt: now,
  };
  const lineRows: OrderLineRow[] = quote.lines.map((l, i) => ({
    id: i,
    orderId: id,
    productId: l.productId,
    name: l.name,
    image: l.image,
    variant: l.variantLabel,
    variantId: l.variant,
    unitPrice: l.unitPrice,
    quantity: l.quantity,
    lineTotal: l.lineTotal,
  }));
  // With a payment provider, the order's own account (decision 023); without one, or when the
  // provider cannot open one now, the shared account and a person's confirmation, as before.
  const account = await openPaymentAccount(config, row, now);
  const view = toOrderView(row, lineRows, [{ toStatus: row.status, createdAt: now }], config, account);
  // Whoever types an address can have the store e-mail it: past a few an hour, the order is
  // placed without its confirmation (the order page shows all of it). Given back below when the
  // batch fails: nothing was sent, and a lost race is tried again.
  const confirm = await countEmailTo(db, config, row.email, 'order', now);

  try {
    await db.batch([
      db.insert(orders).values(row),
      ...quote.lines.flatMap((line) => reserveStock(db, line)),
      ...chunks(
        lineRows.map(({ id: _, ...line }) => line),
        LINES_PER_INSERT,
      ).map((rows) => db.insert(orderLines).values(rows)),
      db.insert(orderEvents).values({
        orderId: id,
        fromStatus: null,
        toStatus: row.status,
        actor: 'customer',
        actorUserId: owner?.id ?? null,
        createdAt: now,
      }),
      ...(account ? [db.insert(paymentAccounts).values(account)] : []),
      ...(confirm.allowed ? [queueEmail(db, orderConfirmationEmail(view, config.SITE_URL), id)] : []),
      ...(credit?.statements(id) ?? []),
      // An order the shopper places for themselves (their account's address) fills what their
      // profile left empty; one sent to someone else (a gift) does not.
      ...(owner && request.customer.email === owner.email
        ? [fillEmptyProfileStatement(db, owner, { ...request.customer, ...deliveryAddress(request.customer) })]
        : []),
      // Last: counts this order's units with every other unpaid order's (functions/orders/limits.ts).
      ...guardUnpaidHolds(db, config, row, now, provenAccount(owner)),
    ]);
  } catch (err) {
    // Best effort: the batch's own error is what this request answers with.
    await confirm.giveBack().catch(() => undefined);
    const violation = constraintViolation(err);
    if (isUniqueViolation(violation, orders.idempotencyKeyHash)) {
      // The same key won a race with this request: answer with that order.
      const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
      if (winner) return winner;
    }
    if (
      isCheckViolation(violation, CHECKS.productsStockNotNegative) ||
      isCheckViolation(violation, CHECKS.variantsStockNotNegative)
    ) {
      // A double submit whose twin placed the order meanwhile gets that order.
      const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
      if (winner) return winner;
      // Stock, price or variants moved between the read and the write: say what changed.
      const fresh = await quoteLines(db, request.lines, request.customer.delivery);
      if (!fresh.ok) rejectQuote(fresh);
      throw new ApiError(409, 'out_of_stock', 'The stock changed while your order was placed. Please try again.');
    }
    if (isCheckViolation(violation, CHECKS.ordersCreditNotNegative) || isCheckViolation(violation, CHECKS.ordersTotalIsSum)) {
      const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
      if (winner) return winner;
      const refusal = await unpaidHoldRefusal(db, config, row, quote.lines, now, provenAccount(owner));
      if (refusal) throw refusal;
      if (tries > 1) return place(db, config, request, now, owner, credit, tries - 1);
      throw new ApiError(409, 'order_changed', 'Other orders changed while yours was placed. Please try again.');
    }
    const refusal = credit?.refusal(err);
    if (refusal) {
      const winner = await findReplay(db, config, keyHash, requestHash, accessToken, now);
      if (winner) return winner;
      throw refusal;
    }
    if (isUniqueViolation(violation, orders.number)) {
      // 50 random bits collided: try once more with a new number.
      return place(db, config, request, now, owner, credit, tries);
    }
    throw err;
  }
  return { order: view, accessToken, created: true };
}

/**
 * The account the payment provider opens for the order, taking its transfer until the order's
 * hold ends; undefined without a provider, or when it fails (the order is placed all the same,
 * with the shared account: a provider's outage must not stop a sale).
 */
async function openPaymentAccount(config: Config, order: OrderRow, now: Date): Promise<PaymentAccountRow | undefined> {
  const provider = paymentProvider(config);
  if (!provider) return undefined;
  try {
    const opened = await provider.openAccount({
      number: order.number,
      total: order.total,
      email: order.email,
      expiresAt: order.expiresAt,
    });
    return { orderId: order.id, provider: provider.id, ...opened, createdAt: now, updatedAt: now };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    console.warn(`payments: no account of its own for order ${order.number}, the shared account instead: ${err.message}`);
    return undefined;
  }
}

/**
 * The statements that take a line's units from stock, re-checking what the quote saw: the
 * product is on sale, at that price, and comes in that variant (or has none, for a line
 * without one). Anything else sets stock to -1, which breaks a CHECK and so the batch (the
 * store's compare-and-set, functions/platform/compare-and-set.ts).
 * A variant's stock goes down in product_variants; its trigger keeps the product's total.
 */
function reserveStock(db: Db, line: Quote['lines'][number]) {
  if (line.variant === '') {
    return [
      db
        .update(products)
        .set({
          stock: unlessChanged(
            sql`${products.active} = 1 AND ${products.price} = ${line.unitPrice}
                AND NOT EXISTS (SELECT 1 FROM ${productVariants} WHERE ${productVariants.productId} = ${products.id})`,
            sql`${products.stock} - ${line.quantity}`,
            -1,
          ),
        })
        .where(eq(products.id, line.productId)),
    ];
  }
  const variant = and(eq(productVariants.productId, line.productId), eq(productVariants.id, line.variant));
  return [
    db
      .update(productVariants)
      .set({
        stock: unlessChanged(
          sql`${productVariants.price} = ${line.unitPrice}
              AND EXISTS (SELECT 1 FROM ${products} WHERE ${products.id} = ${line.productId} AND ${products.active} = 1)`,
          sql`${productVariants.stock} - ${line.quantity}`,
          -1,
        ),
      })
      .where(variant),
    // A variant removed since the quote: no row above changed, so this one refuses.
    db
      .update(products)
      .set({ stock: unlessChanged(sql`EXISTS (SELECT 1 FROM ${productVariants} WHERE ${variant})`, sql`${products.stock}`, -1) })
      .where(eq(products.id, line.productId)),
  ];
}

async function findReplay(db: Db, config: Config, keyHash: string, requestHash: string, accessToken: string, now: Date) {
  const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKeyHash, keyHash)).limit(1);
  if (!existing) return undefined;
  if (!sameDigest(existing.requestHash, requestHash)) {
    throw new ApiError(
      422,
      'idempotency_key_reused',
      'This idempotency key was already used for a different order. Start a new checkout.',
      [{ field: 'idempotencyKey', message: 'Already used for a different order' }],
    );
  }
  const order = await expireIfOverdue(db, config, existing, now);
  return { order: await loadOrderView(db, config, order), accessToken, created: false };
}
