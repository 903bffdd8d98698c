import { Hono, type MiddlewareHandler } from 'hono';
import { requireAdmin, sameOriginOnly, type SignedInEnv } from '../accounts/session.ts';
import { adminDashboardRoute } from './dashboard-routes.ts';
import { adminImagesRoute } from '../catalogue/admin-image-routes.ts';
import { adminOrdersRoute } from '../orders/admin-routes.ts';
import { adminProductsRoute } from '../catalogue/admin-routes.ts';
import { adminSubscribersRoute } from '../newsletter/admin-routes.ts';
import { adminTradeInsRoute } from '../trade-ins/admin-routes.ts';

const sameOrigin = sameOriginOnly<SignedInEnv>();

/** Writes (anything but GET and HEAD) come from the store's own pages only. */
const sameOriginWrites: MiddlewareHandler<SignedInEnv> = async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  return sameOrigin(c, next);
};

/**
 * /api/admin/*: every route behind one check, made here and nowhere else. A guest gets
 * 401, a signed-in user whose role in D1 is not 'admin' 403 (the role is read on each
 * request, so a demoted admin loses access at once); the admin is `c.var.user`. Answers
 * are never cached. tests/api/admin-access.test.ts walks every route the router serves.
 */
export const adminRoute = new Hono<SignedInEnv>()
  .use('*', requireAdmin())
  .use('*', sameOriginWrites)
  .route('/dashboard', adminDashboardRoute)
  .route('/orders', adminOrdersRoute)
  .route('/products', adminProductsRoute)
  .route('/images', adminImagesRoute)
  .route('/subscribers', adminSubscribersRoute)
  .route('/trade-ins', adminTradeInsRoute);
