import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ROLES, THEMES } from '../../src/features/account/account-values.ts';
import { AUDIT_ENTITIES, type AuditEntity } from '../../src/features/admin/admin-contract.ts';
import { DELIVERY_METHODS } from '../../src/features/orders/delivery.ts';
import { ORDER_ACTORS, ORDER_STATUSES } from '../../src/features/orders/order-status.ts';
import { BATTERY_HEALTH } from '../../src/features/trade-ins/trade-in.ts';
import { TRADE_IN_ACTORS, TRADE_IN_STATUSES } from '../../src/features/trade-ins/trade-in-status.ts';
import { PAYMENT_OUTCOMES, PAYMENT_PROVIDERS, PAYMENT_SOURCES, PAYMENT_VIAS } from '../../src/features/orders/payments.ts';

/**
 * The D1 schema: the single source for the tables, the generated migrations in
 * migrations/ and the row types. Money is integer kobo; times are unix seconds.
 */

/**
 * The CHECK constraints by name. The schema declares them with these constants and
 * functions/platform/constraint-errors.ts recognises their failures by the same ones, so a
 * renamed constraint cannot silently stop being recognised.
 */
export const CHECKS = {
  productsPricePositive: 'products_price_positive',
  productsStockNotNegative: 'products_stock_not_negative',
  variantsPricePositive: 'product_variants_price_positive',
  variantsStockNotNegative: 'product_variants_stock_not_negative',
  ordersTotalIsSum: 'orders_total_is_sum',
  ordersCreditNotNegative: 'orders_credit_not_negative',
  orderLinesQuantityPositive: 'order_lines_quantity_positive',
  orderLinesTotal: 'order_lines_total',
  reviewsRatingRange: 'reviews_rating_range',
  tradeInsVersionPositive: 'trade_ins_version_positive',
  tradeInsOfferPositive: 'trade_ins_offer_positive',
} as const;
export type CheckName = (typeof CHECKS)[keyof typeof CHECKS];

const timestamps = {
  createdAt: integer('created_at', { mode: 'timestamp' }).notNull().default(sql`(unixepoch())`),
  /** Set by the database clock on insert and, through drizzle's $onUpdate, on every drizzle update() of the row. */
  updatedAt: integer('updated_at', { mode: 'timestamp' })
    .notNull()
    .default(sql`(unixepoch())`)
    .$onUpdate(() => sql`(unixepoch())`),
};

