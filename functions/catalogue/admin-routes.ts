import { Hono } from 'hono';
import { z } from 'zod';
import {
  adminProductApi,
  adminProductQuerySchema,
  createProductSchema,
  updateProductSchema,
} from '../../src/features/catalogue/admin/admin-product-api.ts';
import { productIdSchema } from '../../src/features/catalogue/product.ts';
import { adminProductDetail, createProduct, deleteProduct, listAdminProducts, updateProduct } from './admin-products.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';
import { at } from '../platform/routing.ts';

const idParam = validate('param', z.object({ id: productIdSchema }));

/** Where the admin router mounts this one (functions/admin/routes.ts): each route's path is its contract's (src/features/catalogue/admin/admin-product-api.ts). */
export const ADMIN_PRODUCTS_BASE = '/api/admin/products';

/**
 * /api/admin/products: the catalogue as admins edit it (functions/catalogue/admin-products.ts). The
 * admin router has checked the admin (c.var.user) and, for writes, the origin.
 */
export const adminProductsRoute = new Hono<SignedInEnv>()
  .get(at(ADMIN_PRODUCTS_BASE, adminProductApi.products), validate('query', adminProductQuerySchema), async (c) => {
    return reply(c, adminProductApi.products, await listAdminProducts(c.var.db, c.req.valid('query')));
  })
  .get(at(ADMIN_PRODUCTS_BASE, adminProductApi.product), idParam, async (c) => {
    return reply(c, adminProductApi.product, await adminProductDetail(c.var.db, c.req.valid('param').id));
  })
  .post(at(ADMIN_PRODUCTS_BASE, adminProductApi.createProduct), validate('json', createProductSchema), async (c) => {
    return reply(c, adminProductApi.createProduct, await createProduct(c.var.db, c.var.user, c.req.valid('json')), 201);
  })
  .put(at(ADMIN_PRODUCTS_BASE, adminProductApi.updateProduct), idParam, validate('json', updateProductSchema), async (c) => {
    // The path names the product: an id in the body (like rating, reviews or archived) changes nothing;
    // catalogueRating and catalogueReviews set its history, which its reviews here are added to.
    const { version, ...input } = c.req.valid('json');
    const { id } = c.req.valid('param');
    return reply(c, adminProductApi.updateProduct, await updateProduct(c.var.db, c.var.user, id, input, version));
  })
  .delete(at(ADMIN_PRODUCTS_BASE, adminProductApi.deleteProduct), idParam, async (c) => {
    const outcome = await deleteProduct(c.var.db, c.var.user, c.req.valid('param').id);
    return reply(c, adminProductApi.deleteProduct, { outcome });
  });
