import { adminProductApi } from '../src/features/catalogue/admin/admin-product-api.ts';
import { newsletterApi } from '../src/features/newsletter/subscribe.ts';
import { tradeInApi } from '../src/features/trade-ins/trade-in-api.ts';
import { createApp } from './platform/app.ts';
import { ADMIN_BASE, adminRoute } from './admin/routes.ts';
import {
  ACCOUNT_BASE,
  accountRoute,
  PAYMENT_METHODS_BASE,
  paymentMethodsRoute,
  SESSION_BASE,
  sessionRoute,
} from './accounts/routes.ts';
import { authRoute, googleStandinRoute } from './accounts/auth-routes.ts';
import { health } from './platform/health.ts';
import {
  CHECK_INSTALL_PROMPT_BASE,
  checkInstallPrompt,
  DISMISS_INSTALL_PROMPT_BASE,
  dismissInstallPrompt,
} from './install-prompt/routes.ts';
import { NEWSLETTER_BASE, newsletterRoute, SUBSCRIBE_BASE, subscribe } from './newsletter/routes.ts';
import { ORDERS_BASE, ordersRoute } from './orders/routes.ts';
import { TRADE_INS_BASE, tradeInsRoute } from './trade-ins/routes.ts';
import { PRODUCTS_BASE, products } from './catalogue/routes.ts';
import { mountPoint } from './platform/routing.ts';
import { PAYMENTS_BASE, PAYSTACK_STANDIN_BASE, paymentsRoute, paystackStandinRoute } from './payments/routes.ts';
import { runScheduledJobs } from './scheduled.ts';

/** The store's API: everything under /api/*, served by the same Worker as the pages. */
export const api = createApp({
  largeUploads: [adminProductApi.uploadImage, tradeInApi.submit],
  crossSiteWrites: [newsletterApi.unsubscribe],
})
  .route('/health', health)
  .route(mountPoint(PRODUCTS_BASE), products)
  .route(mountPoint(ORDERS_BASE), ordersRoute)
  .route(mountPoint(TRADE_INS_BASE), tradeInsRoute)
  .route(mountPoint(SUBSCRIBE_BASE), subscribe)
  .route(mountPoint(NEWSLETTER_BASE), newsletterRoute)
  .route(mountPoint(CHECK_INSTALL_PROMPT_BASE), checkInstallPrompt)
  .route(mountPoint(DISMISS_INSTALL_PROMPT_BASE), dismissInstallPrompt)
  .route(mountPoint(SESSION_BASE), sessionRoute)
  .route(mountPoint(ACCOUNT_BASE), accountRoute)
  .route(mountPoint(PAYMENT_METHODS_BASE), paymentMethodsRoute)
  .route(mountPoint(PAYMENTS_BASE), paymentsRoute)
  .route(mountPoint(ADMIN_BASE), adminRoute)
  // Auth.js's own routes (sign-in forms, Google's callback), and the Google stand-in the API tests use (404 unless AUTH_GOOGLE_STANDIN=true).
  .route('/auth', authRoute)
  .route('/test/google', googleStandinRoute)
  // The offline stand-in for Paystack's bank transfer (404 unless PAYMENTS_STANDIN=true).
  .route(mountPoint(PAYSTACK_STANDIN_BASE), paystackStandinRoute);

export type Api = typeof api;

/** The API on its own (what the API tests run): its routes and the scheduled jobs. */
export default {
  fetch: api.fetch,
  scheduled: (controller, env) => runScheduledJobs(controller, env),
} satisfies ExportedHandler<Env>;
