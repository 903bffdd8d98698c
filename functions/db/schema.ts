import { sql } from 'drizzle-orm';
import { check, index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ORDER_STATUSES } from '../../src/features/orders/order-status.ts';

/**
 * The D1 schema: the single source for the tables, the generated migrations in
 * migrations/ and the row types. Money is integer kobo; times are unix seconds.
 */

const timestamps = {
  createdAt: integer('created_at', { mode: 'timestamp' }).notNull().default(sql`(unixepoch())`),
  updatedAt: integer('updated_at', { mode: 'timestamp' }).notNull().default(sql`(unixepoch())`),
};

export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    brand: text('brand').notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    price: integer('price_kobo').notNull(),
    image: text('image').notNull(),
    variants: text('variants', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    stock: integer('stock').notNull().default(0),
    rating: real('rating').notNull().default(0),
    reviews: integer('reviews').notNull().default(0),
    featured: integer('featured', { mode: 'boolean' }).notNull().default(false),
    /** Deleting a product archives it: orders keep pointing at it and a re-seed does not bring it back. */
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [
    check('products_price_positive', sql`${t.price} > 0`),
    check('products_stock_not_negative', sql`${t.stock} >= 0`),
    index('products_category_idx').on(t.category),
  ],
);

export const newsletterSubscribers = sqliteTable('newsletter_subscribers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Stored lower-cased, so one address is one subscriber. */
  email: text('email').notNull().unique(),
  createdAt: timestamps.createdAt,
});

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;

/**
 * Orders. `number` (GTS-…) is what the shopper and the bank transfer see; it is
 * random, so one order's number says nothing about another's. The browser's
 * idempotency key and the order's access token are stored only as SHA-256 hashes.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull().unique(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('awaiting_payment'),
    customerName: text('customer_name').notNull(),
    /** Lower-cased; with the number it is how a guest finds the order. */
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    subtotal: integer('subtotal_kobo').notNull(),
    shipping: integer('shipping_kobo').notNull(),
    total: integer('total_kobo').notNull(),
    idempotencyKeyHash: text('idempotency_key_hash').notNull().unique(),
    /** SHA-256 of the request body the key was first used with: a key reused for another order is refused. */
    requestHash: text('request_hash').notNull(),
    accessTokenHash: text('access_token_hash').notNull(),
    /** The signed-in shopper who placed it, when there is one (accounts arrive with sign-in). */
    userId: text('user_id'),
    /** Unpaid orders expire at this time and their stock goes back on sale. */
    expiresAt: integer('expires_at', { mode: 'timestamp' }).notNull(),
    /** Set by each status change; lets the statements of one change's batch see that it won. */
    lastTransitionId: text('last_transition_id'),
    ...timestamps,
  },
  (t) => [
    check('orders_total_is_sum', sql`${t.total} = ${t.subtotal} + ${t.shipping}`),
    index('orders_status_expires_idx').on(t.status, t.expiresAt),
    index('orders_email_idx').on(t.email),
    index('orders_user_idx').on(t.userId),
  ],
);

export const orderLines = sqliteTable(
  'order_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: text('order_id').notNull().references(() => orders.id),
    productId: text('product_id').notNull().references(() => products.id),
    /** Name and image as they were when ordered: an order reads the same after the catalogue changes. */
    name: text('name').notNull(),
    image: text('image').notNull(),
    variant: text('variant').notNull().default(''),
    unitPrice: integer('unit_price_kobo').notNull(),
    quantity: integer('quantity').notNull(),
    lineTotal: integer('line_total_kobo').notNull(),
  },
  (t) => [
    check('order_lines_quantity_positive', sql`${t.quantity} > 0`),
    check('order_lines_total', sql`${t.lineTotal} = ${t.unitPrice} * ${t.quantity}`),
    index('order_lines_order_idx').on(t.orderId),
  ],
);

/** Every status change, who made it and when: the order's history. */
export const orderEvents = sqliteTable(
  'order_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: text('order_id').notNull().references(() => orders.id),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    actor: text('actor', { enum: ['customer', 'admin', 'system'] }).notNull(),
    note: text('note'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('order_events_order_idx').on(t.orderId)],
);

/**
 * E-mails to send. Written in the same batch as the change they report, so a
 * message is never lost or sent for a change that did not happen; delivered
 * afterwards by the provider adapter (functions/email/).
 */
export const EMAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'held'] as const;

export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: text('order_id').references(() => orders.id),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /**
     * pending → sending (claimed by one delivery run) → sent; back to pending after an
     * error; failed after too many attempts; held when no provider is configured.
     */
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamps.createdAt,
    sentAt: integer('sent_at', { mode: 'timestamp' }),
    /** Not before this time: the back-off after an error, or the end of a delivery run's claim. */
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp' }),
  },
  (t) => [index('email_outbox_status_idx').on(t.status, t.nextAttemptAt)],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
