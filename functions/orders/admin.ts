import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminOrderDetail,
  adminOrderQuerySchema,
  AdminOrderSummary,
} from '../../src/features/orders/admin/admin-order-api.ts';
import { expiresByClock, ORDER_STATUSES, type OrderStatus } from '../../src/features/orders/order-status.ts';
import { stillOwed } from '../../src/features/orders/payments.ts';
import { adminSearch } from '../platform/admin-search.ts';
import { auditTrail } from '../platform/audit.ts';
import { historyEntries, historyQuery } from '../platform/history.ts';
import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import {
  orderEvents,
  orderLines,
  orders,
  paymentAccounts,
  providerPayments,
  users,
  type OrderRow,
  type UserRow,
} from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { type AdminMove, moveOrderAsAdmin, orderVersion } from './admin-moves.ts';
import { expireIfOverdue, expireOverdueOrders } from './expire.ts';
import { findOrderByNumber } from './find.ts';
import { toOrderView } from './view.ts';

/**
 * The admin's orders: the list (filtered, searched, paged, with counts per status), one
 * order with what only staff see; the moves an admin makes (confirm the transfer, ship,
 * deliver, cancel) are in functions/orders/admin-moves.ts. Every read expires overdue orders first, as the shopper's reads do
 * (functions/orders/expire.ts), so the admin never acts on an order that should be gone.
 */

export const ADMIN_ORDERS_PAGE_SIZE = 20;
const HOUR_SECONDS = 3600;
/** How many overdue orders one admin read expires before answering (the cron takes the rest). */
const EXPIRE_ON_READ = 50;

// ── Summaries ─────────────────────────────────────────────────────────────────────────────

/** The order columns a summary shows; its units and report time are read for the page's rows only (summarize()). */
const summaryColumns = {
  id: orders.id,
  number: orders.number,
  status: orders.status,
  createdAt: orders.createdAt,
  customerName: orders.customerName,
  email: orders.email,
  phone: orders.phone,
  deliveryMethod: orders.deliveryMethod,
  total: orders.total,
  amountPaid: orders.amountPaid,
  expiresAt: orders.expiresAt,
};
type SummaryRow = Pick<OrderRow, keyof typeof summaryColumns>;

/**
 * The report time of an order, for ordering the reported payments in SQL: raw SQL because
 * drizzle writes the columns of a one-table select unqualified, which would make
 * `order_id = id` compare two columns of order_events. One lookup on order_events_order_idx.
 */
const reportedAtOf = sql<
  number | null
>`(SELECT MAX(oe.created_at) FROM order_events oe WHERE oe.order_id = orders.id AND oe.to_status = 'payment_reported')`;

/**
 * Summaries of a page of orders: their units and when the shopper reported paying, read for
 * those orders only (order_lines_order_idx, order_events_order_idx) in one round trip.
 */
async function summarize(db: Db, config: Config, rows: SummaryRow[], now: Date): Promise<AdminOrderSummary[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [units, reports] = await db.batch([
    db
      .select({ orderId: orderLines.orderId, units: sql<number>`sum(${orderLines.quantity})`.mapWith(Number) })
      .from(orderLines)
      .where(inArray(orderLines.orderId, ids))
      .groupBy(orderLines.orderId),
    db
      .select({ orderId: orderEvents.orderId, at: sql<number>`max(${orderEvents.createdAt})`.mapWith(Number) })
      .from(orderEvents)
      .where(and(inArray(orderEvents.orderId, ids), eq(orderEvents.toStatus, 'payment_reported')))
      .groupBy(orderEvents.orderId),
  ]);
  const unitsOf = new Map(units.map((u) => [u.orderId, u.units]));
  const reportedOf = new Map(reports.map((r) => [r.orderId, Math.floor(r.at)]));
  return rows.map((row) => {
    const reportedAt = reportedOf.get(row.id) ?? null;
    return {
      number: row.number,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      customerName: row.customerName,
      email: row.email,
      phone: row.phone,
      deliveryMethod: row.deliveryMethod,
      items: unitsOf.get(row.id) ?? 0,
      total: row.total,
      received: row.amountPaid,
      reportedAt: reportedAt === null ? null : new Date(reportedAt * 1000).toISOString(),
      expiresAt: expiresByClock(row.status) ? row.expiresAt.toISOString() : null,
      overdue: isOverdue(row.status, reportedAt, config, now),
    };
  });
}

/** A reported transfer nobody confirmed for more than PAYMENT_REPORT_ALERT_HOURS. */
export function isOverdue(status: OrderStatus, reportedAtSeconds: number | null, config: Config, now: Date): boolean {
  return (
    status === 'payment_reported' &&
    reportedAtSeconds !== null &&
    now.getTime() / 1000 - reportedAtSeconds > config.PAYMENT_REPORT_ALERT_HOURS * HOUR_SECONDS
  );
}

// ── The list ──────────────────────────────────────────────────────────────────────────────

const searchCondition = (q: string) =>
  adminSearch(q, {
    reference: orders.number,
    prefix: 'GTS',
    email: orders.email,
    phone: orders.phone,
    text: [orders.customerName],
  });

export type AdminOrderQuery = z.output<typeof adminOrderQuerySchema>;

