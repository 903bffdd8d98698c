/**
 * The catalogue's data files (src/data/products/*.json) into D1, field by field
 * (docs/decisions/025-one-catalogue-truth.md). Run by `npm run db:seed` locally and by
 * `npm run deploy` on the deployed database, with a dry run that only reports.
 *
 * For each synced field of each product (and variant) the files list, three values count: the
 * file's, D1's, and what the files said at the last sync (table catalogue_synced):
 *  - D1 already holds the file's value: nothing to change (the sync records it);
 *  - the file changed since the last sync and D1 still holds the last synced value: the file's
 *    value is applied (a compare-and-set on that value: an admin saving at that moment wins);
 *  - the file did not change, D1 did: an admin changed it, D1 keeps it;
 *  - both changed, or there is no record of a last sync and they differ: a conflict, listed with
 *    the three values and not applied. It is settled by making the file and D1 agree (edit the
 *    file, or the product in the admin); `npm run db:seed -- --reset` (local only) makes the
 *    files win everywhere.
 * New products and new variants are added whole. Stock is not synced: the file's stock is a new
 * product's opening stock, and from then on D1's (orders and admins move it). Nothing is ever
 * deleted or archived: a product or variant the files no longer list is reported.
 */
import { catalogueSeedSql, VARIANT_COLUMNS, variantRowValues } from '../../functions/catalogue/seed-rows.ts';
import { SHOWN_RATING_SQL, SHOWN_REVIEWS_SQL } from '../../functions/catalogue/products.ts';
import type { Product } from '../../src/features/catalogue/product.ts';
import { queryEach, type Target } from '../db/d1.ts';

type Value = string | number | null;

/** A product's synced fields: the name the report uses, D1's column, and the file's value. */
const PRODUCT_FIELDS: readonly { field: string; column: string; of: (p: Product) => Value }[] = [
  { field: 'name', column: 'name', of: (p) => p.name },
  { field: 'brand', column: 'brand', of: (p) => p.brand },
  { field: 'category', column: 'category', of: (p) => p.category },
  { field: 'description', column: 'description', of: (p) => p.description },
  { field: 'image', column: 'image', of: (p) => p.image },
  { field: 'variantLabel', column: 'variant_label', of: (p) => p.variantLabel },
  { field: 'rating', column: 'catalogue_rating', of: (p) => p.rating },
  { field: 'reviews', column: 'catalogue_reviews', of: (p) => p.reviews },
  { field: 'featured', column: 'featured', of: (p) => (p.featured ? 1 : 0) },
];
/** A product without variants has its own price; with variants, D1's triggers keep the lowest variant price. */
const OWN_PRICE = { field: 'price', column: 'price_kobo', of: (p: Product) => p.price };
const VARIANT_FIELDS: readonly {
  field: string;
  column: string;
  of: (v: Product['variants'][number], position: number) => Value;
}[] = [
  { field: 'label', column: 'label', of: (v) => v.label },
  { field: 'price', column: 'price_kobo', of: (v) => v.price },
  { field: 'image', column: 'image', of: (v) => v.image },
  { field: 'position', column: 'position', of: (_v, position) => position },
];

/** What D1 holds of the catalogue, as the sync reads it. */
export interface D1Catalogue {
  products: Map<string, { row: Record<string, Value>; active: boolean; variants: Map<string, Record<string, Value>> }>;
  /** catalogue_synced: `${productId}\t${variantId}\t${field}` → the value as JSON. */
  synced: Map<string, string>;
}

export interface FieldChange {
  productId: string;
  /** '' for the product's own fields. */
  variantId: string;
  field: string;
  column: string;
  d1: Value;
  file: Value;
  /** The value at the last sync; undefined when there is no record of one. */
  synced: Value | undefined;
}

export interface SyncPlan {
  newProducts: Product[];
  newVariants: { product: Product; variantId: string }[];
  /** Changed in the files since the last sync, D1 unchanged: applied. */
  apply: FieldChange[];
  /** Changed in D1 (by an admin) since the last sync, the file not: D1 keeps it. */
  keptFromAdmin: FieldChange[];
  /** Both changed, or no record of a last sync and they differ: listed, not applied. */
  conflicts: FieldChange[];
  /** Already equal: the sync records the value as synced (written only when the record differs). */
  record: { productId: string; variantId: string; field: string; value: Value }[];
  /** Synced from the files once, no longer in them: left as they are. */
  goneFromFiles: string[];
  variantsGoneFromFiles: { productId: string; variantId: string }[];
  /** Archived by an admin: their fields are still synced, they stay archived. */
  archived: string[];
}

const key = (productId: string, variantId: string, field: string) => `${productId}\t${variantId}\t${field}`;
const json = (value: Value) => JSON.stringify(value);

