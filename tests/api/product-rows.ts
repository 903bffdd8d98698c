import { PRODUCT_COLUMNS, productRowValues, VARIANT_COLUMNS, variantRowValues } from '../../functions/catalogue/seed-rows.ts';
import type { Product } from '../../src/features/catalogue/product.ts';

/** Inserts products (and their variants) into a test's D1 the way an admin's insert would (the FTS triggers index them), in batches. */
export async function insertProducts(db: D1Database, products: readonly Product[], batchSize = 500) {
  const insert = db.prepare(`INSERT INTO products (${PRODUCT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertVariant = db.prepare(`INSERT INTO product_variants (${VARIANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  for (let i = 0; i < products.length; i += batchSize) {
    await db.batch(
      products
        .slice(i, i + batchSize)
        .flatMap((p) => [
          insert.bind(...productRowValues(p)),
          ...variantRowValues(p).map((values) => insertVariant.bind(...values)),
        ]),
    );
  }
}
