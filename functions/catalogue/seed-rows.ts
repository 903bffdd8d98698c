import type { Product } from '../../src/features/catalogue/product.ts';
import { SHOWN_RATING_SQL, SHOWN_REVIEWS_SQL } from './products.ts';

/** The products INSERT's columns, in the order productRowValues() gives them (the seed and the API tests use both). */
export const PRODUCT_COLUMNS =
  'id, name, brand, category, description, price_kobo, image, variant_label, stock, rating, reviews, featured';
/** The product_variants INSERT's columns, in the order variantRowValues() gives them. */
export const VARIANT_COLUMNS = 'product_id, id, label, price_kobo, stock, image, position';

/**
 * The data file's rating and review count are the product's history (catalogue_rating,
 * catalogue_reviews); what shoppers see (rating, reviews) is that with this store's own
 * reviews added, recomputed after a reset (SHOWN_RATING_SQL). A new product has none of ours.
 */
const SEED_COLUMNS = `${PRODUCT_COLUMNS}, catalogue_rating, catalogue_reviews`;

/**
 * SQL that loads the catalogue into D1. Re-runnable: by default a product or variant that
 * is already in D1 is left alone (D1 is the runtime truth; an admin's edits and the stock
 * that orders reserved survive a re-seed). `reset` makes the data files win, and removes
 * variants the files no longer list; the reviews shoppers left here stay counted.
 */
export function catalogueSeedSql(catalogue: readonly Product[], { reset = false } = {}): string[] {
  return catalogue.flatMap((p) => {
    const onConflict = reset
      ? `DO UPDATE SET name = excluded.name, brand = excluded.brand, category = excluded.category,
         description = excluded.description, price_kobo = excluded.price_kobo, image = excluded.image,
         variant_label = excluded.variant_label, stock = excluded.stock,
         catalogue_rating = excluded.catalogue_rating, catalogue_reviews = excluded.catalogue_reviews,
         featured = excluded.featured, active = 1, updated_at = unixepoch()`
      : 'DO NOTHING';
    const variantConflict = reset
      ? `DO UPDATE SET label = excluded.label, price_kobo = excluded.price_kobo, stock = excluded.stock,
         image = excluded.image, position = excluded.position, updated_at = unixepoch()`
      : 'DO NOTHING';
    return [
      `INSERT INTO products (${SEED_COLUMNS}) VALUES (${[...productRowValues(p), p.rating, p.reviews].map(sqlLiteral).join(', ')}) ON CONFLICT(id) ${onConflict};`,
      ...(reset
        ? [
            `UPDATE products SET rating = ${SHOWN_RATING_SQL}, reviews = ${SHOWN_REVIEWS_SQL} WHERE id = ${sqlLiteral(p.id)};`,
            `DELETE FROM product_variants WHERE product_id = ${sqlLiteral(p.id)}${
              p.variants.length ? ` AND id NOT IN (${p.variants.map((v) => sqlLiteral(v.id)).join(', ')})` : ''
            };`,
          ]
        : []),
      ...variantRowValues(p).map(
        (values) =>
          `INSERT INTO product_variants (${VARIANT_COLUMNS}) VALUES (${values.map(sqlLiteral).join(', ')}) ON CONFLICT(product_id, id) ${variantConflict};`,
      ),
    ];
  });
}

function sqlLiteral(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`cannot seed ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** A product's values in the order of PRODUCT_COLUMNS. */
export function productRowValues(p: Product) {
  return [
    p.id,
    p.name,
    p.brand,
    p.category,
    p.description,
    p.price,
    p.image,
    p.variantLabel,
    p.stock,
    p.rating,
    p.reviews,
    p.featured ? 1 : 0,
  ];
}

/** One row of values per variant, in the order of VARIANT_COLUMNS. */
export function variantRowValues(p: Product) {
  return p.variants.map((v, position) => [p.id, v.id, v.label, v.price, v.stock, v.image, position]);
}