export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    brand: text('brand').notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    /** With variants: the lowest variant price, kept by the product_variants triggers (migration 0009). */
    price: integer('price_kobo').notNull(),
    image: text('image').notNull(),
    /** What the variants choose ("Storage", "Colour"); '' for a product without variants. */
    variantLabel: text('variant_label').notNull().default(''),
    /** With variants: their total stock, kept by the product_variants triggers. */
    stock: integer('stock').notNull().default(0),
    /** What shoppers see: the catalogue's rating history and the store's own reviews, weighted together (functions/accounts/reviews.ts). */
    rating: real('rating').notNull().default(0),
    reviews: integer('reviews').notNull().default(0),
    /** The rating and review count the catalogue brought (data file or admin form): the product's history before our own reviews. */
    catalogueRating: real('catalogue_rating').notNull().default(0),
    catalogueReviews: integer('catalogue_reviews').notNull().default(0),
    featured: integer('featured', { mode: 'boolean' }).notNull().default(false),
    /**
     * Its variants' labels ("128GB 256GB", "Black White"), for the search index only: kept by
     * the product_variants triggers of migration 0023, read by `products_fts`. '' without variants.
     */
    options: text('options').notNull().default(''),
    /** Deleting a product archives it: orders keep pointing at it and a re-seed does not bring it back. */
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [
    check(CHECKS.productsPricePositive, sql`${t.price} > 0`),
    check(CHECKS.productsStockNotNegative, sql`${t.stock} >= 0`),
    // Catalogue search (functions/catalogue/product-search.ts, docs/decisions/012-search-in-d1-with-fts5.md):
    // one index per filter shape, each covering what the counts read, and one per sort order.
    index('products_category_idx').on(t.active, t.category, t.brand, t.price),
    index('products_brand_idx').on(t.active, t.brand, t.price, t.category),
    index('products_price_idx').on(t.active, t.price),
    index('products_name_idx').on(t.active, sql`${t.name} COLLATE NOCASE`, t.id),
    index('products_rating_idx').on(t.active, t.rating, t.reviews),
    index('products_category_name_idx').on(t.active, t.category, sql`${t.name} COLLATE NOCASE`, t.id),
    index('products_category_price_idx').on(t.active, t.category, t.price),
    index('products_category_rating_idx').on(t.active, t.category, t.rating, t.reviews),
    index('products_featured_idx')
      .on(t.rating, t.reviews, t.brand, t.category, t.price)
      .where(sql`${t.active} = 1 AND ${t.featured} = 1`),
    // A brand's products in name order (a brand with a price band reads a page, not the brand).
    index('products_brand_name_idx').on(t.active, t.brand, sql`${t.name} COLLATE NOCASE`, t.id),
    // A category word's products in relevance order (decision 022): fewest words in the name, then
    // rating, then in stock, as `relevance` in functions/catalogue/product-search.ts spells them.
    index('products_category_relevance_idx').on(
      t.active,
      t.category,
      sql`(length(${t.name}) - length(replace(${t.name}, ' ', '')))`,
      sql`${t.rating} DESC`,
      sql`(${t.stock} > 0) DESC`,
      sql`${t.name} COLLATE NOCASE`,
      t.id,
    ),
  ],
);

/**
 * How many products on sale each category and brand holds (and how many of them are featured),
 * inside and outside the price filter's default range (₦0 to ₦5,000,000: PRICE_FILTER_MAX_NAIRA,
 * written into the triggers), kept by triggers on `products` (migration 0016): the listing's
 * totals and facets without a price band or words read these rows, one per category and brand,
 * not one index entry per product (decision 022).
 */
export const productFacets = sqliteTable(
  'product_facets',
  {
    /** 1: priced within the default range a listing without a price filter shows. */
    inPriceRange: integer('in_price_range').notNull(),
    category: text('category').notNull(),
    brand: text('brand').notNull(),
    products: integer('products').notNull(),
    featuredProducts: integer('featured_products').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.inPriceRange, t.category, t.brand] }),
    // A brand filter's counts read that brand's rows only.
    index('product_facets_brand_idx').on(t.brand, t.inPriceRange, t.category, t.products, t.featuredProducts),
    // The featured shelf's counts and brands read the rows that hold featured products only.
    index('product_facets_featured_idx')
      .on(t.inPriceRange, t.category, t.brand, t.featuredProducts)
      .where(sql`${t.featuredProducts} > 0`),
  ],
);

/**
 * A product's variants (storage, colour, edition), each a real option with its own price
 * and stock. Triggers (migration 0009) keep the product's `price_kobo` at the lowest
 * variant price and its `stock` at their sum, so listing, filters and sorts read one table.
 */
export const productVariants = sqliteTable(
  'product_variants',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    /** Unique within the product; the `?variant=` of the product page and a cart line's variant. */
    id: text('id').notNull(),
    label: text('label').notNull(),
    price: integer('price_kobo').notNull(),
    stock: integer('stock').notNull().default(0),
    /** null: the product's image. */
    image: text('image'),
    /** The order the shopper sees them in. */
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.id] }),
    check(CHECKS.variantsPricePositive, sql`${t.price} > 0`),
    check(CHECKS.variantsStockNotNegative, sql`${t.stock} >= 0`),
  ],
);

