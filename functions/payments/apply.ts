import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { formatNaira } from '../../src/lib/money.ts';
import { KEPT_BY_ORDER, type PaymentOutcome, type PaymentProviderId } from '../../src/features/orders/payments.ts';
import type { Config } from '../env.ts';
import { changeOrderStatus, reloadOrder } from '../orders/move.ts';
import { lostTheRace } from '../platform/compare-and-set.ts';
import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import { CHECKS, emailOutbox, orders, paymentAccounts, providerPayments, type OrderRow } from '../platform/schema.ts';
import { outboxRowFor } from '../platform/outbox.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { partPaidEmail } from '../orders/messages.ts';
import type { ReportedPayment } from './provider.ts';
import { creditStillThisOrders, isStockShortage, lateRevivalRefusal } from '../orders/late-payment.ts';

/**
 * A payment the provider reported (its webhook, or the reconciliation job), applied once
 * (decision 023):
 *  1. matched to its order by the account it was paid into, else by its reference;
 *  2. recorded and added to the order's `amount_paid_kobo` in one batch, the addition guarded by
 *     the record's own id, so of two deliveries of one event (unique `(provider, event_id)`)
 *     only one counts, however they interleave; a payment then judged to go back in full (a
 *     refund) is taken out of it again, so that only money the order keeps pays it;
 *  3. judged against the order as it is now: the full amount on an unpaid order moves it to paid
 *     (the state machine's confirm_payment by the provider, with the history row, the e-mail and
 *     the outcome in the move's batch); short stays unpaid with what remains shown; over is paid
 *     with the excess flagged for refund; after expiry it is paid if the stock can be taken
 *     again, else flagged; an order already paid (by the provider: a second payment) is flagged.
 *     A move lost to a concurrent one (an admin's confirmation, the expiry job) is judged again
 *     against the order's new state.
 */
export interface AppliedPayment {
  /** This event was recorded before: nothing changed. */
  duplicate: boolean;
  outcome: PaymentOutcome;
  orderNumber: string | null;
  refund: number;
}

/**
 * The order a payment belongs to: its account's, else its reference's (our order number). The
 * provider hands a closed temporary account to a later charge, so one number can name several
 * orders over time: the one the payment's reference names, else the newest opened by the time it
 * was paid, else the newest.
 */
async function matchOrder(db: Db, provider: PaymentProviderId, payment: ReportedPayment): Promise<OrderRow | undefined> {
  if (payment.accountNumber) {
    const reference = payment.reference?.trim().toUpperCase() ?? '';
    const paidAt = Math.floor(payment.paidAt.getTime() / 1000);
    const [byAccount] = await db
      .select({ order: orders })
      .from(paymentAccounts)
      .innerJoin(orders, eq(orders.id, paymentAccounts.orderId))
      .where(and(eq(paymentAccounts.provider, provider), eq(paymentAccounts.accountNumber, payment.accountNumber)))
      .orderBy(
        desc(sql`${orders.number} = ${reference}`),
        desc(sql`${paymentAccounts.createdAt} <= ${paidAt}`),
        desc(paymentAccounts.createdAt),
        desc(sql`${paymentAccounts}.rowid`),
      )
      .limit(1);
    if (byAccount) return byAccount.order;
  }
  if (payment.reference) {
    const [byReference] = await db
      .select()
      .from(orders)
      .where(eq(orders.number, payment.reference.trim().toUpperCase()))
      .limit(1);
    if (byReference) return byReference;
  }
  return undefined;
}

/**
 * What an order's payments other than `paymentId` were judged to keep (KEPT_BY_ORDER) and the
 * store still has, in kobo: less what was owed back on them, or sent back (settled) if more.
 */
