import { z } from 'zod';
import { BRANDS } from './brands.ts';
import { CATEGORY_IDS } from './categories.ts';
import { hasAtMostTwoDecimals } from '../../lib/money.ts';

/** A product id: it becomes the product's URL, /product/{id}. */
export const PRODUCT_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const productIdSchema = z
  .string({ error: 'Product id is required' })
  .max(80, 'A product id is at most 80 characters')
  .regex(PRODUCT_ID_PATTERN, 'Not a product id: use lowercase letters, digits and single dashes');

export function isProductId(value: string): boolean {
  return value.length <= 80 && PRODUCT_ID_PATTERN.test(value);
}

/** A product (or variant) can be bought while it has stock. */
export function isInStock(stock: number): boolean {
  return stock > 0;
}

/**
 * One product as a marketer writes it in src/data/products/<file>.json.
 * Prices are written in naira (what a marketer reads on a price tag) and turned
 * into integer kobo when the catalogue is loaded.
 */
export const catalogueEntrySchema = z
  .object({
    id: productIdSchema,
    name: z.string().trim().min(2).max(120),
    brand: z.enum(BRANDS, { error: 'Must be one of the brands in src/features/catalogue/brands.ts' }),
    category: z.enum(CATEGORY_IDS, { error: 'Must be one of the category ids in src/features/catalogue/categories.ts' }),
    description: z.string().trim().min(20).max(1000),
    priceNaira: z
      .number({ error: 'Must be a number of naira, for example 1250000 (no currency sign, no dash)' })
      .positive()
      .max(100_000_000)
      .refine(hasAtMostTwoDecimals, 'At most two decimals (kobo)'),
    image: z.string().regex(/^\/images\/products\/[a-z0-9-]+\.(svg|webp|png|jpg)$/, 'A local file under public/images/products/'),
    variants: z
      .array(z.string().trim().min(1).max(60))
      .max(20)
      .refine((v) => new Set(v).size === v.length, 'Variants must be unique')
      .default([]),
    stock: z.number().int().min(0),
    rating: z.number().min(0).max(5),
    reviews: z.number().int().min(0),
    featured: z.boolean().default(false),
  })
  .strict();

export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;

/** A product as the store sells it: what D1 holds and the API returns (price in kobo). */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  category: z.string(),
  description: z.string(),
  price: z.number().int(),
  image: z.string(),
  variants: z.array(z.string()),
  stock: z.number().int(),
  inStock: z.boolean(),
  rating: z.number(),
  reviews: z.number().int(),
  featured: z.boolean(),
});

export type Product = z.infer<typeof productSchema>;