/**
 * What the catalogue's data files said of each synced field at the last sync (`npm run deploy`,
 * `npm run db:seed`; scripts/catalogue/sync.ts, docs/decisions/025-one-catalogue-truth.md). A
 * field whose file value changed since is applied to D1 only if D1 still holds this value, that
 * is, no admin changed it since; otherwise it is listed as a conflict. `variantId` is '' for a
 * product's own fields; `value` is the field's value as JSON.
 */
export const catalogueSynced = sqliteTable(
  'catalogue_synced',
  {
    productId: text('product_id').notNull(),
    variantId: text('variant_id').notNull().default(''),
    field: text('field').notNull(),
    value: text('value').notNull(),
    syncedAt: integer('synced_at', { mode: 'timestamp' }).notNull().default(sql`(unixepoch())`),
  },
  (t) => [primaryKey({ columns: [t.productId, t.variantId, t.field] })],
);

/**
 * Newsletter sign-ups, double opt-in: a row is written when the form is sent and counts as a
 * subscriber only once the address confirmed it through the e-mailed link (`confirmedAt`).
 */
export const newsletterSubscribers = sqliteTable(
  'newsletter_subscribers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Stored lower-cased, so one address is one subscriber. */
    email: text('email').notNull().unique(),
    createdAt: timestamps.createdAt,
    /** When the address confirmed through the e-mailed link; null while it waits (not a subscriber yet). */
    confirmedAt: integer('confirmed_at', { mode: 'timestamp' }),
    /** SHA-256 of the pending confirmation link's secret; null once used. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: integer('confirm_expires_at', { mode: 'timestamp' }),
  },
  (t) => [uniqueIndex('newsletter_confirm_token_idx').on(t.confirmTokenHash)],
);

/**
 * Devices that dismissed (or used) the install offer: the spec's "install-prompt dismissals
 * stored per device". `device_id` is the random id the browser keeps in localStorage
 * (src/features/pwa/device-id.browser.ts); nothing ties it to a person.
 */
export const installPromptDismissals = sqliteTable('install_prompt_dismissals', {
  deviceId: text('device_id').primaryKey(),
  /** How many times this device said no (or installed): a repeat is recorded, not refused. */
  dismissals: integer('dismissals').notNull().default(1),
  ...timestamps,
});

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;
export type VariantRow = typeof productVariants.$inferSelect;

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
    /**
     * The mailbox the e-mail address reaches (mailboxKey: no +tag, no Gmail dots): what the
     * unpaid units held per e-mail address are counted by (functions/orders/limits.ts).
     */
    mailbox: text('mailbox').notNull().default(''),
    phone: text('phone').notNull(),
    /** Delivery to the address below, or pick-up at the Ikeja store (then address, city and state are ''). */
    deliveryMethod: text('delivery_method', { enum: DELIVERY_METHODS }).notNull().default('delivery'),
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
    /**
     * When the order's hold on its stock ends: an unpaid order (placed + ORDER_HOLD_HOURS) or a
     * reported transfer nobody confirmed (report + PAYMENT_REPORT_HOLD_HOURS, set by the report)
     * then expires and its stock goes back on sale. Not read once the order is paid or closed.
     */
    expiresAt: integer('expires_at', { mode: 'timestamp' }).notNull(),
    /** Set by each status change; lets the statements of one change's batch see that it won. */
    lastTransitionId: text('last_transition_id'),
    /** The transfer as the admin who confirmed it saw it on the bank statement (null until confirmed). */
    paymentReceived: integer('payment_received_kobo'),
    paymentReference: text('payment_reference'),
    /** The admin's user id; with the history row (who and when) it answers "who confirmed this?". */
    paymentConfirmedBy: text('payment_confirmed_by'),
    paymentConfirmedAt: integer('payment_confirmed_at', { mode: 'timestamp' }),
    /** Set when the order is marked shipped: the carrier and the note the shopper sees (tracking number, rider). */
    carrier: text('carrier'),
    trackingNote: text('tracking_note'),
    /**
     * A swap's order (src/features/trade-ins): the trade-in it comes from (its reference) and the agreed value of
     * the shopper's device, taken off the total. Null and 0 for every other order.
     */
    tradeInReference: text('trade_in_reference'),
    credit: integer('credit_kobo').notNull().default(0),
    /**
     * What arrived for the order: the sum of its provider_payments (the provider's reports, and
     * an admin's confirmation of a transfer into the shared account), kept in the batch that
     * records each payment, so a payment is counted once (functions/payments/apply.ts,
     * functions/orders/admin-moves.ts). 0 before the money lands.
     */
    amountPaid: integer('amount_paid_kobo').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check(CHECKS.ordersTotalIsSum, sql`${t.total} = ${t.subtotal} + ${t.shipping} - ${t.credit}`),
    check(CHECKS.ordersCreditNotNegative, sql`${t.credit} >= 0`),
    index('orders_status_expires_idx').on(t.status, t.expiresAt),
    index('orders_email_idx').on(t.email),
    index('orders_user_idx').on(t.userId),
    // The admin's lists: newest first, overall and per status, and the dashboard's days.
    index('orders_created_idx').on(t.createdAt),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_trade_in_idx').on(t.tradeInReference),
    // Unpaid units held per phone and per delivery address (functions/orders/limits.ts).
    index('orders_phone_status_idx').on(t.phone, t.status),
    index('orders_address_status_idx').on(t.address, t.city, t.state, t.status),
    index('orders_mailbox_status_idx').on(t.mailbox, t.status),
  ],
);

