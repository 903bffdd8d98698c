import { and, asc, count, eq, getTableColumns, gte, inArray, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminProductDetail,
  adminProductQuerySchema,
  AdminProductSummary,
} from '../../src/features/catalogue/admin/admin-product-api.ts';
import { type Product, type ProductInput, productFromFields, variantIdFromLabel } from '../../src/features/catalogue/product.ts';
import { plainNaira } from '../../src/lib/money.ts';
import { HOLDING_UNPAID } from '../../src/features/orders/order-status.ts';
import type { Db } from '../platform/db.ts';
import { lostTheRace, unlessChanged } from '../platform/compare-and-set.ts';
import { constraintViolation, isUniqueViolation } from '../platform/constraint-errors.ts';
import { recomputeShownRating, toProduct } from './products.ts';
import { CHECKS, orderLines, orders, products, productVariants, reviews, type UserRow } from '../platform/schema.ts';
import { VARIANTS_JSON } from './variants.ts';
import { ApiError } from '../platform/errors.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { auditStatement, auditTrail, changedFields } from '../platform/audit.ts';

/**
 * The catalogue as admins edit it (functions/catalogue/admin-routes.ts). A product is written
 * with its variants and its audit row in one D1 batch; the product_variants triggers (migration
 * 0009) keep its "from" price and total stock, the products_fts triggers its search entry.
 *
 * The version an edit names is a hash of everything the form shows plus the stock, read in one
 * statement: a save, a deletion or an order reserving (or giving back) units changes it
 * (products have no version column, and an order's reservation stamps nothing on the product).
 * The edit's batch is guarded by the store's compare-and-set (functions/platform/compare-and-set.ts). An
 * admin sets stock as an absolute number, so an edit made while an order took a unit must not
 * overwrite that reservation: it is refused (409 `product_changed`) and the admin reloads. A
 * reservation that was given back (the same state again) does not refuse anything. The
 * catalogue's rating history is part of it (the form edits it); what shoppers see (that
 * history with the store's own reviews added, which reviews change) is not.
 */

type Admin = Pick<UserRow, 'id' | 'email'>;
type AdminProductQuery = z.infer<typeof adminProductQuerySchema>;
/** The catalogue's rating history as the form gives it (catalogueRatingFields in src/features/catalogue/admin/admin-product-api.ts); absent on an edit: unchanged. */
type CatalogueRating = { catalogueRating?: number | undefined; catalogueReviews?: number | undefined };

export const ADMIN_PAGE_SIZE = 20;

/**
 * What the version hashes, as SQL over the products row being read or updated: the editable
 * columns, stock, the archived flag and the variants in order. The same expression guards the
 * write, so a change between the read and the batch fails the batch.
 */
const FINGERPRINT = sql<string>`json_array(products.name, products.brand, products.category, products.description,
  products.price_kobo, products.image, products.variant_label, products.stock, products.featured, products.active,
  products.catalogue_rating, products.catalogue_reviews,
  (SELECT json_group_array(json_array(v.id, v.label, v.price_kobo, v.stock, v.image, v.position))
     FROM (SELECT * FROM product_variants v WHERE v.product_id = products.id ORDER BY v.position, v.id) v))`;

/**
 * Whether anything names the product by its id: an order's line, or a trade-in's swap (which has
 * no foreign key). Such a product is archived, never erased: erased, its id could be given to
 * another product, and a swap accepted for the old one would order the new one.
 */
const NAMED_BY_TRADE_IN = sql`EXISTS (SELECT 1 FROM trade_ins WHERE trade_ins.swap_product_id = products.id)`;
const ORDERED = sql<number>`(EXISTS (SELECT 1 FROM order_lines WHERE order_lines.product_id = products.id) OR ${NAMED_BY_TRADE_IN})`;

/** A product row as the admin reads it: the product, its variants, the fingerprint and whether orders name it. */
async function loadProduct(db: Db, id: string) {
  const [row] = await db
    .select({ ...getTableColumns(products), variants: VARIANTS_JSON, fingerprint: FINGERPRINT, ordered: ORDERED })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!row) return undefined;
  return {
    product: toProduct(row),
    catalogue: { catalogueRating: row.catalogueRating, catalogueReviews: row.catalogueReviews },
    active: row.active,
    fingerprint: row.fingerprint,
    ordered: Boolean(row.ordered),
  };
}
type Loaded = NonNullable<Awaited<ReturnType<typeof loadProduct>>>;

