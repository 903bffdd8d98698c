import { and, eq, exists, notExists, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  cancelOrderSchema,
  confirmPaymentSchema,
  shipOrderSchema,
} from '../../src/features/orders/admin/admin-order-api.ts';
import { adminPaymentEvent, type OrderEvent } from '../../src/features/orders/order-status.ts';
import { formatNaira, nairaToKobo } from '../../src/lib/money.ts';
import { auditStatement, type Changes } from '../platform/audit.ts';
import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import { CHECKS, type OrderRow, orders, paymentAccounts, providerPayments, type UserRow } from '../platform/schema.ts';
import { lostTheRace } from '../platform/compare-and-set.ts';
import { creditStillThisOrders, isStockShortage, lateRevivalRefusal } from './late-payment.ts';
import type { Config } from '../env.ts';
import { type AllowedMove, changeOrderStatus, type MoveParts, type OrderMoveColumns } from './move.ts';

/**
 * The moves an admin makes on an order (confirm the transfer, on time or after the order expired;
 * ship, deliver, cancel): each the
 * state machine's move (functions/orders/move.ts, which judges it once) with the admin's own
 * rules and columns, made only on the version the admin saw, and audited in the move's batch.
 */

type Admin = Pick<UserRow, 'id' | 'email'>;

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

/**
 * The payment an admin confirms: the bank transfer's amount and reference, accepted only once
 * the full total has arrived (a 400 on amountReceivedNaira otherwise), with who confirmed it and when.
 */
function confirmedPayment(
  order: Pick<OrderRow, 'total' | 'amountPaid'>,
  body: z.output<typeof confirmPaymentSchema>,
  admin: Admin,
  at: Date,
): OrderMoveColumns {
  const received = nairaToKobo(body.amountReceivedNaira);
  if (received < order.total) {
    const message =
      order.amountPaid > 0 && received + order.amountPaid >= order.total
        ? `Less than the order's total of ${formatNaira(order.total)}: enter all that arrived for this order, the ${formatNaira(order.amountPaid)} that arrived before included.`
        : `Less than the order's total of ${formatNaira(order.total)}: confirm the payment only once the full amount has arrived.`;
    throw new ApiError(400, 'invalid_request', `The request is not valid: check amountReceivedNaira.`, [
      { field: 'amountReceivedNaira', message },
    ]);
  }
  return {
    paymentReceived: received,
    paymentReference: body.bankReference,
    paymentConfirmedBy: admin.id,
    paymentConfirmedAt: at,
  };
}

/** The columns an admin's move sets with the status, and the audit row's changes. */
function partsOf(order: OrderRow, move: AdminMove, admin: Admin, allowed: AllowedMove, at: Date) {
  const changes: Changes = { status: { from: allowed.from, to: allowed.to } };
  let set: OrderMoveColumns = {};
  switch (move.action) {
    case 'confirm_payment':
      set = confirmedPayment(order, move.body, admin, at);
      changes.paymentReceived = { from: order.paymentReceived, to: set.paymentReceived };
      changes.paymentReference = { from: order.paymentReference, to: set.paymentReference };
      break;
    case 'ship':
      set = { carrier: move.body.carrier || null, trackingNote: move.body.trackingNote || null };
      for (const key of ['carrier', 'trackingNote'] as const) {
        if (set[key] !== order[key]) changes[key] = { from: order[key], to: set[key] ?? null };
      }
      break;
    case 'cancel':
      changes.reason = { from: null, to: move.body.reason };
      break;
    case 'deliver':
      break;
  }
  return { set, changes };
}

/**
 * An admin's move on `order`, made only on the version the admin saw: the version is checked
 * here and again in the move's compare-and-set, so of two admins confirming the same order at
 * once exactly one wins (the other gets 409 `order_changed`). The order's columns, its history
 * row (with the admin), the shopper's e-mail, any stock release and the audit row
 * (functions/platform/audit.ts) are one D1 batch. Answers the order as it now is.
 */
