import { and, asc, count, desc, eq, gt, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type {
  AdminOrderDetail,
  AdminOrderSummary,
  adminOrderQuerySchema,
  cancelOrderSchema,
  confirmPaymentSchema,
  shipOrderSchema,
} from '../../src/features/admin/admin-api.ts';
import {
  expiresByClock,
  nextStatus,
  ORDER_STATUSES,
  type OrderEvent,
  type OrderStatus,
} from '../../src/features/orders/order-status.ts';
import { formatNaira, nairaToKobo } from '../../src/lib/money.ts';
import type { z } from 'zod';
import type { Db } from '../platform/db.ts';
import { adminAudit, orderEvents, orderLines, orders, users, type OrderRow, type UserRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { expireIfOverdue, expireOverdueOrders } from './expire.ts';
import { findOrderByNumber } from './find.ts';
import { changeOrderStatus, type OrderMoveColumns } from './move.ts';
import { toOrderView } from './view.ts';
import { auditTrail, type Changes } from '../platform/audit.ts';

import { adminSearch } from '../platform/admin-search.ts';
/**
 * The admin's orders: the list (filtered, searched, paged, with counts per status), one
 * order with what only staff see, and the moves an admin makes (confirm the transfer, ship,
 * deliver, cancel). Every read expires overdue orders first, as the shopper's reads do
 * (functions/orders/expire.ts), so the admin never acts on an order that should be gone.
 */

export const ADMIN_ORDERS_PAGE_SIZE = 20;
const HOUR_SECONDS = 3600;
/** How many overdue orders one admin read expires before answering (the cron takes the rest). */
const EXPIRE_ON_READ = 50;

// ── Versions ──────────────────────────────────────────────────────────────────────────────

/**
 * What an admin's move must name: the status and the id every move stamps (null until the
 * first move after placing), so any move (another admin's, the shopper's report, an expiry)
 * gives the order a new version.
 */
export function orderVersion(order: Pick<OrderRow, 'status' | 'lastTransitionId'>): string {
  return `${order.status}.${order.lastTransitionId ?? 'placed'}`;
}

const orderChanged = () =>
  new ApiError(
    409,
    'order_changed',
    'The order changed since you loaded it (another admin or the shopper moved it). Reload it and try again.',
  );

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
  const [lines, events, confirmer] = await db.batch([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db
      .select({
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actor: orderEvents.actor,
        note: orderEvents.note,
        createdAt: orderEvents.createdAt,
        email: users.email,
      })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorUserId))
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.id)),
    db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, order.paymentConfirmedBy ?? ''))
      .limit(1),
  ]);
  const audit = await auditTrail(db, 'order', order.number);
  const reported = events.filter((e) => e.toStatus === 'payment_reported').at(-1);
  const reportedAt = reported ? Math.floor(reported.createdAt.getTime() / 1000) : null;
  const shipped = order.status === 'shipped' || order.status === 'delivered';
  return {
    order: toOrderView(order, lines, events, config),
    version: orderVersion(order),
    overdue: isOverdue(order.status, reportedAt, config, now),
    payment:
      order.paymentReceived !== null && order.paymentConfirmedAt !== null
        ? {
            received: order.paymentReceived,
            reference: order.paymentReference ?? '',
            // The admin's e-mail; the user id if the account is gone.
            confirmedBy: confirmer[0]?.email ?? order.paymentConfirmedBy ?? '',
            confirmedAt: order.paymentConfirmedAt.toISOString(),
          }
        : null,
    shipment:
      shipped || order.carrier || order.trackingNote ? { carrier: order.carrier, trackingNote: order.trackingNote } : null,
    history: events.map((e) => ({
      from: e.fromStatus,
      to: e.toStatus,
      actor: e.actor,
      by: e.actor === 'admin' ? (e.email ?? null) : null,
      note: e.note,
      at: e.createdAt.toISOString(),
    })),
    audit,
  };
}

// ── Moves ─────────────────────────────────────────────────────────────────────────────────

export type AdminMove =
  | { action: 'confirm_payment'; body: z.output<typeof confirmPaymentSchema> }
  | { action: 'ship'; body: z.output<typeof shipOrderSchema> }
  | { action: 'deliver'; body: { version: string } }
  | { action: 'cancel'; body: z.output<typeof cancelOrderSchema> };

