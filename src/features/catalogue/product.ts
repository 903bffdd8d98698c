import { z } from 'zod';
import { BRANDS } from './brands.ts';
import { CATEGORY_IDS } from './categories.ts';
import { hasAtMostTwoDecimals, nairaToKobo } from '../../lib/money.ts';

/** A product id: it becomes the product's URL, /product/{id}. */
export const PRODUCT_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const productIdSchema = z
  .string({ error: 'Product id is required' })
  .max(80, 'A product id is at most 80 characters')
  .regex(PRODUCT_ID_PATTERN, 'Not a product id: use lowercase letters, digits and single dashes');

export function isProductId(value: string): boolean {
  return value.length <= 80 && PRODUCT_ID_PATTERN.test(value);
}

// The selling rules live in product-choice.ts (no zod, so the product page's plain script can use them).
import { isInStock } from './product-choice.ts';

export { findVariant, forShoppers, isInStock, SHOPPER_STOCK_CAP, sellingUnit } from './product-choice.ts';

/** A variant id: unique within its product, it is the `?variant=` of the product's URL. */
export const variantIdSchema = z
  .string({ error: 'Variant id is required' })
  .max(60, 'A variant id is at most 60 characters')
  .regex(PRODUCT_ID_PATTERN, 'Not a variant id: use lowercase letters, digits and single dashes');

/** The id a variant gets from its label when none is written: "8GB + 256GB" → "8gb-256gb". */
export function variantIdFromLabel(label: string): string {
  return label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const priceNairaSchema = z
  .number({ error: 'Must be an amount in naira, for example 1,250,000 or 1299.50' })
  .positive('Must be more than ₦0')
  .max(100_000_000, 'At most ₦100,000,000')
  .refine(hasAtMostTwoDecimals, 'At most two decimals (kobo)');
const stockSchema = z.number({ error: 'Must be a whole number of units in stock (0 when sold out)' }).int().min(0);
const imageSchema = z
  .string()
  .regex(/^\/images\/products\/[a-z0-9-]+\.(svg|webp|png|jpg)$/, 'A local file under public/images/products/');

/** Where an admin's uploaded image is served (functions/catalogue/admin-images.ts): its content hash names it. */
export const UPLOADED_IMAGE_PATTERN = /^\/images\/uploads\/[a-f0-9]{64}\.(svg|webp|png|jpg)$/;

/**
 * A product image as the admin form takes it: a URL, and one on this store (the pages load
 * local assets only): an uploaded image, or one of the catalogue's files.
 */
export const productImageUrlSchema = z
  .string({ error: 'Image URL is required' })
  .trim()
  .min(1, 'Image URL is required')
  .refine(
    (value) => UPLOADED_IMAGE_PATTERN.test(value) || /^\/images\/products\/[a-z0-9-]+\.(svg|webp|png|jpg)$/.test(value),
    'Must be the URL of an image on this store: upload one, or use /images/products/<file>',
  );

/** Text shown on one line (a name, a label): a line break or tab typed or pasted into it is refused, not kept. */
const ONE_LINE = /^[^\p{Cc}]*$/u;
const oneLine = (what: string) => [ONE_LINE, `${what} is one line: no line breaks or tabs`] as const;

function variantFields(image: z.ZodType<string>) {
  return {
    id: variantIdSchema.optional(),
    label: z
      .string()
      .trim()
      .min(1, 'A variant needs a label')
      .max(60)
      .regex(...oneLine('A label')),
    priceNaira: priceNairaSchema,
    stock: stockSchema,
    image: image.optional(),
  };
}

/** One variant as a marketer writes it: a real option with its own price and stock. */
export const catalogueVariantSchema = z.object(variantFields(imageSchema)).strict();

/** What a product is, whoever writes it (a data file or the admin form). */
function productFields(image: z.ZodType<string>) {
  return {
    name: z
      .string()
      .trim()
      .min(2, 'A name is at least 2 characters')
      .max(120)
      .regex(...oneLine('A name')),
    // Read by admins in the product form as well as by whoever edits a data file: no source paths.
    brand: z.enum(BRANDS, { error: 'Choose one of the brands the store sells' }),
    category: z.enum(CATEGORY_IDS, { error: "Choose one of the store's categories" }),
    description: z.string().trim().min(20, 'A description is at least 20 characters').max(1000),
    priceNaira: priceNairaSchema.optional(),
    image,
    variantLabel: z
      .string()
      .trim()
      .min(2)
      .max(40)
      .regex(...oneLine('What the variants choose'))
      .optional(),
    stock: stockSchema.optional(),
    featured: z.boolean().default(false),
  };
}

/**
 * A product either has a price and stock of its own, or variants (storage, colour,
 * edition), each with its price and stock, named together by `variantLabel` ("Storage").
 */
function checkVariants(
  entry: { priceNaira?: number; stock?: number; variantLabel?: string; variants: { id?: string; label: string }[] },
  ctx: z.RefinementCtx,
) {
  if (entry.variants.length === 0) {
    if (entry.priceNaira === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['priceNaira'],
        message: 'Required (or give the product variants, each with its price)',
      });
    if (entry.stock === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['stock'],
        message: 'Required (or give the product variants, each with its stock)',
      });
    if (entry.variantLabel !== undefined)
      ctx.addIssue({ code: 'custom', path: ['variantLabel'], message: 'Only for a product with variants' });
    return;
  }
  if (entry.priceNaira !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['priceNaira'],
      message: 'This product has variants: give each variant its priceNaira instead',
    });
  if (entry.stock !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['stock'],
      message: 'This product has variants: give each variant its stock instead',
    });
  if (entry.variantLabel === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['variantLabel'],
      message: 'Required with variants: what they choose, for example "Storage" or "Colour"',
    });
  const ids = new Set<string>();
  entry.variants.forEach((variant, index) => {
    const id = variant.id ?? variantIdFromLabel(variant.label);
    if (!PRODUCT_ID_PATTERN.test(id))
      ctx.addIssue({
        code: 'custom',
        path: ['variants', index, 'id'],
        message: `Give this variant an id (its label "${variant.label}" makes none)`,
      });
    else if (ids.has(id))
      ctx.addIssue({ code: 'custom', path: ['variants', index, 'label'], message: `Variant "${id}" is listed twice` });
    ids.add(id);
  });
}