export async function moveOrderAsAdmin(
  db: Db,
  config: Config,
  admin: Admin,
  order: OrderRow,
  move: AdminMove,
  now = new Date(),
): Promise<OrderRow> {
  if (orderVersion(order) !== move.body.version) throw orderChanged();
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const event = move.action === 'confirm_payment' ? adminPaymentEvent(order.status) : EVENTS[move.action];
  const late = event === 'accept_late_payment';
  const refusal = late ? await lateRevivalRefusal(db, config, order, now) : null;
  if (refusal) throw lateRefused(refusal);
  try {
    return await changeOrderStatus(db, config, order, event, 'admin', {
      note: move.action === 'cancel' ? move.body.reason : undefined,
      now,
      expectedTransitionId: order.lastTransitionId,
      actorUserId: admin.id,
      with: (allowed): MoveParts => {
        const { set, changes } = partsOf(order, move, admin, allowed, at);
        return {
          set,
          also: (won) => [
            auditStatement(db, admin, 'order', order.number, move.action, changes, won),
            ...(set.paymentReceived != null ? sharedAccountPayment(db, config, order, set.paymentReceived, at, won) : []),
            ...(late ? creditStillThisOrders(db, order, won) : []),
          ],
        };
      },
    });
  } catch (err) {
    // Lost the compare-and-set: the order moved since it was read.
    if (err instanceof ApiError && err.code === 'order_changed') throw orderChanged();
    if (late && isStockShortage(err)) throw lateRefused('late_payment_out_of_stock');
    if (late && lostTheRace(err, CHECKS.tradeInsVersionPositive)) throw lateRefused('late_payment_credit_spent');
    throw err;
  }
}

const LATE_REFUSALS = {
  late_payment_too_late: 'The order expired too long ago to be revived by a transfer',
  late_payment_unsellable: 'A product of this order is no longer on sale as it was ordered',
  late_payment_price_changed: 'A product of this order has a different price now than when it was ordered',
  late_payment_out_of_stock: 'Its units were sold after the order expired',
  late_payment_credit_spent: 'Its swap was ordered again after it expired, and that order holds the trade-in credit',
} as const;

/**
 * A late transfer that cannot revive the expired order: nothing is written (the order stays
 * expired, its units on sale), and the admin refunds the shopper from the bank.
 */
function lateRefused(code: keyof typeof LATE_REFUSALS) {
  return new ApiError(409, code, `${LATE_REFUSALS[code]}: the order stays expired. Refund the transfer to the shopper.`);
}

/**
 * The transfer an admin confirms, as the order's payment row, when it went into the store's
 * shared account (the order has no account of its own; with one, the provider reports the same
 * money itself, decision 023): `store_account`, via `admin`, in the move's batch and only if the
 * move won. `received` is all the admin saw arrive for the order, so the row is what of it no
 * payment recorded yet (a part the provider reported by its reference is in amountPaid already),
 * and amountPaid becomes `received`. So what is owed back on it is listed in the admin's payments
 * like a provider's payment (src/features/orders/payments.ts, owedBack): what arrived over the
 * total at once, and all of it, each part once, if the order is cancelled later.
 */
function sharedAccountPayment(db: Db, config: Config, order: OrderRow, received: number, at: Date, won: SQL) {
  const id = crypto.randomUUID();
  const paidAt = Math.floor(at.getTime() / 1000);
  const sharedAccount = and(
    eq(orders.id, order.id),
    won,
    notExists(db.select({ one: sql`1` }).from(paymentAccounts).where(eq(paymentAccounts.orderId, order.id))),
  );
  // Every column, in the table's order (an INSERT … SELECT: the row only if the SELECT finds the order).
  const row = {
    id: sql`${id}`.as('id'),
    provider: sql`'store_account'`.as('provider'),
    eventId: sql`${`confirmed:${order.id}`}`.as('event_id'),
    orderId: sql`${order.id}`.as('order_id'),
    accountNumber: sql`${config.BANK_ACCOUNT_NUMBER}`.as('account_number'),
    reference: sql`${orders.paymentReference}`.as('reference'),
    amount: sql`max(${received} - ${orders.amountPaid}, 0)`.as('amount_kobo'),
    paidAt: sql`${paidAt}`.as('paid_at'),
    via: sql`'admin'`.as('via'),
    outcome: sql`'paid'`.as('outcome'),
    refund: sql`${Math.max(received - order.total, 0)}`.as('refund_kobo'),
    settled: sql`0`.as('settled_kobo'),
    resolvedAt: sql`NULL`.as('resolved_at'),
    resolvedBy: sql`NULL`.as('resolved_by'),
    resolution: sql`NULL`.as('resolution'),
    resolveClaim: sql`NULL`.as('resolve_claim'),
    createdAt: sql`(unixepoch())`.as('created_at'),
    updatedAt: sql`(unixepoch())`.as('updated_at'),
  };
  return [
    db.insert(providerPayments).select(db.select(row).from(orders).where(sharedAccount)).onConflictDoNothing(),
    db
      .update(orders)
      .set({ amountPaid: sql`max(${orders.amountPaid}, ${received})` })
      .where(
        and(
          eq(orders.id, order.id),
          exists(db.select({ one: sql`1` }).from(providerPayments).where(eq(providerPayments.id, id))),
        ),
      ),
  ] as const;
}
