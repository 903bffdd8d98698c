import { z } from 'zod';
import { endpoint } from '../../../lib/api-contract.ts';
import { hasAtMostTwoDecimals } from '../../../lib/money.ts';
import { auditEntrySchema, count, instant, kobo, page, paging, search, version } from '../../admin/admin-contract.ts';
import { DELIVERY_METHODS } from '../delivery.ts';
import { ORDER_ACTORS, ORDER_STATUSES } from '../order-status.ts';
import { PAYMENT_OUTCOMES } from '../payments.ts';
import { orderViewSchema } from '../order-view.ts';

/**
 * The admin's side of orders: the list, one order, and the moves an admin makes (confirm a
 * transfer, ship, deliver, cancel). Money is kobo in answers; the forms take naira (what a bank
 * statement shows) and the Worker converts.
 */

/** GET /api/admin/orders: filtered by status, searched by number, e-mail, phone or name; newest first. */
export const adminOrderQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES, { error: `Must be one of: ${ORDER_STATUSES.join(', ')}` }).optional(),
  q: search,
  page,
});

/** An order as a row of the admin's lists (orders page, dashboard). */
export const adminOrderSummarySchema = z.object({
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: instant,
  customerName: z.string(),
  email: z.string(),
  phone: z.string(),
  deliveryMethod: z.enum(DELIVERY_METHODS),
  items: count,
  total: kobo,
  /** What the payment provider says has arrived so far: above 0 while unpaid, a part payment. */
  received: kobo,
  /** When the shopper said they paid (null if they have not). */
  reportedAt: instant.nullable(),
  /** When the order's hold on its stock ends, for an order still waiting for its money. */
  expiresAt: instant.nullable(),
  /** A reported transfer unconfirmed for longer than PAYMENT_REPORT_ALERT_HOURS: highlight it. */
  overdue: z.boolean(),
});
export type AdminOrderSummary = z.infer<typeof adminOrderSummarySchema>;

export const adminOrderListSchema = z.object({
  orders: z.array(adminOrderSummarySchema),
  ...paging,
  /** Orders per status, over the whole store (the filter's counts). */
  counts: z.record(z.enum(ORDER_STATUSES), count),
});

/** One order as the admin sees it: the shopper's view plus what only staff see. */
export const adminOrderDetailSchema = z.object({
  order: orderViewSchema,
  /**
   * What the admin's next move must name: the order as it was loaded. A move made on an
   * older version (another admin moved it meanwhile) is refused with 409 `order_changed`.
   */
  version: z.string(),
  overdue: z.boolean(),
  payment: z.object({ received: kobo, reference: z.string(), confirmedBy: z.string(), confirmedAt: instant }).nullable(),
  shipment: z.object({ carrier: z.string().nullable(), trackingNote: z.string().nullable() }).nullable(),
  /**
   * The payments recorded for this order (functions/payments/; a shared-account transfer, by the admin who confirmed it), oldest first: each
   * transfer, what it did (paid, part, extra, late, refund) and what of it is owed back.
   * Absent or empty without a provider.
   */
  providerPayments: z
    .array(
      z.object({
        amount: kobo,
        reference: z.string().nullable(),
        paidAt: instant,
        outcome: z.enum(PAYMENT_OUTCOMES),
        refund: kobo,
      }),
    )
    .optional(),
  /** Every status change: who (an admin's e-mail; null for the shopper or the Worker), when, and the note (a cancel's reason). */
  history: z.array(
    z.object({
      from: z.enum(ORDER_STATUSES).nullable(),
      to: z.enum(ORDER_STATUSES),
      actor: z.enum(ORDER_ACTORS),
      by: z.string().nullable(),
      note: z.string().nullable(),
      at: instant,
    }),
  ),
  audit: z.array(auditEntrySchema),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

const nairaAmount = z
  .number({ error: 'Must be the amount received, in naira (for example 1250000)' })
  .positive('Must be more than 0')
  .max(1_000_000_000)
  .refine(hasAtMostTwoDecimals, 'At most two decimals (kobo)');

export const confirmPaymentSchema = z.object({
  version,
  /** What the bank statement shows arrived, in naira; at least the order's total. */
  amountReceivedNaira: nairaAmount,
  /** The transfer's reference or session id on the bank statement. */
  bankReference: z
    .string({ error: "The transfer's reference on the bank statement is required" })
    .trim()
    .min(3, "The transfer's reference needs at least 3 characters, as the bank statement shows it")
    .max(60, "The transfer's reference is at most 60 characters"),
});
export const shipOrderSchema = z.object({
  version,
  carrier: z.string().trim().max(60, 'At most 60 characters').optional(),
  /** What the shopper sees: a tracking number, the rider's name and phone. */
  trackingNote: z.string().trim().max(200, 'At most 200 characters').optional(),
});
export const deliverOrderSchema = z.object({ version });
export const cancelOrderSchema = z.object({
  version,
  /** Shown in the order's history and the shopper's e-mail. */
  reason: z
    .string({ error: 'Say why the order is cancelled' })
    .trim()
    .min(3, 'Say why the order is cancelled (at least 3 characters)')
    .max(300, 'At most 300 characters'),
});

/** The admin's order endpoints (functions/orders/admin-routes.ts). Query strings are validated with adminOrderQuerySchema. */
export const adminOrderApi = {
  orders: endpoint({ method: 'GET', path: '/api/admin/orders', response: adminOrderListSchema }),
  order: endpoint({ method: 'GET', path: '/api/admin/orders/:number', response: adminOrderDetailSchema }),
  confirmPayment: endpoint({
    method: 'POST',
    path: '/api/admin/orders/:number/confirm-payment',
    body: confirmPaymentSchema,
    response: adminOrderDetailSchema,
  }),
  ship: endpoint({
    method: 'POST',
    path: '/api/admin/orders/:number/ship',
    body: shipOrderSchema,
    response: adminOrderDetailSchema,
  }),
  deliver: endpoint({
    method: 'POST',
    path: '/api/admin/orders/:number/deliver',
    body: deliverOrderSchema,
    response: adminOrderDetailSchema,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/admin/orders/:number/cancel',
    body: cancelOrderSchema,
    response: adminOrderDetailSchema,
  }),
};