/** The plan for bringing D1 to the files (pure: the tests and the dry run read it). */
export function planCatalogueSync(files: readonly Product[], d1: D1Catalogue): SyncPlan {
  const plan: SyncPlan = {
    newProducts: [],
    newVariants: [],
    apply: [],
    keptFromAdmin: [],
    conflicts: [],
    record: [],
    goneFromFiles: [],
    variantsGoneFromFiles: [],
    archived: [],
  };
  const judge = (productId: string, variantId: string, field: string, column: string, file: Value, d1Value: Value) => {
    const recorded = d1.synced.get(key(productId, variantId, field));
    const change: FieldChange = {
      productId,
      variantId,
      field,
      column,
      d1: d1Value,
      file,
      synced: recorded === undefined ? undefined : (JSON.parse(recorded) as Value),
    };
    if (json(d1Value) === json(file)) {
      if (recorded !== json(file)) plan.record.push({ productId, variantId, field, value: file });
    } else if (recorded === undefined) plan.conflicts.push(change);
    else if (recorded === json(file)) plan.keptFromAdmin.push(change);
    else if (recorded === json(d1Value)) plan.apply.push(change);
    else plan.conflicts.push(change);
  };

  const listed = new Set(files.map((p) => p.id));
  for (const product of files) {
    const inD1 = d1.products.get(product.id);
    if (!inD1) {
      plan.newProducts.push(product);
      continue;
    }
    if (!inD1.active) plan.archived.push(product.id);
    const fields = product.variants.length === 0 && inD1.variants.size === 0 ? [...PRODUCT_FIELDS, OWN_PRICE] : PRODUCT_FIELDS;
    for (const { field, column, of } of fields) judge(product.id, '', field, column, of(product), inD1.row[column] ?? null);
    product.variants.forEach((variant, position) => {
      const row = inD1.variants.get(variant.id);
      if (!row) {
        plan.newVariants.push({ product, variantId: variant.id });
        return;
      }
      for (const { field, column, of } of VARIANT_FIELDS)
        judge(product.id, variant.id, field, column, of(variant, position), row[column] ?? null);
    });
    const fileVariants = new Set(product.variants.map((v) => v.id));
    for (const variantId of inD1.variants.keys())
      if (!fileVariants.has(variantId) && d1.synced.has(key(product.id, variantId, 'label')))
        plan.variantsGoneFromFiles.push({ productId: product.id, variantId });
  }
  const syncedOnce = new Set([...d1.synced.keys()].map((k) => k.split('\t')[0]));
  for (const id of d1.products.keys()) if (!listed.has(id) && syncedOnce.has(id)) plan.goneFromFiles.push(id);
  return plan;
}

/** Every synced field of a product (and its variants) with the file's value: what a new product records. */
function allFields(product: Product, variantIds?: readonly string[]) {
  const own = variantIds
    ? []
    : (product.variants.length ? PRODUCT_FIELDS : [...PRODUCT_FIELDS, OWN_PRICE]).map(({ field, of }) => ({
        productId: product.id,
        variantId: '',
        field,
        value: of(product),
      }));
  const variants = product.variants.flatMap((variant, position) =>
    variantIds && !variantIds.includes(variant.id)
      ? []
      : VARIANT_FIELDS.map(({ field, of }) => ({
          productId: product.id,
          variantId: variant.id,
          field,
          value: of(variant, position),
        })),
  );
  return [...own, ...variants];
}