export const orderLines = sqliteTable(
  'order_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    /** Name and image as they were when ordered: an order reads the same after the catalogue changes. */
    name: text('name').notNull(),
    image: text('image').notNull(),
    /** The variant's label as it was when ordered ('' for none); `variantId` names the variant. */
    variant: text('variant').notNull().default(''),
    variantId: text('variant_id').notNull().default(''),
    unitPrice: integer('unit_price_kobo').notNull(),
    quantity: integer('quantity').notNull(),
    lineTotal: integer('line_total_kobo').notNull(),
  },
  (t) => [
    check(CHECKS.orderLinesQuantityPositive, sql`${t.quantity} > 0`),
    check(CHECKS.orderLinesTotal, sql`${t.lineTotal} = ${t.unitPrice} * ${t.quantity}`),
    index('order_lines_order_idx').on(t.orderId),
    // Unpaid units held of one product across all orders.
    index('order_lines_product_idx').on(t.productId, t.variantId),
  ],
);

/** Every status change, who made it and when: the order's history. */
export const orderEvents = sqliteTable(
  'order_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    actor: text('actor', { enum: ORDER_ACTORS }).notNull(),
    /** The signed-in user who made the move (an admin, or the shopper's account); null for a guest or the Worker. */
    actorUserId: text('actor_user_id'),
    note: text('note'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('order_events_order_idx').on(t.orderId)],
);

/**
 * E-mails to send. Written in the same batch as the change they report, so a
 * message is never lost or sent for a change that did not happen; delivered
 * afterwards by the provider adapter (functions/platform/outbox.ts).
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
    /** The delivery run that holds the row while it is 'sending': only that run may record how the sending went. */
    claimId: text('claim_id'),
    /** Which message it is (order_confirmation, order_status_paid…): what logs name instead of the recipient or the text. */
    kind: text('kind').notNull().default('unknown'),
  },
  (t) => [index('email_outbox_status_idx').on(t.status, t.nextAttemptAt)],
);

/**
 * Fixed-window request counters per client and route (functions/platform/rate-limit.ts,
 * docs/decisions/010-rate-limits-in-d1.md): one row per key and window, counted up by an
 * upsert; the cron deletes windows that ended long ago.
 */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    /** What is limited and for whom, e.g. `orders.place:203.0.113.7`. */
    key: text('key').notNull(),
    /** The window's start, in unix seconds (a multiple of its length). */
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_window_idx').on(t.windowStart)],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