async function keptBy(db: Db, orderId: string, paymentId: string): Promise<number> {
  const [row] = await db
    .select({
      kept: sql<number>`coalesce(sum(${providerPayments.amount} - max(${providerPayments.refund}, ${providerPayments.settled})), 0)`,
    })
    .from(providerPayments)
    .where(
      and(
        eq(providerPayments.orderId, orderId),
        ne(providerPayments.id, paymentId),
        inArray(providerPayments.outcome, [...KEPT_BY_ORDER]),
      ),
    );
  return row?.kept ?? 0;
}

export async function applyProviderPayment(
  db: Db,
  config: Config,
  provider: PaymentProviderId,
  payment: ReportedPayment,
  via: 'webhook' | 'reconciliation',
  now = new Date(),
): Promise<AppliedPayment> {
  const order = await matchOrder(db, provider, payment);
  const id = crypto.randomUUID();
  const record = {
    id,
    provider,
    eventId: payment.eventId,
    orderId: order?.id ?? null,
    accountNumber: payment.accountNumber,
    reference: payment.reference,
    amount: payment.amount,
    paidAt: payment.paidAt,
    via,
    outcome: order ? ('pending' as const) : ('unmatched' as const),
  };
  const inserted = db.insert(providerPayments).values(record).onConflictDoNothing();
  if (!order) {
    const [rows] = await db.batch([inserted.returning({ id: providerPayments.id })]);
    return { duplicate: rows.length === 0, outcome: 'unmatched', orderNumber: null, refund: 0 };
  }
  // The record and the order's running total, in one batch; the addition only if this very
  // record went in (a redelivery's insert does nothing, so neither does its addition).
  const [rows, updated] = await db.batch([
    inserted.returning({ id: providerPayments.id }),
    db
      .update(orders)
      .set({ amountPaid: sql`${orders.amountPaid} + ${payment.amount}` })
      .where(and(eq(orders.id, order.id), sql`EXISTS (SELECT 1 FROM ${providerPayments} WHERE ${providerPayments.id} = ${id})`))
      .returning(),
  ]);
  if (rows.length === 0 || !updated[0]) {
    return { duplicate: true, outcome: 'pending', orderNumber: order.number, refund: 0 };
  }
  const judged = await judgePayment(db, config, updated[0], id, payment, now);
  return { duplicate: false, orderNumber: order.number, ...judged };
}

/**
 * What a payment just counted into `order.amountPaid` does to the order (also for a payment an
 * admin attaches: functions/payments/admin.ts); moves the order when it pays it.
 */
export function judgePayment(
  db: Db,
  config: Config,
  order: OrderRow,
  paymentId: string,
  payment: ReportedPayment,
  now: Date,
): Promise<{ outcome: PaymentOutcome; refund: number }> {
  return judge(db, config, order, paymentId, payment, order.amountPaid - payment.amount, now);
}

