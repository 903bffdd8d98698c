import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { CATEGORY_IDS } from '../catalogue/categories.ts';
import { productInputSchema } from '../catalogue/product.ts';
import { DELIVERY_METHODS } from '../orders/delivery.ts';
import { ORDER_ACTORS, ORDER_STATUSES } from '../orders/order-status.ts';
import { orderViewSchema } from '../orders/order-view.ts';
import { tradeInViewSchema } from '../trade-ins/trade-in.ts';
import { TRADE_IN_ACTORS, TRADE_IN_STATUSES } from '../trade-ins/trade-in-status.ts';
import { hasAtMostTwoDecimals } from '../../lib/money.ts';

/**
 * The admin API's contract (see src/lib/api-contract.ts): everything under /api/admin/*,
 * all of it behind one middleware that answers 401 to guests and 403 to signed-in users
 * who are not admins (functions/admin/routes.ts). Money is kobo in answers; the
 * forms take naira (what a price tag and a bank statement show) and the Worker converts.
 */

const kobo = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
const instant = z.iso.datetime();
const page = z.coerce.number().int().min(1, 'Pages start at 1').max(10_000).default(1);
const search = z.string().trim().max(100, 'Search for at most 100 characters').optional();

/** A list's page: which one, how many per page, and how many there are in all. */
const paging = { page: z.number().int().positive(), pageSize: z.number().int().positive(), total: count };

/**
 * One entry of the audit trail: an admin's change to a product, an order or a subscriber.
 * `changes` maps each changed field to what it was and what it became.
 */