const EVENTS: Record<AdminMove['action'], OrderEvent> = {
  confirm_payment: 'confirm_payment',
  ship: 'ship',
  deliver: 'deliver',
  cancel: 'cancel',
};

/**
 * An admin's move on the order `number`, made only on the version the admin saw: the
 * version is checked here and again in the move's compare-and-set, so of two admins
 * confirming the same order at once exactly one wins (the other gets 409 `order_changed`).
 * The order's columns, its history row (with the admin), the shopper's e-mail, any stock
 * release and the audit row are one D1 batch. Answers the order as it now is.
 */
export async function moveOrderAsAdmin(
  db: Db,
  config: Config,
  admin: Pick<UserRow, 'id' | 'email'>,
  number: string,
  move: AdminMove,
  now = new Date(),
): Promise<AdminOrderDetail> {
  const order = await findForAdmin(db, config, number, now);
  if (orderVersion(order) !== move.body.version) throw orderChanged();
  const event = EVENTS[move.action];
  const next = nextStatus(order.status, event, 'admin');
  if (!next.ok) throw new ApiError(409, next.reason === 'illegal' ? 'illegal_transition' : 'forbidden', next.message);

  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const changes: Changes = { status: { from: order.status, to: next.to } };
  let set: OrderMoveColumns = {};
  let note: string | undefined;
  switch (move.action) {
    case 'confirm_payment': {
      const received = nairaToKobo(move.body.amountReceivedNaira);
      if (received < order.total) {
        const message = `Less than the order's total of ${formatNaira(order.total, { compact: false })}: confirm the payment only once the full amount has arrived.`;
        throw new ApiError(400, 'invalid_request', `The request is not valid: check amountReceivedNaira.`, [
          { field: 'amountReceivedNaira', message },
        ]);
      }
      set = {
        paymentReceived: received,
        paymentReference: move.body.bankReference,
        paymentConfirmedBy: admin.id,
        paymentConfirmedAt: at,
      };
      changes.paymentReceived = { from: order.paymentReceived, to: received };
      changes.paymentReference = { from: order.paymentReference, to: move.body.bankReference };
      break;
    }
    case 'ship': {
      set = { carrier: move.body.carrier || null, trackingNote: move.body.trackingNote || null };
      for (const key of ['carrier', 'trackingNote'] as const) {
        if (set[key] !== order[key]) changes[key] = { from: order[key], to: set[key] ?? null };
      }
      break;
    }
    case 'cancel':
      note = move.body.reason;
      changes.reason = { from: null, to: note };
      break;
    case 'deliver':
      break;
  }

  let moved: OrderRow;
  try {
    moved = await changeOrderStatus(db, config, order, event, 'admin', {
      note,
      now,
      set,
      expectedTransitionId: order.lastTransitionId,
      actorUserId: admin.id,
      also: (won) => [auditIfMoved(db, admin, order, move.action, changes, won, at)],
    });
  } catch (err) {
    // Lost the compare-and-set: the order moved since it was read.
    if (err instanceof ApiError && err.code === 'order_changed') throw orderChanged();
    throw err;
  }
  return detailOf(db, config, moved, now);
}

/**
 * The audit row of an order's move, written only if the move won (`won`, from
 * changeOrderStatus): an INSERT … SELECT in the move's own batch, the row
 * functions/platform/audit.ts's auditStatement() would write. Not auditStatement() itself: its
 * plain INSERT would also record the move that lost the race.
 */
function auditIfMoved(
  db: Db,
  admin: Pick<UserRow, 'id' | 'email'>,
  order: OrderRow,
  action: string,
  changes: Changes,
  won: SQL,
  at: Date,
) {
  return db.insert(adminAudit).select(
    db
      .select({
        id: sql<number>`NULL`.as('id'),
        entity: sql`'order'`.as('entity'),
        entityId: sql`${order.number}`.as('entity_id'),
        action: sql`${action}`.as('action'),
        actorUserId: sql`${admin.id}`.as('actor_user_id'),
        actorEmail: sql`${admin.email}`.as('actor_email'),
        changes: sql`${JSON.stringify(changes)}`.as('changes'),
        createdAt: sql`${Math.floor(at.getTime() / 1000)}`.as('created_at'),
      })
      .from(orders)
      .where(and(eq(orders.id, order.id), won)),
  );
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
