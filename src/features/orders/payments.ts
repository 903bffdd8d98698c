import { isClosedWithoutSale, type OrderStatus } from './order-status.ts';

/**
 * Payments a provider reports (functions/payments/): the providers the store can use, and what
 * each reported payment did to its order. Pure: the Worker decides, the admin and the order's
 * pages read these words.
 */

/** Payment providers with an implementation (decision 023). */
export const PAYMENT_PROVIDERS = ['paystack'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];

/**
 * Where a recorded payment (a provider_payments row) comes from: a provider's report, or
 * `store_account`: a transfer into the store's shared account, recorded when an admin confirms it
 * (functions/orders/admin-moves.ts), so money owed back on it is listed like a provider's.
 */
export const PAYMENT_SOURCES = [...PAYMENT_PROVIDERS, 'store_account'] as const;
/** How a payment was recorded: the provider's webhook, the reconciliation job, or an admin's confirmation. */
export const PAYMENT_VIAS = ['webhook', 'reconciliation', 'admin'] as const;

/**
 * What a reported payment did (functions/payments/apply.ts):
 * - `paid`: it brought what arrived for the order to its total (any excess is `refund`);
 * - `part`: less than what remained: the order still awaits the rest, and keeps its hold;
 * - `extra`: the order was already paid in full by earlier payments: all of it is owed back;
 * - `late`: it arrived after the order expired and the stock was taken again: the order is paid;
 * - `refund`: it arrived for an order that cannot take it (expired with its stock gone, cancelled): all owed back;
 * - `unmatched`: no order has its account or reference: kept for an admin to attach;
 * - `pending`: recorded and counted, not yet judged (for an instant; one left so was interrupted: an admin looks).
 */
export const PAYMENT_OUTCOMES = ['paid', 'part', 'extra', 'late', 'refund', 'unmatched', 'pending'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** Outcomes whose money went into its order: all of it is owed back if the order closes without a sale. */
export const KEPT_BY_ORDER: readonly PaymentOutcome[] = ['paid', 'part', 'late', 'extra'];

/**
 * What of a payment is owed back to the shopper: all of it when its order closed without a sale
 * (a part payment whose order expired or was cancelled without the rest, unless the rest comes
 * and pays it late; an order paid and then cancelled by an admin), else what applying it flagged.
 */
export function owedBack(
  payment: { outcome: PaymentOutcome; amount: number; refund: number },
  orderStatus: OrderStatus | null = null,
): number {
  const closed = orderStatus !== null && isClosedWithoutSale(orderStatus);
  return closed && KEPT_BY_ORDER.includes(payment.outcome) ? payment.amount : payment.refund;
}

/** A recorded payment as the rules below read it: `settled` is what of it admins dealt with. */
interface JudgedPayment {
  outcome: PaymentOutcome;
  amount: number;
  refund: number;
  /** What of what is owed back admins settled (sent back, or said why nothing is owed). */
  settled: number;
  resolvedAt: Date | null;
}

/**
 * What of a payment is still owed back: owedBack less what admins settled. A payment whose
 * excess was sent back and whose order is cancelled later owes the rest: the amount less the excess.
 */
export function stillOwed(payment: JudgedPayment, orderStatus: OrderStatus | null = null): number {
  return Math.max(owedBack(payment, orderStatus) - payment.settled, 0);
}

/** Payments an admin must act on: money still owed back, money nobody's order claims, one left half-applied. */
export function needsAdmin(payment: JudgedPayment, orderStatus: OrderStatus | null = null): boolean {
  const unclaimed = (payment.outcome === 'unmatched' || payment.outcome === 'pending') && payment.resolvedAt === null;
  return unclaimed || stillOwed(payment, orderStatus) > 0;
}
