import { createApp } from './platform/app.ts';
import { adminRoute } from './admin/routes.ts';
import { accountRoute, paymentMethodsRoute, sessionRoute } from './accounts/routes.ts';
import { authRoute, googleStandinRoute } from './accounts/auth-routes.ts';
import { health } from './platform/health.ts';
import { checkInstallPrompt, dismissInstallPrompt } from './install-prompt/routes.ts';
import { newsletterRoute, subscribe } from './newsletter/routes.ts';
import { ordersRoute } from './orders/routes.ts';
import { tradeInsRoute } from './trade-ins/routes.ts';
import { products } from './catalogue/routes.ts';
import { runScheduledJobs } from './scheduled.ts';

/** The store's API: everything under /api/*, served by the same Worker as the pages. */
export const api = createApp()
  .route('/health', health)
  .route('/products', products)
  .route('/orders', ordersRoute)
  .route('/trade-ins', tradeInsRoute)
  .route('/subscribe', subscribe)
  .route('/newsletter', newsletterRoute)
  .route('/check-install-prompt', checkInstallPrompt)
  .route('/dismiss-install-prompt', dismissInstallPrompt)
  .route('/session', sessionRoute)
  .route('/account', accountRoute)
  .route('/payment-methods', paymentMethodsRoute)
  .route('/admin', adminRoute)
  // Auth.js's own routes (sign-in forms, Google's callback), and the Google stand-in the API tests use (404 unless AUTH_GOOGLE_STANDIN=true).
  .route('/auth', authRoute)
  .route('/test/google', googleStandinRoute);

export type Api = typeof api;

/** The API on its own (what the API tests run): its routes and the scheduled jobs. */
export default {
  fetch: api.fetch,
  scheduled: (controller, env) => runScheduledJobs(controller, env),
} satisfies ExportedHandler<Env>;