export const auditEntrySchema = z.object({
  at: instant,
  by: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

// ── Orders ────────────────────────────────────────────────────────────────────────────────

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

const version = z.string({ error: 'Reload the order and try again' }).min(1).max(100);
const nairaAmount = z
  .number({ error: 'Must be the amount received, in naira (for example 1250000)' })
  .positive('Must be more than 0')
  .max(1_000_000_000);

export const confirmPaymentSchema = z.object({
  version,
  /** What the bank statement shows arrived, in naira; at least the order's total. */
  amountReceivedNaira: nairaAmount,
  /** The transfer's reference or session id on the bank statement. */
  bankReference: z
    .string({ error: "The transfer's reference on the bank statement is required" })
    .trim()
    .min(3, 'At least 3 characters')
    .max(60, 'At most 60 characters'),
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

// ── Dashboard ─────────────────────────────────────────────────────────────────────────────

export const dashboardSchema = z.object({
  generatedAt: instant,
  /** Transfers shoppers reported and nobody confirmed yet, oldest first. */
  reportedPayments: z.array(adminOrderSummarySchema),
  /** Unpaid orders whose hold ends within the next 12 hours, soonest first. */
  expiringSoon: z.array(adminOrderSummarySchema),
  /** Products and variants on sale at or below LOW_STOCK_THRESHOLD units, fewest first. */
  lowStock: z.array(
    z.object({ productId: z.string(), variantId: z.string(), name: z.string(), variant: z.string(), stock: count }),
  ),
  lowStockThreshold: count,
  alertHours: z.number().positive(),
  /** The last 30 days (Lagos time), oldest first: orders placed, and revenue of those paid (paid, shipped or delivered). */
  daily: z.array(z.object({ day: z.iso.date(), orders: count, revenue: kobo })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// ── Catalogue ─────────────────────────────────────────────────────────────────────────────

export const adminProductQuerySchema = z.object({
  q: search,
  category: z.enum(CATEGORY_IDS, { error: 'Not one of the store’s categories' }).optional(),
  /** "true": the archived (deleted) products instead of those on sale. */
  archived: z.enum(['true', 'false']).optional(),
  page,
});

export const adminProductSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  category: z.string(),
  /** The lowest price (kobo) and the total stock, over the variants when it has them. */
  price: kobo,
  stock: count,
  variants: count,
  image: z.string(),
  featured: z.boolean(),
  active: z.boolean(),
  updatedAt: instant,
});
export type AdminProductSummary = z.infer<typeof adminProductSummarySchema>;

export const adminProductListSchema = z.object({ products: z.array(adminProductSummarySchema), ...paging });

/**
 * The rating and review count a product had before this store sold it (its data file's, or
 * what the admin copies from the maker's or a marketplace's page): its history. Shoppers see
 * it with this store's own reviews added (weighted by count); nobody sets what they see.
 * Absent from an edit: left as they are.
 */
export const catalogueRatingFields = {
  catalogueRating: z
    .number({ error: 'A number from 0 to 5' })
    .min(0, 'A number from 0 to 5')
    .max(5, 'A number from 0 to 5')
    .optional(),
  catalogueReviews: z
    .number({ error: 'A whole number' })
    .int('A whole number')
    .min(0, 'Zero or more')
    .max(100_000_000, 'At most 100,000,000')
    .optional(),
};

/** POST /api/admin/products: the form, with the catalogue's rating history if the admin gave one. */
export const createProductSchema = z.intersection(productInputSchema, z.object(catalogueRatingFields));
export type AdminProductInput = z.infer<typeof createProductSchema>;
/** What the form holds before parsing. */
export type AdminProductInputDraft = z.input<typeof createProductSchema>;

/** A product as the admin form edits it (naira, as typed), with what only the Worker sets. */
export const adminProductDetailSchema = z.object({
  id: z.string(),
  form: productInputSchema,
  active: z.boolean(),
  /** What shoppers see: the catalogue's history with this store's reviews added. */
  rating: z.number(),
  reviews: count,
  catalogueRating: z.number(),
  catalogueReviews: count,
  /** The version an edit must name (409 `product_changed` when someone saved it meanwhile). */
  version: z.string(),
  /** True when orders refer to it: deleting it archives it instead of erasing it. */
  ordered: z.boolean(),
  audit: z.array(auditEntrySchema),
});
export type AdminProductDetail = z.infer<typeof adminProductDetailSchema>;

/** PUT /api/admin/products/:id: the form, and the version it was loaded at. */
export const updateProductSchema = z.intersection(productInputSchema, z.object({ ...catalogueRatingFields, version }));

export const deleteProductAnswerSchema = z.object({
  /** Erased (never ordered), or archived (kept for the orders that name it, gone from the shop). */
  outcome: z.enum(['deleted', 'archived']),
});

/** POST /api/admin/images answers with where the uploaded image is served. */
export const uploadedImageSchema = z.object({ url: z.string(), contentType: z.string(), bytes: count });

// ── Subscribers ───────────────────────────────────────────────────────────────────────────

export const subscriberQuerySchema = z.object({ q: search, page });
export const subscriberListSchema = z.object({
  subscribers: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      createdAt: instant,
      /** When the address confirmed through the e-mailed link; null: still waiting, not a subscriber yet. */
      confirmedAt: instant.nullable(),
    }),
  ),
  ...paging,
});

// ── Trade-ins ─────────────────────────────────────────────────────────────────────────────

/** GET /api/admin/trade-ins: filtered by status, searched by reference, e-mail, phone, name or model; newest first. */
export const adminTradeInQuerySchema = z.object({
  status: z.enum(TRADE_IN_STATUSES, { error: `Must be one of: ${TRADE_IN_STATUSES.join(', ')}` }).optional(),
  q: search,
  page,
});

export const adminTradeInSummarySchema = z.object({
  reference: z.string(),
  status: z.enum(TRADE_IN_STATUSES),
  createdAt: instant,
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  /** "Apple iPhone 12 128GB". */
  device: z.string(),
  want: z.enum(['cash', 'swap']),
  /** The swap's product name, when it is a swap. */
  swapFor: z.string().nullable(),
  photos: count,
  offer: kobo.nullable(),
});
export type AdminTradeInSummary = z.infer<typeof adminTradeInSummarySchema>;

export const adminTradeInListSchema = z.object({
  tradeIns: z.array(adminTradeInSummarySchema),
  ...paging,
  counts: z.record(z.enum(TRADE_IN_STATUSES), count),
});

export const adminTradeInDetailSchema = z.object({
  tradeIn: tradeInViewSchema,
  /** What the next move must name (409 `trade_in_changed` when someone moved it meanwhile). */
  version: z.string(),
  /** The photos, served to admins only (GET …/photos/:index). */
  photos: z.array(z.object({ url: z.string(), contentType: z.string(), bytes: count })),
  history: z.array(
    z.object({
      from: z.enum(TRADE_IN_STATUSES).nullable(),
      to: z.enum(TRADE_IN_STATUSES),
      actor: z.enum(TRADE_IN_ACTORS),
      by: z.string().nullable(),
      note: z.string().nullable(),
      at: instant,
    }),
  ),
  audit: z.array(auditEntrySchema),
});
export type AdminTradeInDetail = z.infer<typeof adminTradeInDetailSchema>;

const tradeInVersion = z.string({ error: 'Reload the request and try again' }).min(1).max(100);
const moveNote = z.string().trim().max(300, 'At most 300 characters').optional();

/** POST /api/admin/trade-ins/:reference/move: one of the admin's moves, on the version the admin loaded. */
export const moveTradeInSchema = z.discriminatedUnion(
  'move',
  [
    /** The admin called or messaged the shopper; the note is for the history (what was said). */
    z.object({ move: z.literal('contact'), version: tradeInVersion, note: moveNote }),
    /** An offer in naira (a swap's must be below the product's price), with a note the shopper sees. */
    z.object({
      move: z.literal('offer'),
      version: tradeInVersion,
      offerNaira: z
        .number({ error: 'Enter the offer in naira (for example 250000)' })
        .positive('The offer must be more than 0')
        .max(100_000_000, 'The offer must be at most ₦100,000,000')
        .refine(hasAtMostTwoDecimals, 'At most two decimal places (kobo)'),
      note: moveNote,
    }),
    /** The device was received and paid for (or swapped). */
    z.object({ move: z.literal('complete'), version: tradeInVersion, note: moveNote }),
    /** The request ends without a deal; the reason goes to the shopper. */
    z.object({
      move: z.literal('close'),
      version: tradeInVersion,
      note: z
        .string({ error: 'Say why the request is closed' })
        .trim()
        .min(3, 'Say why the request is closed (at least 3 characters)')
        .max(300, 'At most 300 characters'),
    }),
  ],
  { error: 'Choose a move: contact, offer, complete or close' },
);
export type MoveTradeIn = z.input<typeof moveTradeInSchema>;

/** The admin API (src/lib/api-contract.ts). Query strings are validated with the *QuerySchema above. */
export const adminApi = {
  dashboard: endpoint({ method: 'GET', path: '/api/admin/dashboard', response: dashboardSchema }),

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

  products: endpoint({ method: 'GET', path: '/api/admin/products', response: adminProductListSchema }),
  product: endpoint({ method: 'GET', path: '/api/admin/products/:id', response: adminProductDetailSchema }),
  createProduct: endpoint({
    method: 'POST',
    path: '/api/admin/products',
    body: createProductSchema,
    response: adminProductDetailSchema,
  }),
  updateProduct: endpoint({
    method: 'PUT',
    path: '/api/admin/products/:id',
    body: updateProductSchema,
    response: adminProductDetailSchema,
  }),
  deleteProduct: endpoint({ method: 'DELETE', path: '/api/admin/products/:id', response: deleteProductAnswerSchema }),
  /**
   * The image's bytes as the body (not JSON), its type in `content-type`; the Worker checks the
   * type by the content itself and caps the size.
   */
  uploadImage: endpoint({ method: 'POST', path: '/api/admin/images', response: uploadedImageSchema }),

  tradeIns: endpoint({ method: 'GET', path: '/api/admin/trade-ins', response: adminTradeInListSchema }),
  tradeIn: endpoint({ method: 'GET', path: '/api/admin/trade-ins/:reference', response: adminTradeInDetailSchema }),
  moveTradeIn: endpoint({
    method: 'POST',
    path: '/api/admin/trade-ins/:reference/move',
    body: moveTradeInSchema,
    response: adminTradeInDetailSchema,
  }),
  /** The photo's bytes (JPEG, PNG or WebP), not JSON: the contract's response is unused. */
  tradeInPhoto: endpoint({ method: 'GET', path: '/api/admin/trade-ins/:reference/photos/:index', response: z.unknown() }),

  subscribers: endpoint({ method: 'GET', path: '/api/admin/subscribers', response: subscriberListSchema }),
  /** text/csv, not JSON: every confirmed subscriber with their unsubscribe link (the contract's response is the file's text). */
  exportSubscribers: endpoint({ method: 'GET', path: '/api/admin/subscribers/export', response: z.string() }),
  removeSubscriber: endpoint({
    method: 'DELETE',
    path: '/api/admin/subscribers/:id',
    response: z.object({ removed: z.literal(true) }),
  }),
};
