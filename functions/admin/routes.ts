import { Hono, type MiddlewareHandler } from 'hono';
import { requireAdmin, sameOriginOnly, type SignedInEnv } from '../accounts/session.ts';
import { ADMIN_AUDIT_BASE, adminAuditRoute } from './audit-routes.ts';
import { ADMIN_DASHBOARD_BASE, adminDashboardRoute } from './dashboard-routes.ts';
import { ADMIN_IMAGES_BASE, adminImagesRoute } from '../catalogue/admin-image-routes.ts';
import { ADMIN_ORDERS_BASE, adminOrdersRoute } from '../orders/admin-routes.ts';
import { ADMIN_PRODUCTS_BASE, adminProductsRoute } from '../catalogue/admin-routes.ts';
import { ADMIN_SUBSCRIBERS_BASE, adminSubscribersRoute } from '../newsletter/admin-routes.ts';
import { ADMIN_TRADE_INS_BASE, adminTradeInsRoute } from '../trade-ins/admin-routes.ts';
import { ADMIN_PAYMENTS_BASE, adminPaymentsRoute } from '../payments/admin-routes.ts';

/** Where functions/index.ts mounts the admin router; each feature's admin router sits below it. */
export const ADMIN_BASE = '/api/admin';

/**
 * Where this router mounts a feature's admin router whose routes use `at(base, …)`
 * (functions/platform/routing.ts): the part of `base` below ADMIN_BASE, as mountPoint() is below API_BASE.
 */
function below<const Base extends `${typeof ADMIN_BASE}/${string}`>(base: Base) {
  return base.slice(ADMIN_BASE.length) as Base extends `${typeof ADMIN_BASE}${infer Rest}` ? Rest : never;
}

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
  .route(below(ADMIN_DASHBOARD_BASE), adminDashboardRoute)
  .route(below(ADMIN_AUDIT_BASE), adminAuditRoute)
  .route(below(ADMIN_ORDERS_BASE), adminOrdersRoute)
  .route(below(ADMIN_PRODUCTS_BASE), adminProductsRoute)
  .route(below(ADMIN_IMAGES_BASE), adminImagesRoute)
  .route(below(ADMIN_SUBSCRIBERS_BASE), adminSubscribersRoute)
  .route(below(ADMIN_TRADE_INS_BASE), adminTradeInsRoute)
  .route(below(ADMIN_PAYMENTS_BASE), adminPaymentsRoute);
