import type { PaymentOutcome } from '../../orders/payments.ts';

/** What a reported payment did, in the admin's words (src/features/orders/payments.ts). */
export const OUTCOME_LABELS: Record<PaymentOutcome, string> = {
  paid: 'paid the order',
  part: 'part of the total (the rest was still due when it arrived)',
  extra: 'arrived after the order was paid in full',
  late: 'arrived after the order expired; the stock was taken again',
  refund: 'arrived for an order that cannot take it',
  unmatched: 'no order has this account or reference',
  pending: 'recorded, not applied (interrupted)',
};