/**
 * One product as a marketer writes it in src/data/products/<file>.json.
 * Prices are written in naira (what a marketer reads on a price tag) and turned
 * into integer kobo when the catalogue is loaded.
 */
export const catalogueEntrySchema = z
  .object({
    id: productIdSchema,
    ...productFields(imageSchema),
    variants: z.array(catalogueVariantSchema).max(20).default([]),
    rating: z.number().min(0).max(5),
    reviews: z.number().int().min(0),
  })
  .strict()
  .superRefine(checkVariants);

/**
 * A product as the admin form sends it: the catalogue's rules, with the image as a URL on
 * this store (an upload). Not strict: what a form must not set (rating, review count,
 * archived, and the id after creation) is dropped, not refused. `id` is optional on
 * creation (made from the name when absent) and ignored on an edit.
 */
export const productInputSchema = z
  .object({
    id: productIdSchema.optional(),
    ...productFields(productImageUrlSchema),
    variants: z
      .array(z.object(variantFields(productImageUrlSchema)))
      .max(20, 'At most 20 variants')
      .default([]),
  })
  .superRefine(checkVariants);

export type ProductInput = z.infer<typeof productInputSchema>;
/** What the form holds before parsing (featured and variants may be absent). */
export type ProductInputDraft = z.input<typeof productInputSchema>;

export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;

/** A variant as the store sells it (price in kobo). `image` is null when it shows the product's. */
export const variantSchema = z.object({
  id: z.string(),
  label: z.string(),
  price: z.number().int(),
  stock: z.number().int(),
  inStock: z.boolean(),
  image: z.string().nullable(),
});

export type Variant = z.infer<typeof variantSchema>;

/**
 * A product as the store sells it: what D1 holds and the API returns (price in kobo).
 * With variants, `price` is the lowest variant price (the "from" price), `stock` their
 * sum, and `variantLabel` names what the variants choose.
 */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  category: z.string(),
  description: z.string(),
  price: z.number().int(),
  image: z.string(),
  variantLabel: z.string(),
  variants: z.array(variantSchema),
  stock: z.number().int(),
  inStock: z.boolean(),
  rating: z.number(),
  reviews: z.number().int(),
  /** How many of `reviews` are from this store's buyers (the rest are the catalogue's history); absent when none, and on pages built from the data files. */
  storeReviews: z.number().int().optional(),
  featured: z.boolean(),
});

export type Product = z.infer<typeof productSchema>;

/** The lowest and highest price a product sells at: they differ when its variants are priced apart. */
export function priceRange(product: Pick<Product, 'price' | 'variants'>): { from: number; to: number } {
  if (product.variants.length === 0) return { from: product.price, to: product.price };
  const prices = product.variants.map((v) => v.price);
  return { from: Math.min(...prices), to: Math.max(...prices) };
}

/** True when the shopper must choose a variant and the price depends on which ("from ₦…"). */
export function hasPriceRange(product: Pick<Product, 'price' | 'variants'>): boolean {
  const { from, to } = priceRange(product);
  return from !== to;
}

/**
 * A product as the store sells it, from what a data file or the admin form says of it: kobo
 * prices, variant ids, and with variants the "from" price and total stock (what D1's triggers
 * keep). `kept` gives what neither writes: the rating and review count.
 */
export function productFromFields(
  id: string,
  fields: Omit<ProductInput, 'id'>,
  kept: Pick<Product, 'rating' | 'reviews'>,
): Product {
  const variants: Variant[] = fields.variants.map((v) => ({
    id: v.id ?? variantIdFromLabel(v.label),
    label: v.label,
    price: nairaToKobo(v.priceNaira),
    stock: v.stock,
    inStock: isInStock(v.stock),
    image: v.image ?? null,
  }));
  // The schema guarantees a product without variants has its own price and stock.
  const price = variants.length ? Math.min(...variants.map((v) => v.price)) : nairaToKobo(fields.priceNaira ?? 0);
  const stock = variants.length ? variants.reduce((sum, v) => sum + v.stock, 0) : (fields.stock ?? 0);
  return {
    id,
    name: fields.name,
    brand: fields.brand,
    category: fields.category,
    description: fields.description,
    price,
    image: fields.image,
    variantLabel: variants.length ? (fields.variantLabel ?? '') : '',
    variants,
    stock,
    inStock: isInStock(stock),
    rating: kept.rating,
    reviews: kept.reviews,
    featured: fields.featured,
  };
}