/**
 * Accounts (issue 11, docs/decisions/011-sessions-and-sign-in.md). The JS keys id, name,
 * email, emailVerified and image are what @auth/drizzle-adapter reads and writes (Google
 * sign-in); the rest is the store's own. Sessions are JWT cookies: `sessionVersion` is
 * copied into each one and checked on every authenticated call, so raising it ends every
 * session issued before (sign out everywhere, password change or reset).
 */
export const users = sqliteTable('users', {
  id: text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text('name'),
  /** Lower-cased; one address is one account. */
  email: text('email').notNull().unique(),
  /** When the owner proved the address (the verify link, a password reset, or Google saying so); null until then. */
  emailVerified: integer('email_verified', { mode: 'timestamp_ms' }),
  image: text('image'),
  /** Only a database command makes an admin (README, scripts/make-admin.ts): no API writes it. */
  role: text('role', { enum: ROLES }).notNull().default('customer'),
  /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (functions/accounts/password.ts); null for a Google-only account. */
  passwordHash: text('password_hash'),
  sessionVersion: integer('session_version').notNull().default(1),
  phone: text('phone'),
  address: text('address'),
  city: text('city'),
  state: text('state'),
  notifyOrderUpdates: integer('notify_order_updates', { mode: 'boolean' }).notNull().default(true),
  notifyPromotions: integer('notify_promotions', { mode: 'boolean' }).notNull().default(false),
  theme: text('theme', { enum: THEMES }).notNull().default('dark'),
  ...timestamps,
});

/**
 * Signed-in sessions, one row per sign-in (docs/decisions/011): the session cookie carries the
 * row's id (`sid`), and a cookie whose row is gone is a guest's. Signing out deletes the row;
 * "sign out everywhere" deletes them all. The account lists them ("where you are signed in").
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A coarse description of the device for the account's list ("Chrome on Android"), never the full user agent or address. */
    label: text('label').notNull().default(''),
    createdAt: timestamps.createdAt,
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp' }).notNull().default(sql`(unixepoch())`),
    expiresAt: integer('expires_at', { mode: 'timestamp' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);
export type SessionRow = typeof sessions.$inferSelect;

/** Sign-in providers linked to a user (Google), in the adapter's shape. */
export const accounts = sqliteTable(
  'accounts',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<'oauth' | 'oidc' | 'email' | 'webauthn'>().notNull(),
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    refresh_token: text('refresh_token'),
    access_token: text('access_token'),
    expires_at: integer('expires_at'),
    token_type: text('token_type'),
    scope: text('scope'),
    id_token: text('id_token'),
    session_state: text('session_state'),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index('accounts_user_idx').on(t.userId)],
);

/**
 * Single-use secrets of the e-mailed links: `identifier` says what for and whom
 * (`verify:<user id>`, `reset:<user id>`), `token` is the SHA-256 of the secret in the link
 * (the secret itself is never stored). Deleted when used.
 */
export const verificationTokens = sqliteTable(
  'verification_tokens',
  {
    identifier: text('identifier').notNull(),
    token: text('token').notNull(),
    expires: integer('expires', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] }), uniqueIndex('verification_tokens_token_idx').on(t.token)],
);