export function sqlLiteral(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

const RECORD = 'INSERT INTO catalogue_synced (product_id, variant_id, field, value, synced_at)';
const UPSERT = 'ON CONFLICT (product_id, variant_id, field) DO UPDATE SET value = excluded.value, synced_at = excluded.synced_at';
const recordSql = (r: { productId: string; variantId: string; field: string; value: Value }) =>
  `${RECORD} VALUES (${[r.productId, r.variantId, r.field, json(r.value)].map(sqlLiteral).join(', ')}, unixepoch()) ${UPSERT};`;

/** The SQL that carries out a plan. Each applied field is a compare-and-set on D1's value. */
export function syncSql(plan: SyncPlan): string[] {
  const statements: string[] = [];
  statements.push(...catalogueSeedSql(plan.newProducts));
  for (const product of plan.newProducts) statements.push(...allFields(product).map(recordSql));
  for (const { product, variantId } of plan.newVariants) {
    const values = variantRowValues(product).find((row) => row[1] === variantId);
    if (!values) continue;
    statements.push(
      `INSERT INTO product_variants (${VARIANT_COLUMNS}) VALUES (${values.map((v) => sqlLiteral(v as Value)).join(', ')}) ON CONFLICT(product_id, id) DO NOTHING;`,
      ...allFields(product, [variantId]).map(recordSql),
    );
  }
  const rerated = new Set<string>();
  for (const change of plan.apply) {
    const table = change.variantId ? 'product_variants' : 'products';
    const row = change.variantId
      ? `product_id = ${sqlLiteral(change.productId)} AND id = ${sqlLiteral(change.variantId)}`
      : `id = ${sqlLiteral(change.productId)}`;
    statements.push(
      `UPDATE ${table} SET ${change.column} = ${sqlLiteral(change.file)}, updated_at = unixepoch() WHERE ${row} AND ${change.column} IS ${sqlLiteral(change.d1)};`,
      // Recorded as synced only if D1 now holds the file's value: when an admin's save won the
      // compare-and-set, the next sync reports the conflict instead of forgetting it.
      `${RECORD} SELECT ${[change.productId, change.variantId, change.field, json(change.file)].map(sqlLiteral).join(', ')}, unixepoch() WHERE EXISTS (SELECT 1 FROM ${table} WHERE ${row} AND ${change.column} IS ${sqlLiteral(change.file)}) ${UPSERT};`,
    );
    if (change.column === 'catalogue_rating' || change.column === 'catalogue_reviews') rerated.add(change.productId);
  }
  for (const id of rerated)
    statements.push(
      `UPDATE products SET rating = ${SHOWN_RATING_SQL}, reviews = ${SHOWN_REVIEWS_SQL} WHERE id = ${sqlLiteral(id)};`,
    );
  statements.push(...plan.record.map(recordSql));
  return statements;
}

/** After `npm run db:seed -- --reset` (the files overwrite D1): every field recorded as synced. */
export function recordAllSql(files: readonly Product[]): string[] {
  return files.flatMap((product) => allFields(product).map(recordSql));
}

const shown = (value: Value | undefined) => {
  if (value === undefined) return '(no record)';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
};
const where = (c: { productId: string; variantId: string; field: string }) =>
  `${c.productId}${c.variantId ? `/${c.variantId}` : ''} ${c.field}`;

/** Items listed per kind of change (then a count of the rest); conflicts are always listed whole. */
const SHOWN_ITEMS = 12;

/** The plan as an operator reads it, one line per change. */
export function describeSync(plan: SyncPlan, { dryRun }: { dryRun: boolean }): string[] {
  const lines: string[] = [];
  const section = (title: string, items: string[], { whole = false } = {}) => {
    if (!items.length) return;
    const shownItems = whole ? items.length : SHOWN_ITEMS;
    const more = items.length > shownItems ? [`… and ${items.length - shownItems} more`] : [];
    lines.push(title, ...[...items.slice(0, shownItems), ...more].map((item) => `      ${item}`));
  };
  const added = dryRun ? 'would be added' : 'added';
  section(
    `   + ${plan.newProducts.length} new product(s) ${added}:`,
    plan.newProducts.map((p) => p.id),
  );
  section(
    `   + ${plan.newVariants.length} new variant(s) ${added}:`,
    plan.newVariants.map((v) => `${v.product.id}/${v.variantId}`),
  );
  section(
    `   ~ ${plan.apply.length} field(s) changed in the files ${dryRun ? 'would be applied' : 'applied'}:`,
    plan.apply.map((c) => `${where(c)}: ${shown(c.d1)} → ${shown(c.file)}`),
  );
  section(
    `   = ${plan.keptFromAdmin.length} field(s) an admin changed since the last sync, kept:`,
    plan.keptFromAdmin.map((c) => `${where(c)}: ${shown(c.d1)} (the files say ${shown(c.file)})`),
  );
  section(
    `   ! ${plan.conflicts.length} conflict(s), not applied (make the file and the admin agree):`,
    plan.conflicts.map((c) => `${where(c)}: file ${shown(c.file)}, D1 ${shown(c.d1)}, last synced ${shown(c.synced)}`),
    { whole: true },
  );
  section(
    `   - ${plan.goneFromFiles.length} product(s) no longer in the files, left on sale (archive them in the admin):`,
    plan.goneFromFiles,
  );
  section(
    `   - ${plan.variantsGoneFromFiles.length} variant(s) no longer in the files, left as they are:`,
    plan.variantsGoneFromFiles.map((v) => `${v.productId}/${v.variantId}`),
  );
  if (plan.archived.length) lines.push(`   (${plan.archived.length} archived by an admin: synced, kept archived)`);
  if (!lines.length || lines.every((l) => l.startsWith('   ('))) lines.unshift('   D1 already matches the files.');
  return lines;
}

/** Reads what the sync compares: the products, their variants and the last sync's record. */
export function readD1Catalogue(target: Target): D1Catalogue {
  const [productRows = [], variantRows = [], syncedRows = []] = queryEach(target, [
    `SELECT id, active, ${[...PRODUCT_FIELDS, OWN_PRICE].map((f) => f.column).join(', ')} FROM products`,
    `SELECT product_id, id, ${VARIANT_FIELDS.map((f) => f.column).join(', ')} FROM product_variants`,
    'SELECT product_id, variant_id, field, value FROM catalogue_synced',
  ]);
  const products: D1Catalogue['products'] = new Map();
  for (const row of productRows)
    products.set(String(row.id), { row: row as Record<string, Value>, active: row.active === 1, variants: new Map() });
  for (const row of variantRows) products.get(String(row.product_id))?.variants.set(String(row.id), row as Record<string, Value>);
  const synced = new Map(
    syncedRows.map((r) => [key(String(r.product_id), String(r.variant_id), String(r.field)), String(r.value)]),
  );
  return { products, synced };
}
