import { Hono } from 'hono';
import { adminProductApi } from '../../src/features/catalogue/admin/admin-product-api.ts';
import { uploadImage } from './admin-images.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { auditStatement } from '../platform/audit.ts';

/** Where the admin router mounts this one (functions/admin/routes.ts); the route's path is its contract's (src/features/catalogue/admin/admin-product-api.ts). */
export const ADMIN_IMAGES_BASE = '/api/admin/images';

/**
 * POST /api/admin/images: the image's bytes as the body, its type in content-type. Not under
 * the API's 64 KB body limit (functions/platform/app.ts): uploadImage() caps it at 2 MB as it reads.
 */
export const adminImagesRoute = new Hono<SignedInEnv>().post(at(ADMIN_IMAGES_BASE, adminProductApi.uploadImage), async (c) => {
  const uploaded = await uploadImage(c.env.IMAGES, c.req.raw);
  // Recorded once stored (R2 is not in D1's batch): who put which picture into the shop's storage.
  await auditStatement(c.var.db, c.var.user, 'image', uploaded.url, 'upload', {
    contentType: { from: null, to: uploaded.contentType },
    bytes: { from: null, to: uploaded.bytes },
  });
  return reply(c, adminProductApi.uploadImage, uploaded, 201);
});