export async function listOrders(db: Db, config: Config, query: AdminOrderQuery, now = new Date()) {
  await expireOverdueOrders(db, config, now, EXPIRE_ON_READ);
  const where = and(query.status ? eq(orders.status, query.status) : undefined, query.q ? searchCondition(query.q) : undefined);
  const [rows, [total], perStatus] = await db.batch([
    db
      .select(summaryColumns)
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.number))
      .limit(ADMIN_ORDERS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_ORDERS_PAGE_SIZE),
    db.select({ n: count() }).from(orders).where(where),
    // Over the whole store, whatever the filter: the filter's own counts (a covering scan of orders_status_expires_idx).
    db.select({ status: orders.status, n: count() }).from(orders).groupBy(orders.status),
  ]);
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const { status, n } of perStatus) counts[status] = n;
  return {
    orders: await summarize(db, config, rows, now),
    page: query.page,
    pageSize: ADMIN_ORDERS_PAGE_SIZE,
    total: total?.n ?? 0,
    counts,
  };
}

// ── One order ─────────────────────────────────────────────────────────────────────────────

/** The order by number, expired first if its hold ran out; 404 when there is none. */
async function findForAdmin(db: Db, config: Config, number: string, now: Date): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  if (!row) throw new ApiError(404, 'order_not_found', `There is no order ${number}.`);
  return expireIfOverdue(db, config, row, now);
}

export async function orderDetail(db: Db, config: Config, number: string, now = new Date()): Promise<AdminOrderDetail> {
  return detailOf(db, config, await findForAdmin(db, config, number, now), now);
}

/** The order as the admin's page shows it: the shopper's view, the version, payment, shipment, history and audit. */
async function detailOf(db: Db, config: Config, order: OrderRow, now: Date): Promise<AdminOrderDetail> {
  const [lines, events, confirmer, accounts, payments] = await db.batch([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    historyQuery(db, orderEvents, eq(orderEvents.orderId, order.id)),
    db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, order.paymentConfirmedBy ?? ''))
      .limit(1),
    db.select().from(paymentAccounts).where(eq(paymentAccounts.orderId, order.id)),
    db
      .select()
      .from(providerPayments)
      .where(eq(providerPayments.orderId, order.id))
      .orderBy(asc(providerPayments.paidAt), asc(providerPayments.createdAt)),
  ]);
  const audit = await auditTrail(db, 'order', order.number);
  const reported = events.filter((e) => e.toStatus === 'payment_reported').at(-1);
  const reportedAt = reported ? Math.floor(reported.createdAt.getTime() / 1000) : null;
  const shipped = order.status === 'shipped' || order.status === 'delivered';
  return {
    order: toOrderView(order, lines, events, config, accounts[0]),
    version: orderVersion(order),
    overdue: isOverdue(order.status, reportedAt, config, now),
    payment:
      order.paymentReceived !== null && order.paymentConfirmedAt !== null
        ? {
            received: order.paymentReceived,
            reference: order.paymentReference ?? '',
            // The admin's e-mail; the user id if the account is gone; none: the provider's webhook.
            confirmedBy: confirmer[0]?.email ?? order.paymentConfirmedBy ?? 'the payment provider (automatic)',
            confirmedAt: order.paymentConfirmedAt.toISOString(),
          }
        : null,
    shipment:
      shipped || order.carrier || order.trackingNote ? { carrier: order.carrier, trackingNote: order.trackingNote } : null,
    providerPayments: payments.map((p) => ({
      amount: p.amount,
      reference: p.reference,
      paidAt: p.paidAt.toISOString(),
      outcome: p.outcome,
      refund: stillOwed(p, order.status),
    })),
    history: historyEntries(events, (actor) => actor === 'admin'),
    audit,
  };
}

// ── Moves ─────────────────────────────────────────────────────────────────────────────────

/** An admin's move on the order `number` (functions/orders/admin-moves.ts), answered with the order as it now is. */
export async function moveOrder(
  db: Db,
  config: Config,
  admin: Pick<UserRow, 'id' | 'email'>,
  number: string,
  move: AdminMove,
  now = new Date(),
): Promise<AdminOrderDetail> {
  const order = await findForAdmin(db, config, number, now);
  return detailOf(db, config, await moveOrderAsAdmin(db, config, admin, order, move, now), now);
}

// ── For the dashboard ─────────────────────────────────────────────────────────────────────

/** Reported transfers not yet confirmed, oldest report first. */
export async function reportedPayments(db: Db, config: Config, now: Date, limit = 100): Promise<AdminOrderSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(orders)
    .where(eq(orders.status, 'payment_reported'))
    .orderBy(asc(reportedAtOf), asc(orders.number))
    .limit(limit);
  return summarize(db, config, rows, now);
}

/** Unpaid orders whose hold ends within `hours`, soonest first (orders_status_expires_idx). */
export async function expiringSoon(db: Db, config: Config, now: Date, hours = 12, limit = 100): Promise<AdminOrderSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(orders)
    .where(
      and(
        inArray(orders.status, ['awaiting_payment']),
        gt(orders.expiresAt, now),
        lte(orders.expiresAt, new Date(now.getTime() + hours * HOUR_SECONDS * 1000)),
      ),
    )
    .orderBy(asc(orders.expiresAt), asc(orders.number))
    .limit(limit);
  return summarize(db, config, rows, now);
}
