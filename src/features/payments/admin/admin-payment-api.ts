import { z } from 'zod';
import { endpoint } from '../../../lib/api-contract.ts';
import { count, instant, kobo, page } from '../../admin/admin-contract.ts';
import { orderLookupSchema } from '../../orders/checkout.ts';
import { PAYMENT_OUTCOMES, PAYMENT_SOURCES, PAYMENT_VIAS } from '../../orders/payments.ts';

/**
 * The admin's payments (functions/payments/admin.ts): what the payment provider reported and the
 * shared-account transfers admins confirmed, and the
 * ones that wait for a person: a payment no order claims (attach it to its order), money owed back
 * (send the refund, then say so), or one left half-applied.
 */
export const adminPaymentSchema = z.object({
  id: z.string(),
  /** The provider that reported it, or `store_account`: an admin confirmed a transfer into the shared account. */
  provider: z.enum(PAYMENT_SOURCES),
  amount: kobo,
  reference: z.string().nullable(),
  accountNumber: z.string().nullable(),
  paidAt: instant,
  via: z.enum(PAYMENT_VIAS),
  outcome: z.enum(PAYMENT_OUTCOMES),
  /** What of it is owed back to the shopper. */
  refund: kobo,
  /** The order it was matched or attached to (null: unmatched). */
  orderNumber: z.string().nullable(),
  /** It waits for a person (unmatched, owed back, or half-applied) and nobody dealt with it yet. */
  waiting: z.boolean(),
  resolvedAt: instant.nullable(),
  /** The admin's e-mail. */
  resolvedBy: z.string().nullable(),
  resolution: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const ADMIN_PAYMENTS_PAGE_SIZE = 25;

export const adminPaymentQuerySchema = z.object({
  /** `waiting` (the default): only the payments that wait for a person; `all`: every one, newest first. */
  view: z.enum(['waiting', 'all']).default('waiting'),
  page,
});

export const adminPaymentListSchema = z.object({
  items: z.array(adminPaymentSchema),
  page: count,
  pageSize: count,
  total: count,
  /** How many wait for a person, whatever the view (the dashboard shows it too). */
  waiting: count,
});

const note = z
  .string({ error: 'Say what you did' })
  .trim()
  .min(3, 'Say what you did (at least 3 characters)')
  .max(500, 'At most 500 characters');

/** Attach an unmatched payment to the order it was for (the shopper paid into the wrong account, or named the order in the narration). */
export const attachPaymentSchema = z.object({ orderNumber: orderLookupSchema.shape.number, note });
/**
 * A payment that waited is dealt with: the refund sent, or nothing to do (say why). `refundSent`:
 * what is owed back on it was sent, and its order's shopper is told so by e-mail (only for a
 * payment that owes something and has an order; absent or false: no e-mail).
 */
export const resolvePaymentSchema = z.object({
  note,
  refundSent: z.boolean({ error: 'Say whether you sent the refund' }).default(false),
});

export const adminPaymentApi = {
  payments: endpoint({ method: 'GET', path: '/api/admin/payments', response: adminPaymentListSchema }),
  attachPayment: endpoint({
    method: 'POST',
    path: '/api/admin/payments/:id/attach',
    body: attachPaymentSchema,
    response: adminPaymentSchema,
  }),
  resolvePayment: endpoint({
    method: 'POST',
    path: '/api/admin/payments/:id/resolve',
    body: resolvePaymentSchema,
    response: adminPaymentSchema,
  }),
};
