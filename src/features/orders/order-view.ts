import { z } from 'zod';
import { DELIVERY_METHODS } from './delivery.ts';
import { NIGERIAN_STATES } from './nigeria.ts';
import { ORDER_STATUSES } from './order-status.ts';

/**
 * An order as the API shows it to the shopper who placed it: the checkout's
 * payment step, the tracking page and (later) the account pages. The Worker builds
 * it; the browser parses it with this schema before use. Money is kobo.
 */
const kobo = z.number().int().nonnegative();

export const bankAccountSchema = z.object({
  bankName: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
});

export const orderViewSchema = z.object({
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.iso.datetime(),
  /**
   * When the order stops holding its items and expires if nothing happens: for an unpaid
   * order, placed + holdHours; once payment is reported, the report + holdHours (the time
   * the store has to see the transfer). Meaningless once paid or closed.
   */
  expiresAt: z.iso.datetime(),
  /** The hold that `expiresAt` counts: ORDER_HOLD_HOURS, or PAYMENT_REPORT_HOLD_HOURS after a report. */
  holdHours: z.number().positive(),
  customer: z.object({
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    city: z.string(),
    /** '' for an order picked up at the store. */
    state: z.union([z.enum(NIGERIAN_STATES), z.literal('')]),
  }),
  /** How the order reaches the shopper; `shipping` is its fee (0 for pick-up). */
  deliveryMethod: z.enum(DELIVERY_METHODS),
  lines: z.array(
    z.object({
      productId: z.string(),
      name: z.string(),
      image: z.string(),
      /** The variant's label as ordered ("512GB"; '' for none)… */
      variant: z.string(),
      /** …and its id, for a link back to it (/product/{productId}?variant={variantId}). */
      variantId: z.string(),
      unitPrice: kobo,
      quantity: z.number().int().positive(),
      lineTotal: kobo,
    }),
  ),
  subtotal: kobo,
  shipping: kobo,
  /**
   * A swap's trade-in credit (src/features/trade-ins): the agreed value of the shopper's device,
   * taken off the order (total = subtotal + shipping - credit). Null or absent for other orders.
   */
  credit: z.object({ tradeIn: z.string(), amount: kobo }).nullable().optional(),
  total: kobo,
  /**
   * What to transfer and where: while the order waits for payment (`due: true`), and after
   * the shopper reported the transfer (`due: false`: they may want to check what they sent);
   * otherwise null.
   */
  payment: z.nullable(
    bankAccountSchema.extend({
      amount: kobo,
      /** The order number, to put in the transfer's narration. */
      reference: z.string(),
      /** True while the transfer is still owed; false once the shopper reported it. */
      due: z.boolean(),
      /**
       * The account is this order's own, opened by the payment provider: the transfer confirms
       * itself when it lands (functions/payments/). False or absent: the store's shared account,
       * confirmed by a person.
       */
      ownAccount: z.boolean().optional(),
      /** What the provider says arrived so far (a part payment); `amount` is what is left. */
      received: kobo.optional(),
      /** Until when the order's own account takes the transfer (null: no limit given). */
      takesPaymentUntil: z.iso.datetime().nullable().optional(),
    }),
  ),
  /**
   * The order was given an account of its own by a payment provider (decision 023): its payment
   * confirms itself, before and after it is paid (`payment` is null by then). Optional for
   * answers from before it existed.
   */
  paidIntoOwnAccount: z.boolean().optional(),
  history: z.array(z.object({ status: z.enum(ORDER_STATUSES), at: z.iso.datetime() })),
  /**
   * How the order travels, once the store shipped it: the carrier and the note the store left
   * for the shopper (a tracking number, the rider's name and phone); null before it shipped.
   * Optional for answers from before it existed.
   */
  shipment: z.object({ carrier: z.string().nullable(), trackingNote: z.string().nullable() }).nullable().optional(),
  /**
   * Why the store cancelled the order, as the admin wrote it (on one line): shown where the
   * order is looked up, as the e-mail said it. Null when it was not cancelled by the store (the
   * shopper's own cancel, an expiry). Optional for answers from before it existed.
   */
  cancelReason: z.string().nullable().optional(),
});

export type OrderView = z.infer<typeof orderViewSchema>;

/** POST /api/orders answers with the order and, once, the token that lets this browser act on it. */
export const placedOrderSchema = z.object({ order: orderViewSchema, accessToken: z.string().min(20) });
export type PlacedOrder = z.infer<typeof placedOrderSchema>;