/** One review per user and product, from a delivered order; products.rating/reviews are recomputed from these. */
export const reviews = sqliteTable(
  'reviews',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    ...timestamps,
  },
  (t) => [
    check(CHECKS.reviewsRatingRange, sql`${t.rating} BETWEEN 1 AND 5`),
    uniqueIndex('reviews_user_product_idx').on(t.userId, t.productId),
    index('reviews_product_idx').on(t.productId),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

export { AUDIT_ENTITIES, type AuditEntity };

/**
 * Every change an admin makes (a product saved or deleted, an order moved, a subscriber
 * removed): who, when, and what changed. Written in the same D1 batch as the change, so
 * there is no change without its row. `changes` is JSON: `{field: {from, to}}`.
 */
export const adminAudit = sqliteTable(
  'admin_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    entity: text('entity', { enum: AUDIT_ENTITIES }).notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    /** The admin's user id and, as it was then, e-mail address (kept if the account changes). */
    actorUserId: text('actor_user_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    changes: text('changes', { mode: 'json' }).$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('admin_audit_entity_idx').on(t.entity, t.entityId, t.id)],
);

export type AdminAuditRow = typeof adminAudit.$inferSelect;

/**
 * Trade-in requests (sell or swap a device, src/features/trade-ins): what the shopper described,
 * what they want, and the store's offer. `version` goes up with every move; a move names the
 * version it was made on, and a stale one trips the CHECK, so its whole batch (history row,
 * e-mail, audit row) is refused (functions/trade-ins/move.ts).
 */
export const tradeIns = sqliteTable(
  'trade_ins',
  {
    id: text('id').primaryKey(),
    /** TRD- and 10 base32 characters: with the e-mail, how a guest finds the request. */
    reference: text('reference').notNull().unique(),
    status: text('status', { enum: TRADE_IN_STATUSES }).notNull().default('new'),
    /** The signed-in shopper who sent it, if any. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** Lower-cased. */
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    state: text('state').notNull(),
    category: text('category').notNull(),
    brand: text('brand').notNull(),
    model: text('model').notNull(),
    storage: text('storage').notNull().default(''),
    turnsOn: integer('turns_on', { mode: 'boolean' }).notNull(),
    screenCracked: integer('screen_cracked', { mode: 'boolean' }).notNull(),
    bodyDents: integer('body_dents', { mode: 'boolean' }).notNull(),
    batteryHealth: text('battery_health', { enum: BATTERY_HEALTH }).notNull(),
    accountRemoved: integer('account_removed', { mode: 'boolean' }).notNull(),
    originalBox: integer('original_box', { mode: 'boolean' }).notNull(),
    notes: text('notes').notNull().default(''),
    wantKind: text('want_kind', { enum: ['cash', 'swap'] }).notNull(),
    /** A swap's product and variant ('' for none), with their names as they were (no foreign key: the product may be erased later). */
    swapProductId: text('swap_product_id'),
    swapVariantId: text('swap_variant_id').notNull().default(''),
    swapName: text('swap_name'),
    swapVariantLabel: text('swap_variant_label').notNull().default(''),
    offer: integer('offer_kobo'),
    offerNote: text('offer_note'),
    offeredAt: integer('offered_at', { mode: 'timestamp' }),
    /** The latest order placed for an accepted swap. */
    orderId: text('order_id').references(() => orders.id),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    check(CHECKS.tradeInsVersionPositive, sql`${t.version} > 0`),
    check(CHECKS.tradeInsOfferPositive, sql`${t.offer} IS NULL OR ${t.offer} > 0`),
    index('trade_ins_created_idx').on(t.createdAt),
    index('trade_ins_status_created_idx').on(t.status, t.createdAt),
    index('trade_ins_email_idx').on(t.email),
    index('trade_ins_user_idx').on(t.userId),
  ],
);

/** A request's photos, stored in R2 (IMAGES) under `key`; served to admins only. */
export const tradeInPhotos = sqliteTable(
  'trade_in_photos',
  {
    tradeInId: text('trade_in_id')
      .notNull()
      .references(() => tradeIns.id),
    position: integer('position').notNull(),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tradeInId, t.position] }), uniqueIndex('trade_in_photos_key_idx').on(t.key)],
);

/** Every move of a request: who, when, and the note (what was said, the offer's note, a closing reason). */
export const tradeInEvents = sqliteTable(
  'trade_in_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tradeInId: text('trade_in_id')
      .notNull()
      .references(() => tradeIns.id),
    fromStatus: text('from_status', { enum: TRADE_IN_STATUSES }),
    toStatus: text('to_status', { enum: TRADE_IN_STATUSES }).notNull(),
    actor: text('actor', { enum: TRADE_IN_ACTORS }).notNull(),
    actorUserId: text('actor_user_id'),
    note: text('note'),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('trade_in_events_trade_in_idx').on(t.tradeInId)],
);