async function judge(
  db: Db,
  config: Config,
  order: OrderRow,
  paymentId: string,
  payment: ReportedPayment,
  paidBefore: number,
  now: Date,
  attempt = 0,
): Promise<{ outcome: PaymentOutcome; refund: number }> {
  // An expired order holds only what its judged payments kept (a part paid while it waited):
  // another payment that came with this one, judged to go back or not judged yet, must not help
  // it pay (a kobo after a refused ₦65,999.99 would revive the order as paid).
  const held = order.status === 'expired' ? await keptBy(db, order.id, paymentId) : paidBefore;
  const paidAfter = held + payment.amount;
  const excess = Math.max(0, paidAfter - order.total);
  const settle = async (outcome: PaymentOutcome, refund: number) => {
    const judged = db.update(providerPayments).set({ outcome, refund }).where(eq(providerPayments.id, paymentId));
    if (outcome === 'part') {
      // The shopper hears what arrived and what is still to pay, once: only while this payment
      // is still unjudged, in the batch that judges it (a redelivery or a second judge writes none).
      // Counted per recipient (anyone can type an address at the checkout and pay a naira at a
      // time into the order's account), in a count of its own, apart from the order confirmations.
      const told = await allowEmailTo(db, config, order.email, 'payment', now);
      const message = partPaidEmail(
        { number: order.number, customer: { name: order.customerName, email: order.email }, expiresAt: order.expiresAt },
        paidAfter,
        order.total - paidAfter,
        config.SITE_URL,
      );
      const tell = db.insert(emailOutbox).select(
        db
          .select(outboxRowFor(message, sql<string>`${order.id}`.as('order_id')))
          .from(providerPayments)
          .where(and(eq(providerPayments.id, paymentId), eq(providerPayments.outcome, 'pending'))),
      );
      if (told) await db.batch([tell, judged]);
      else await judged;
      return { outcome, refund };
    }
    if (outcome !== 'refund') {
      await judged;
      return { outcome, refund };
    }
    // All of it goes back: it is no longer money the order holds, so it leaves the order's
    // running total. Otherwise a payment refused now would count towards the next one, and a
    // kobo after a refused ₦65,999.99 would revive an expired order as paid. Taken out once:
    // only while this payment is still unjudged, in the batch that judges it.
    await db.batch([
      db
        .update(orders)
        .set({ amountPaid: sql`max(${orders.amountPaid} - ${payment.amount}, 0)` })
        .where(
          and(
            eq(orders.id, order.id),
            sql`EXISTS (SELECT 1 FROM ${providerPayments} WHERE ${providerPayments.id} = ${paymentId} AND ${providerPayments.outcome} = 'pending')`,
          ),
        ),
      judged,
    ]);
    return { outcome, refund };
  };
  const note = `${formatNaira(payment.amount)} received by transfer${
    payment.reference ? ` (reference ${payment.reference})` : ''
  }; ${formatNaira(paidAfter)} of ${formatNaira(order.total)} in all.`;

  const move = async (event: 'confirm_payment' | 'accept_late_payment', outcome: PaymentOutcome) => {
    try {
      await changeOrderStatus(db, config, order, event, 'provider', {
        now,
        note,
        // Judged on the order as read: a concurrent move (an admin's confirmation, the expiry
        // job) wins or loses the compare-and-set, and a loss is judged again below.
        expectedTransitionId: order.lastTransitionId,
        with: () => ({
          set: {
            paymentReceived: paidAfter,
            paymentReference: payment.reference ?? payment.eventId,
            paymentConfirmedBy: null,
            paymentConfirmedAt: new Date(Math.floor(now.getTime() / 1000) * 1000),
          },
          also: (won) => [
            db
              .update(providerPayments)
              .set({ outcome, refund: excess })
              .where(and(eq(providerPayments.id, paymentId), won)),
            ...(event === 'accept_late_payment' ? creditStillThisOrders(db, order, won) : []),
          ],
        }),
      });
      return { outcome, refund: excess };
    } catch (err) {
      if (event === 'accept_late_payment' && (isStockShortage(err) || lostTheRace(err, CHECKS.tradeInsVersionPositive)))
        return settle('refund', payment.amount);
      if (!(err instanceof ApiError) || err.code !== 'order_changed' || attempt > 3) throw err;
      const current = await reloadOrder(db, order);
      if (!current) throw err;
      return judge(db, config, current, paymentId, payment, paidBefore, now, attempt + 1);
    }
  };

  switch (order.status) {
    case 'awaiting_payment':
    case 'payment_reported':
      return paidAfter >= order.total ? move('confirm_payment', 'paid') : settle('part', 0);
    case 'paid':
    case 'shipped':
    case 'delivered':
      // Paid already: by the provider's earlier payments (this one is extra), or by an admin who
      // confirmed this transfer from the statement (it completes what the provider saw).
      return paidBefore >= order.total ? settle('extra', payment.amount) : settle('paid', excess);
    case 'expired':
      if (paidAfter < order.total) return settle('refund', payment.amount);
      return (await lateRevivalRefusal(db, config, order, now))
        ? settle('refund', payment.amount)
        : move('accept_late_payment', 'late');
    case 'cancelled':
      return settle('refund', payment.amount);
  }
}