function notFound(): ApiError {
  return new ApiError(404, 'product_not_found', 'There is no product with this id.');
}

function changedMeanwhile(): ApiError {
  return new ApiError(
    409,
    'product_changed',
    'The product changed since it was loaded (another admin saved it, or an order reserved stock). Reload it and try again.',
  );
}

const toNaira = (kobo: number) => Number(plainNaira(kobo));

/** The product in the admin form's shape (naira, as typed). */
export function formOf(p: Product): ProductInput {
  const base = {
    id: p.id,
    name: p.name,
    brand: p.brand as ProductInput['brand'],
    category: p.category as ProductInput['category'],
    description: p.description,
    image: p.image,
    featured: p.featured,
  };
  if (p.variants.length === 0) return { ...base, priceNaira: toNaira(p.price), stock: p.stock, variants: [] };
  return {
    ...base,
    ...(p.variantLabel ? { variantLabel: p.variantLabel } : {}),
    variants: p.variants.map((v) => ({
      id: v.id,
      label: v.label,
      priceNaira: toNaira(v.price),
      stock: v.stock,
      ...(v.image ? { image: v.image } : {}),
    })),
  };
}

/**
 * The product's row: what D1 stores of a Product (the same columns the seed writes, functions/catalogue/seed-rows.ts).
 * A new product has no reviews here yet: it shows its catalogue history as it is.
 */
function insertProduct(db: Db, p: Product) {
  return db.insert(products).values({
    id: p.id,
    name: p.name,
    brand: p.brand,
    category: p.category,
    description: p.description,
    price: p.price,
    image: p.image,
    variantLabel: p.variantLabel,
    stock: p.stock,
    rating: p.rating,
    reviews: p.reviews,
    catalogueRating: p.rating,
    catalogueReviews: p.reviews,
    featured: p.featured,
  });
}

/** Each variant inserted, or updated in place when the product has it already (its triggers keep the product's price and stock). */
function upsertVariants(db: Db, p: Product) {
  return p.variants.map((v, position) =>
    db
      .insert(productVariants)
      .values({ productId: p.id, id: v.id, label: v.label, price: v.price, stock: v.stock, image: v.image, position })
      .onConflictDoUpdate({
        target: [productVariants.productId, productVariants.id],
        set: { label: v.label, price: v.price, stock: v.stock, image: v.image, position, updatedAt: sql`(unixepoch())` },
      }),
  );
}

export async function adminProductDetail(db: Db, id: string): Promise<AdminProductDetail> {
  const loaded = await loadProduct(db, id);
  if (!loaded) throw notFound();
  return detailOf(db, loaded);
}

async function detailOf(db: Db, loaded: Loaded): Promise<AdminProductDetail> {
  const { product } = loaded;
  return {
    id: product.id,
    form: formOf(product),
    active: loaded.active,
    rating: product.rating,
    reviews: product.reviews,
    ...loaded.catalogue,
    version: await sha256Hex(loaded.fingerprint),
    ordered: loaded.ordered,
    held: await heldUnits(db, product.id),
    audit: await auditTrail(db, 'product', product.id),
  };
}

/**
 * The units unpaid orders hold of a product, by variant ('' for a product without variants). The
 * stock the form edits is what is left on sale beside them: they are not counted in it, and go
 * back into it if those orders are cancelled or expire. An admin counting the shelf needs both.
 */
async function heldUnits(db: Db, productId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ variantId: orderLines.variantId, units: sql<number>`sum(${orderLines.quantity})` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.productId, productId), inArray(orders.status, [...HOLDING_UNPAID])))
    .groupBy(orderLines.variantId);
  return Object.fromEntries(rows.map((row) => [row.variantId, Number(row.units)]));
}

