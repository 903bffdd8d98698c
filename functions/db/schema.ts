import { sql } from 'drizzle-orm';
import { check, index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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
