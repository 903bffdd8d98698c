import { and, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { CLOSED_WITHOUT_SALE, type OrderStatus } from '../../src/features/orders/order-status.ts';
import { KEPT_BY_ORDER, needsAdmin, owedBack, stillOwed } from '../../src/features/orders/payments.ts';
import {
  ADMIN_PAYMENTS_PAGE_SIZE,
  type AdminPayment,
  type adminPaymentQuerySchema,
  type attachPaymentSchema,
  type resolvePaymentSchema,
} from '../../src/features/payments/admin/admin-payment-api.ts';
import type { Config } from '../env.ts';
import { auditStatement } from '../platform/audit.ts';
import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import { emailOutbox, orders, providerPayments, type ProviderPaymentRow, type UserRow } from '../platform/schema.ts';
import { outboxRowFor } from '../platform/outbox.ts';
import { refundSentEmail } from '../orders/messages.ts';
import { judgePayment } from './apply.ts';

type Admin = Pick<UserRow, 'id' | 'email'>;

/** What is owed back on a payment (owedBack in src/features/orders/payments.ts), in SQL. */
const owedSql = sql`CASE WHEN ${inArray(providerPayments.outcome, [...KEPT_BY_ORDER])} AND EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${providerPayments.orderId} AND ${inArray(orders.status, [...CLOSED_WITHOUT_SALE])}) THEN ${providerPayments.amount} ELSE ${providerPayments.refund} END`;

/**
 * Payments that wait for a person (needsAdmin, in SQL): unmatched or left half-applied and nobody
 * dealt with them yet, or with money still owed back (stillOwed: what is owed, in part, or all of
 * it when its order closed without a sale, less what admins settled).
 */
const waitingFilter: SQL = or(
  and(isNull(providerPayments.resolvedAt), inArray(providerPayments.outcome, ['unmatched', 'pending'])),
  sql`${owedSql} > ${providerPayments.settled}`,
) as SQL;

function toAdminPayment(row: ProviderPaymentRow, orderNumber: string | null, orderStatus: OrderStatus | null): AdminPayment {
  return {
    id: row.id,
    provider: row.provider,
    amount: row.amount,
    reference: row.reference,
    accountNumber: row.accountNumber,
    paidAt: row.paidAt.toISOString(),
    via: row.via,
    outcome: row.outcome,
    refund: stillOwed(row, orderStatus),
    orderNumber,
    waiting: needsAdmin(row, orderStatus),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: row.resolvedBy,
    // Without the attach's claim mark (a nonce that tells its own batch it won).
    resolution: row.resolution?.replace(CLAIM_MARK, '') ?? null,
  };
}

const CLAIM_MARK = / \[[0-9a-f-]{36}\]$/;

/** How many payments wait for a person (the list's badge and the dashboard). */
export async function paymentsWaiting(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(providerPayments).where(waitingFilter);
  return row?.n ?? 0;
}

export async function listPayments(db: Db, query: z.output<typeof adminPaymentQuerySchema>) {
  const where = query.view === 'waiting' ? waitingFilter : undefined;
  const [rows, [total], waiting] = await Promise.all([
    db
      .select({ payment: providerPayments, orderNumber: orders.number, orderStatus: orders.status })
      .from(providerPayments)
      .leftJoin(orders, eq(orders.id, providerPayments.orderId))
      .where(where)
      .orderBy(desc(providerPayments.createdAt), desc(providerPayments.id))
      .limit(ADMIN_PAYMENTS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_PAYMENTS_PAGE_SIZE),
    db.select({ n: count() }).from(providerPayments).where(where),
    paymentsWaiting(db),
  ]);
  return {
    items: rows.map((r) => toAdminPayment(r.payment, r.orderNumber, r.orderStatus)),
    page: query.page,
    pageSize: ADMIN_PAYMENTS_PAGE_SIZE,
    total: total?.n ?? 0,
    waiting,
  };
}

async function findPayment(db: Db, id: string) {
  const [row] = await db
    .select({ payment: providerPayments, orderNumber: orders.number, orderStatus: orders.status })
    .from(providerPayments)
    .leftJoin(orders, eq(orders.id, providerPayments.orderId))
    .where(eq(providerPayments.id, id))
    .limit(1);
  if (!row) throw new ApiError(404, 'payment_not_found', 'There is no such payment.');
  return row;
}

const paymentChanged = () =>
  new ApiError(409, 'payment_changed', 'Someone dealt with this payment while you looked at it. Reload the list.');

/**
 * An unmatched payment attached to the order it was for, by an admin: claimed with a
 * compare-and-set (still unmatched, no order), counted into the order's amount paid and audited
 * in the same batch, then judged as if it had arrived for that order just now (it may pay it).
 */
export async function attachPayment(
  db: Db,
  config: Config,
  admin: Admin,
  id: string,
  body: z.output<typeof attachPaymentSchema>,
  now = new Date(),
): Promise<AdminPayment> {
  const { payment } = await findPayment(db, id);
  if (payment.outcome !== 'unmatched' || payment.orderId !== null || payment.resolvedAt !== null) {
    throw new ApiError(409, 'payment_not_unmatched', 'Only a payment no order claims can be attached to an order.');
  }
  const [order] = await db.select().from(orders).where(eq(orders.number, body.orderNumber)).limit(1);
  if (!order) {
    throw new ApiError(400, 'invalid_request', 'The request is not valid: check orderNumber.', [
      { field: 'orderNumber', message: `There is no order ${body.orderNumber}.` },
    ]);
  }
  const claim = `attached to ${order.number}: ${body.note} [${crypto.randomUUID()}]`;
  const resolvedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const won = sql`EXISTS (SELECT 1 FROM ${providerPayments} WHERE ${providerPayments.id} = ${id} AND ${providerPayments.resolution} = ${claim})`;
  const [, counted] = await db.batch([
    db
      .update(providerPayments)
      .set({ orderId: order.id, outcome: 'pending', resolvedAt, resolvedBy: admin.email, resolution: claim })
      .where(and(eq(providerPayments.id, id), eq(providerPayments.outcome, 'unmatched'), isNull(providerPayments.orderId))),
    db
      .update(orders)
      .set({ amountPaid: sql`${orders.amountPaid} + ${payment.amount}` })
      .where(and(eq(orders.id, order.id), won))
      .returning(),
    auditStatement(
      db,
      admin,
      'payment',
      id,
      'attach',
      { order: { from: null, to: order.number }, note: { from: null, to: body.note } },
      won,
    ),
  ]);
  if (!counted[0]) throw paymentChanged();
  await judgePayment(
    db,
    config,
    counted[0],
    id,
    {
      eventId: payment.eventId,
      reference: payment.reference,
      accountNumber: payment.accountNumber,
      amount: payment.amount,
      paidAt: payment.paidAt,
    },
    now,
  );
  const after = await findPayment(db, id);
  return toAdminPayment(after.payment, after.orderNumber, after.orderStatus);
}

/**
 * A payment that waited, dealt with (the refund sent, or why nothing is owed): what it owes now is
 * settled, audited, once (a compare-and-set on what was settled and resolved before). A payment
 * that owes more later (its order cancelled after its excess was sent back) waits, and is resolved, again.
 */
export async function resolvePayment(
  db: Db,
  config: Config,
  admin: Admin,
  id: string,
  body: z.output<typeof resolvePaymentSchema>,
  now = new Date(),
): Promise<AdminPayment> {
  const { payment, orderStatus } = await findPayment(db, id);
  if (!needsAdmin(payment, orderStatus)) {
    throw new ApiError(409, 'payment_not_waiting', 'This payment does not wait for anyone: nothing to resolve.');
  }
  const resolvedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const settled = Math.max(owedBack(payment, orderStatus), payment.settled);
  // What this resolution sends back: the shopper of its order is told, in the same batch.
  const sentBack = settled - payment.settled;
  if (body.refundSent && sentBack <= 0) {
    throw new ApiError(400, 'invalid_request', 'The request is not valid: check refundSent.', [
      { field: 'refundSent', message: 'Nothing is owed back on this payment: say what you did instead.' },
    ]);
  }
  // This request's own mark on the row: of two resolves at once (a double click, two tabs), only
  // the one whose update won finds it, so only its audit row, e-mail and sum are written.
  const claim = crypto.randomUUID();
  const won = sql`EXISTS (SELECT 1 FROM ${providerPayments} WHERE ${providerPayments.id} = ${id} AND ${providerPayments.resolveClaim} = ${claim})`;
  const [order] =
    body.refundSent && payment.orderId
      ? await db
          .select({ number: orders.number, name: orders.customerName, email: orders.email })
          .from(orders)
          .where(eq(orders.id, payment.orderId))
          .limit(1)
      : [];
  const email = order
    ? refundSentEmail({ number: order.number, customer: { name: order.name, email: order.email } }, sentBack, config.SITE_URL)
    : undefined;
  const [updated] = await db.batch([
    db
      .update(providerPayments)
      .set({ resolvedAt, resolvedBy: admin.email, resolution: body.note, settled, resolveClaim: claim })
      .where(
        and(
          eq(providerPayments.id, id),
          eq(providerPayments.settled, payment.settled),
          payment.resolvedAt === null ? isNull(providerPayments.resolvedAt) : eq(providerPayments.resolvedAt, payment.resolvedAt),
        ),
      )
      .returning(),
    auditStatement(
      db,
      admin,
      'payment',
      id,
      'resolve',
      {
        resolution: { from: payment.resolution, to: body.note },
        settled: { from: payment.settled, to: settled },
        ...(email ? { refundSent: { from: null, to: sentBack } } : {}),
      },
      won,
    ),
    // What went back is no longer money the order holds (what its late payment, or an admin's
    // confirmation, may count towards the total).
    ...(payment.orderId && sentBack > 0 && KEPT_BY_ORDER.includes(payment.outcome)
      ? [
          db
            .update(orders)
            .set({ amountPaid: sql`max(${orders.amountPaid} - ${sentBack}, 0)` })
            .where(and(eq(orders.id, payment.orderId), won)),
        ]
      : []),
    ...(email && payment.orderId
      ? [
          db.insert(emailOutbox).select(
            db
              .select(outboxRowFor(email, sql<string>`${orders.id}`.as('order_id')))
              .from(orders)
              .where(and(eq(orders.id, payment.orderId), won)),
          ),
        ]
      : []),
  ]);
  if (!updated[0]) throw paymentChanged();
  const after = await findPayment(db, id);
  return toAdminPayment(after.payment, after.orderNumber, after.orderStatus);
}
