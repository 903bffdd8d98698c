import type { Product } from '../../src/features/catalogue/product.ts';

/** The products INSERT's columns, in the order productRowValues() gives them (the seed and the API tests use both). */
export const PRODUCT_COLUMNS =
  'id, name, brand, category, description, price_kobo, image, variant_label, stock, rating, reviews, featured';
/** The product_variants INSERT's columns, in the order variantRowValues() gives them. */
export const VARIANT_COLUMNS = 'product_id, id, label, price_kobo, stock, image, position';

/**
 * SQL that loads the catalogue into D1. Re-runnable: by default a product or variant that
 * is already in D1 is left alone (D1 is the runtime truth; an admin's edits and the stock
 * that orders reserved survive a re-seed). `reset` makes the data files win, and removes
 * variants the files no longer list.
 */
export function catalogueSeedSql(catalogue: readonly Product[], { reset = false } = {}): string[] {
  return catalogue.flatMap((p) => {
    const onConflict = reset
      ? `DO UPDATE SET name = excluded.name, brand = excluded.brand, category = excluded.category,
         description = excluded.description, price_kobo = excluded.price_kobo, image = excluded.image,
         variant_label = excluded.variant_label, stock = excluded.stock, rating = excluded.rating,
         reviews = excluded.reviews, featured = excluded.featured, active = 1, updated_at = unixepoch()`
      : 'DO NOTHING';
    const variantConflict = reset
      ? `DO UPDATE SET label = excluded.label, price_kobo = excluded.price_kobo, stock = excluded.stock,
         image = excluded.image, position = excluded.position, updated_at = unixepoch()`
      : 'DO NOTHING';
    return [
      `INSERT INTO products (${PRODUCT_COLUMNS}) VALUES (${productRowValues(p).map(sqlLiteral).join(', ')}) ON CONFLICT(id) ${onConflict};`,
      ...(reset
        ? [
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
