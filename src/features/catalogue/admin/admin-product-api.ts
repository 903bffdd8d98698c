import { z } from 'zod';
import { endpoint } from '../../../lib/api-contract.ts';
import { count, instant, kobo, page, paging, search, version, auditEntrySchema } from '../../admin/admin-contract.ts';
import { CATEGORY_IDS } from '../categories.ts';
import { productInputSchema } from '../product.ts';

/** The admin's side of the catalogue: products (list, form, archive) and their images. */

export const adminProductQuerySchema = z.object({
  q: search,
  category: z.enum(CATEGORY_IDS, { error: 'Not one of the store’s categories' }).optional(),
  /** "true": the archived (deleted) products instead of those on sale. */
  archived: z.enum(['true', 'false']).optional(),
  page,
});

export const adminProductSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  category: z.string(),
  /** The lowest price (kobo) and the total stock, over the variants when it has them. */
  price: kobo,
  stock: count,
  variants: count,
  image: z.string(),
  featured: z.boolean(),
  active: z.boolean(),
  updatedAt: instant,
});
export type AdminProductSummary = z.infer<typeof adminProductSummarySchema>;

export const adminProductListSchema = z.object({ products: z.array(adminProductSummarySchema), ...paging });

/**
 * The rating and review count a product had before this store sold it (its data file's, or
 * what the admin copies from the maker's or a marketplace's page): its history. Shoppers see
 * it with this store's own reviews added (weighted by count); nobody sets what they see.
 * Absent from an edit: left as they are.
 */
export const catalogueRatingFields = {
  catalogueRating: z
    .number({ error: 'A number from 0 to 5' })
    .min(0, 'A number from 0 to 5')
    .max(5, 'A number from 0 to 5')
    .optional(),
  catalogueReviews: z
    .number({ error: 'A whole number' })
    .int('A whole number')
    .min(0, 'Zero or more')
    .max(100_000_000, 'At most 100,000,000')
    .optional(),
};

/** POST /api/admin/products: the form, with the catalogue's rating history if the admin gave one. */
export const createProductSchema = z.intersection(productInputSchema, z.object(catalogueRatingFields));
export type AdminProductInput = z.infer<typeof createProductSchema>;
/** What the form holds before parsing. */
export type AdminProductInputDraft = z.input<typeof createProductSchema>;

/** A product as the admin form edits it (naira, as typed), with what only the Worker sets. */
export const adminProductDetailSchema = z.object({
  id: z.string(),
  form: productInputSchema,
  active: z.boolean(),
  /** What shoppers see: the catalogue's history with this store's reviews added. */
  rating: z.number(),
  reviews: count,
  catalogueRating: z.number(),
  catalogueReviews: count,
  /** The version an edit must name (409 `product_changed` when someone saved it meanwhile). */
  version: z.string(),
  /** True when orders or trade-ins (a swap) refer to it: deleting it archives it instead of erasing it. */
  ordered: z.boolean(),
  /**
   * Units unpaid orders hold, by variant id ('' for a product without variants): not counted in
   * the stock the form edits, and back in it if those orders are cancelled or expire.
   */
  held: z.record(z.string(), count),
  audit: z.array(auditEntrySchema),
});
export type AdminProductDetail = z.infer<typeof adminProductDetailSchema>;

/** PUT /api/admin/products/:id: the form, and the version it was loaded at. */
export const updateProductSchema = z.intersection(productInputSchema, z.object({ ...catalogueRatingFields, version }));

export const deleteProductAnswerSchema = z.object({
  /** Erased (never ordered), or archived (kept for the orders that name it, gone from the shop). */
  outcome: z.enum(['deleted', 'archived']),
});

/** POST /api/admin/images answers with where the uploaded image is served. */
export const uploadedImageSchema = z.object({ url: z.string(), contentType: z.string(), bytes: count });

/** The admin's product and image endpoints (functions/catalogue/admin-routes.ts, admin-image-routes.ts). Query strings are validated with adminProductQuerySchema. */
export const adminProductApi = {
  products: endpoint({ method: 'GET', path: '/api/admin/products', response: adminProductListSchema }),
  product: endpoint({ method: 'GET', path: '/api/admin/products/:id', response: adminProductDetailSchema }),
  createProduct: endpoint({
    method: 'POST',
    path: '/api/admin/products',
    body: createProductSchema,
    response: adminProductDetailSchema,
  }),
  updateProduct: endpoint({
    method: 'PUT',
    path: '/api/admin/products/:id',
    body: updateProductSchema,
    response: adminProductDetailSchema,
  }),
  deleteProduct: endpoint({ method: 'DELETE', path: '/api/admin/products/:id', response: deleteProductAnswerSchema }),
  /**
   * The image's bytes as the body (not JSON), its type in `content-type`; the Worker checks the
   * type by the content itself and caps the size.
   */
  uploadImage: endpoint({ method: 'POST', path: '/api/admin/images', response: uploadedImageSchema }),
};
