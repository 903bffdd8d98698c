import { and, asc, inArray, lte } from 'drizzle-orm';
import { expiresByClock, ORDER_STATUSES } from '../../src/features/orders/order-status.ts';
import type { Db } from '../platform/db.ts';
import { orders, type OrderRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { changeOrderStatus, reloadOrder } from './move.ts';

/**
 * Orders whose hold ran out expire and give their stock back
 * (docs/decisions/007-what-expires.md): unpaid orders after ORDER_HOLD_HOURS, and
 * reported transfers nobody confirmed within PAYMENT_REPORT_HOLD_HOURS of the report.
 * Both hold until `expires_at`; expiry happens in the cron and whenever an order is read.
 */

/** The statuses the clock ends (awaiting_payment, payment_reported). */
const EXPIRING = ORDER_STATUSES.filter(expiresByClock);

const NOTES: Partial<Record<OrderRow['status'], string>> = {
  awaiting_payment: 'Not paid within the hold time',
  payment_reported: 'Reported payment not confirmed within the hold time',
};

/** Expiry also happens when an order is read, so nobody sees (or pays for) an order that should be gone. */
export async function expireIfOverdue(db: Db, config: Config, order: OrderRow, now = new Date()): Promise<OrderRow> {
  if (!expiresByClock(order.status) || order.expiresAt.getTime() > now.getTime()) return order;
  try {
    return await changeOrderStatus(db, config, order, 'expire', 'system', { now, note: NOTES[order.status] });
  } catch (err) {
    // Another change won (a payment report, a cancel): judge the order as it now is.
    if (err instanceof ApiError && err.status === 409) {
      const current = await reloadOrder(db, order);
      return current && current.status !== order.status ? expireIfOverdue(db, config, current, now) : (current ?? order);
    }
    throw err;
  }
}

/** The scheduled job: expires every order past its hold time and releases its stock. */
export async function expireOverdueOrders(db: Db, config: Config, now = new Date(), limit = 200): Promise<number> {
  const overdue = await db
    .select()
    .from(orders)
    .where(and(inArray(orders.status, EXPIRING), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const order of overdue) {
    const after = await expireIfOverdue(db, config, order, now);
    if (after.status === 'expired') expired++;
  }
  return expired;
}
