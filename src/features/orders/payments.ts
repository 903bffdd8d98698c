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

/**
 * Payments an admin must act on: money owed back, money nobody's order claims, one left
 * half-applied, and a part payment whose order closed without the rest (expired or cancelled:
 * what arrived is owed back, unless the rest comes and pays it late).
 */
export function needsAdmin(
  payment: { outcome: PaymentOutcome; refund: number },
  orderStatus: OrderStatus | null = null,
): boolean {
  return (
    payment.outcome === 'unmatched' ||
    payment.outcome === 'pending' ||
    payment.refund > 0 ||
    (payment.outcome === 'part' && orderStatus !== null && isClosedWithoutSale(orderStatus))
  );
}
