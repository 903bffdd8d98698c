import { productRowValues } from '../../functions/db/seed.ts';
import type { Product } from '../../src/features/catalogue/product.ts';

/** Inserts products into a test's D1 the way an admin's insert would (the FTS triggers index them), in batches. */
export async function insertProducts(db: D1Database, products: readonly Product[], batchSize = 500) {
  const insert = db.prepare(
    `INSERT INTO products (id, name, brand, category, description, price_kobo, image, variants, stock, rating, reviews, featured)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < products.length; i += batchSize) {
    await db.batch(products.slice(i, i + batchSize).map((p) => insert.bind(...productRowValues(p))));
  }
}