/** GET /api/admin/products: on sale (or archived), by category, searched in name, brand and id; by name, 20 a page. */
export async function listAdminProducts(db: Db, query: AdminProductQuery) {
  const conditions: SQL[] = [eq(products.active, query.archived !== 'true')];
  if (query.category) conditions.push(eq(products.category, query.category));
  const q = query.q?.toLowerCase();
  if (q) {
    // A substring anywhere (instr, not LIKE: nothing in q is a wildcard); lower() folds ASCII, as admins type.
    conditions.push(
      or(
        sql`instr(lower(${products.name}), ${q}) > 0`,
        sql`instr(lower(${products.brand}), ${q}) > 0`,
        sql`instr(${products.id}, ${q}) > 0`,
      )!,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await db.batch([
    db
      .select({
        id: products.id,
        name: products.name,
        brand: products.brand,
        category: products.category,
        price: products.price,
        stock: products.stock,
        variants: sql<number>`(SELECT count(*) FROM product_variants v WHERE v.product_id = products.id)`,
        image: products.image,
        featured: products.featured,
        active: products.active,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .where(where)
      .orderBy(sql`${products.name} COLLATE NOCASE`, asc(products.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_PAGE_SIZE),
    db.select({ n: count() }).from(products).where(where),
  ]);
  const summaries: AdminProductSummary[] = rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
  return { products: summaries, page: query.page, pageSize: ADMIN_PAGE_SIZE, total: total?.n ?? 0 };
}

/** A free product id made from the name: "Galaxy S24 Ultra" → galaxy-s24-ultra, or galaxy-s24-ultra-2 when taken. */
async function idFromName(db: Db, name: string): Promise<string> {
  const base = variantIdFromLabel(name).slice(0, 72).replace(/-+$/, '') || 'product';
  const taken = new Set(
    (
      await db
        .select({ id: products.id })
        .from(products)
        // "base-…" as a key range ('.' sorts just after '-'): D1 refuses a LIKE pattern over 50 bytes.
        .where(or(eq(products.id, base), and(gte(products.id, `${base}-`), lt(products.id, `${base}.`))))
    ).map((r) => r.id),
  );
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

function idTaken(id: string): ApiError {
  return new ApiError(409, 'product_exists', `There is already a product with the id "${id}".`, [
    { field: 'id', message: 'Already used by another product (archived ones keep their id): choose another' },
  ]);
}

/** POST /api/admin/products: the product, its variants and the audit row in one batch. */
export async function createProduct(db: Db, admin: Admin, input: ProductInput & CatalogueRating): Promise<AdminProductDetail> {
  const { catalogueRating = 0, catalogueReviews = 0, ...fields } = input;
  for (let attempt = 0; ; attempt++) {
    const id = fields.id ?? (await idFromName(db, fields.name));
    const product = productFromFields(id, fields, { rating: catalogueRating, reviews: catalogueReviews });
    try {
      await db.batch([
        insertProduct(db, product),
        ...upsertVariants(db, product),
        auditStatement(
          db,
          admin,
          'product',
          id,
          'create',
          changedFields({}, { ...formOf(product), catalogueRating, catalogueReviews }),
        ),
      ]);
    } catch (err) {
      if (!isUniqueViolation(constraintViolation(err), products.id)) throw err;
      // An explicit id is the admin's to change; a made-up one lost a race: make another.
      if (input.id !== undefined || attempt >= 2) throw idTaken(id);
      continue;
    }
    return adminProductDetail(db, id);
  }
}

/**
 * PUT /api/admin/products/:id: the form replaces the product and its variants, if the version
 * is still the one the admin loaded. An archived product can be edited (it stays archived).
 *
 * Variants are replaced as a set: those listed are updated in place by id or inserted, the
 * others deleted. Order lines keep their variant's id and label as ordered, so an order still
 * reads the same; cancelling or expiring it later gives nothing back to a deleted variant
 * (releaseStock in functions/orders/move.ts updates the rows that exist), and a checkout
 * quoted against it is refused by placeOrder's reservation guard.
 */
export async function updateProduct(
  db: Db,
  admin: Admin,
  id: string,
  input: ProductInput & CatalogueRating,
  version: string,
): Promise<AdminProductDetail> {
  const current = await loadProduct(db, id);
  if (!current) throw notFound();
  if ((await sha256Hex(current.fingerprint)) !== version) throw changedMeanwhile();

  const { catalogueRating, catalogueReviews, ...fields } = input;
  const product = productFromFields(id, fields, current.product);
  const catalogue = {
    catalogueRating: catalogueRating ?? current.catalogue.catalogueRating,
    catalogueReviews: catalogueReviews ?? current.catalogue.catalogueReviews,
  };
  const before = { ...formOf(current.product), ...current.catalogue };
  const changes = changedFields(before, { ...formOf(product), ...catalogue });
  if (Object.keys(changes).length === 0) return detailOf(db, current);

  const keep = product.variants.map((v) => v.id);
  try {
    await db.batch([
      // The compare-and-set (functions/platform/compare-and-set.ts): unless the product is exactly as
      // it was read, stock -1 breaks its CHECK and the batch.
      db
        .update(products)
        .set({ stock: unlessChanged(sql`${FINGERPRINT} = ${current.fingerprint}`, sql`${products.stock}`, -1) })
        .where(eq(products.id, id)),
      // Removed variants first, so a product left without any gets its own price and stock after the trigger zeroed it.
      db
        .delete(productVariants)
        .where(and(eq(productVariants.productId, id), keep.length ? notInArray(productVariants.id, keep) : undefined)),
      ...upsertVariants(db, product),
      db
        .update(products)
        .set({
          name: product.name,
          brand: product.brand,
          category: product.category,
          description: product.description,
          image: product.image,
          variantLabel: product.variantLabel,
          featured: product.featured,
          ...catalogue,
          // With variants, the triggers have just set the "from" price and the total stock.
          ...(product.variants.length ? {} : { price: product.price, stock: product.stock }),
        })
        .where(eq(products.id, id)),
      // A statement of its own: the one above sets the history, and an UPDATE's SET reads the row as it was.
      recomputeShownRating(db, id),
      auditStatement(db, admin, 'product', id, 'update', changes),
    ]);
  } catch (err) {
    if (lostTheRace(err, CHECKS.productsStockNotNegative)) throw changedMeanwhile();
    throw err;
  }
  return adminProductDetail(db, id);
}

/**
 * DELETE /api/admin/products/:id: a product orders or trade-ins name is archived (active = 0:
 * out of the listing, the search index, the product page and checkout; its orders read the
 * same); one nothing names is erased with its variants and reviews. Audited either way.
 */
export async function deleteProduct(db: Db, admin: Admin, id: string): Promise<'deleted' | 'archived'> {
  const current = await loadProduct(db, id);
  if (!current) throw notFound();
  if (current.ordered) return archive(db, admin, current);
  try {
    await db.batch([
      // A trade-in sent since the read names it: refuse the batch (stock -1 breaks its CHECK).
      db
        .update(products)
        .set({ stock: unlessChanged(sql`NOT ${NAMED_BY_TRADE_IN}`, sql`${products.stock}`, -1) })
        .where(eq(products.id, id)),
      db.delete(reviews).where(eq(reviews.productId, id)),
      db.delete(productVariants).where(eq(productVariants.productId, id)),
      db.delete(products).where(eq(products.id, id)),
      auditStatement(db, admin, 'product', id, 'delete', changedFields(formOf(current.product), {})),
    ]);
  } catch (err) {
    // An order placed since the read (its line's foreign key keeps the product) or a trade-in
    // sent since: archive it instead.
    if (constraintViolation(err)?.kind === 'foreign_key' || lostTheRace(err, CHECKS.productsStockNotNegative))
      return archive(db, admin, current);
    throw err;
  }
  return 'deleted';
}

async function archive(db: Db, admin: Admin, current: Loaded): Promise<'archived'> {
  if (!current.active) return 'archived';
  await db.batch([
    db.update(products).set({ active: false }).where(eq(products.id, current.product.id)),
    auditStatement(db, admin, 'product', current.product.id, 'archive', { active: { from: true, to: false } }),
  ]);
  return 'archived';
}