export type TradeInRow = typeof tradeIns.$inferSelect;
export type TradeInPhotoRow = typeof tradeInPhotos.$inferSelect;

/**
 * The bank account a payment provider opened for one order (functions/payments/): shown on the
 * payment step, /track and the e-mails instead of the store's shared account, and how a
 * transfer the provider reports is matched to its order.
 */
export const paymentAccounts = sqliteTable(
  'payment_accounts',
  {
    orderId: text('order_id')
      .primaryKey()
      .references(() => orders.id),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    bankName: text('bank_name').notNull(),
    accountName: text('account_name').notNull(),
    accountNumber: text('account_number').notNull(),
    /** The provider's reference for the charge (ours: the order's number). */
    reference: text('reference').notNull(),
    /** Until when the account takes payment (the order's hold); null: for as long as the provider keeps it. */
    expiresAt: integer('expires_at', { mode: 'timestamp' }),
    ...timestamps,
  },
  (t) => [
    // Not unique: the provider hands a closed temporary account to a later charge (functions/payments/apply.ts matchOrder).
    index('payment_accounts_number_idx').on(t.provider, t.accountNumber),
    index('payment_accounts_reference_idx').on(t.provider, t.reference),
  ],
);

/**
 * Every payment a provider reported (webhook or reconciliation), once: `(provider, event_id)` is
 * unique, so a redelivered event changes nothing. `outcome` says what it did to its order
 * (functions/payments/apply.ts); `refund` is the part of it owed back to the shopper.
 */
export const providerPayments = sqliteTable(
  'provider_payments',
  {
    id: text('id').primaryKey(),
    /** The provider that reported it, or `store_account`: an admin confirmed a transfer into the shared account. */
    provider: text('provider', { enum: PAYMENT_SOURCES }).notNull(),
    /** The provider's id for the payment (Paystack: the transaction id). */
    eventId: text('event_id').notNull(),
    /** Null: no order matched (an unknown account or reference): kept for the admin. */
    orderId: text('order_id').references(() => orders.id),
    accountNumber: text('account_number'),
    reference: text('reference'),
    amount: integer('amount_kobo').notNull(),
    paidAt: integer('paid_at', { mode: 'timestamp' }).notNull(),
    /** How it was recorded: the provider's webhook, the reconciliation job, or an admin's confirmation. */
    via: text('via', { enum: PAYMENT_VIAS }).notNull(),
    outcome: text('outcome', { enum: PAYMENT_OUTCOMES }).notNull(),
    refund: integer('refund_kobo').notNull().default(0),
    /**
     * What of what is owed back on it (owedBack in src/features/orders/payments.ts) admins have
     * settled: sent back, or said why nothing is. Set to what was owed when an admin resolves it,
     * so a payment owes more again when its order is cancelled later (stillOwed).
     */
    settled: integer('settled_kobo').notNull().default(0),
    /**
     * When an admin dealt with a payment that needed one (attached an unmatched payment to its
     * order, or sent the refund): who, when and what they wrote. Null while it waits.
     */
    resolvedAt: integer('resolved_at', { mode: 'timestamp' }),
    resolvedBy: text('resolved_by'),
    resolution: text('resolution'),
    /**
     * A random value each admin resolve writes with it: what else that resolve writes in its batch
     * (the audit row, the shopper's "sent back" e-mail) is written only if this very request's
     * update won, however many arrive at once (functions/payments/admin.ts).
     */
    resolveClaim: text('resolve_claim'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('provider_payments_event_idx').on(t.provider, t.eventId),
    index('provider_payments_order_idx').on(t.orderId),
    // The admin's list of payments waiting for a person, newest first.
    index('provider_payments_waiting_idx').on(t.resolvedAt, t.createdAt),
  ],
);
export type ProviderPaymentRow = typeof providerPayments.$inferSelect;
export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;
