import type { Product } from '../../src/features/catalogue/product.ts';

/**
 * SQL that loads the catalogue into D1. Re-runnable: by default a product that is
 * already in D1 is left alone (D1 is the runtime truth; an admin's edits and the
 * stock that orders reserved survive a re-seed). `reset` makes the data files win.
 */
export function catalogueSeedSql(catalogue: readonly Product[], { reset = false } = {}): string[] {
  return catalogue.map((p) => {
    const values = productRowValues(p).map(sqlLiteral);
    const onConflict = reset
      ? `DO UPDATE SET name = excluded.name, brand = excluded.brand, category = excluded.category,
         description = excluded.description, price_kobo = excluded.price_kobo, image = excluded.image,
         variants = excluded.variants, stock = excluded.stock, rating = excluded.rating,
         reviews = excluded.reviews, featured = excluded.featured, active = 1, updated_at = unixepoch()`
      : 'DO NOTHING';
    return `INSERT INTO products (id, name, brand, category, description, price_kobo, image, variants, stock, rating, reviews, featured)
      VALUES (${values.join(', ')}) ON CONFLICT(id) ${onConflict};`;
  });
}

function sqlLiteral(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`cannot seed ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** A product's values in the column order of the products INSERT (the seed and the API tests use it). */
export function productRowValues(p: Product) {
  return [
    p.id,
    p.name,
    p.brand,
    p.category,
    p.description,
    p.price,
    p.image,
    JSON.stringify(p.variants),
    p.stock,
    p.rating,
    p.reviews,
    p.featured ? 1 : 0,
  ];
}
