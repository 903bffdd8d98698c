import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Transaction } from '../../src/features/account/account-api.ts';
import type { OrderStatus } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import type { Db } from '../platform/db.ts';
import { orderEvents, orders, type OrderRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { loadOrderView, loadOrderViews } from '../orders/view.ts';

/** How many of a user's orders the account pages list (newest first). */
const MAX_LISTED = 100;

/** The user's orders, newest first (at most MAX_LISTED): what /orders and /transactions list. */
function latestOrdersOf(db: Db, userId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(MAX_LISTED);
}

/** The user's orders, newest first, as the tracking page shows one (orders/view.ts). */
export async function userOrders(db: Db, config: Config, userId: string): Promise<OrderView[]> {
  return loadOrderViews(db, config, await latestOrdersOf(db, userId));
}

/** One of the user's orders by number: 404 for any other (the same answer whether it exists or not). */
export async function userOrder(db: Db, config: Config, userId: string, number: string): Promise<OrderView> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.number, number), eq(orders.userId, userId)));
  if (!row) throw new ApiError(404, 'not_found', `You have no order ${number}.`);
  return loadOrderView(db, config, row);
}

const TRANSACTION_STATUS: Record<OrderStatus, Transaction['status']> = {
  awaiting_payment: 'due',
  payment_reported: 'reported',
  paid: 'confirmed',
  shipped: 'confirmed',
  delivered: 'confirmed',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** The bank transfers behind the user's orders (one per order), newest first, from the orders and their history. */
export async function userTransactions(db: Db, userId: string): Promise<Transaction[]> {
  const rows = await latestOrdersOf(db, userId);
  if (!rows.length) return [];
  const events = await db
    .select({ orderId: orderEvents.orderId, toStatus: orderEvents.toStatus, createdAt: orderEvents.createdAt })
    .from(orderEvents)
    .where(
      and(
        inArray(
          orderEvents.orderId,
          rows.map((r) => r.id),
        ),
        inArray(orderEvents.toStatus, ['payment_reported', 'paid']),
      ),
    )
    .orderBy(asc(orderEvents.id));
  const firstAt = (orderId: string, status: OrderStatus) =>
    events.find((e) => e.orderId === orderId && e.toStatus === status)?.createdAt.toISOString() ?? null;
  return rows.map((row) => ({
    orderNumber: row.number,
    amount: row.total,
    reference: row.number,
    status: TRANSACTION_STATUS[row.status],
    orderStatus: row.status,
    createdAt: row.createdAt.toISOString(),
    reportedAt: firstAt(row.id, 'payment_reported'),
    confirmedAt: firstAt(row.id, 'paid'),
  }));
}
