import { createApp } from './lib/app.ts';
import { adminRoute } from './routes/admin/index.ts';
import { accountRoute, paymentMethodsRoute, sessionRoute } from './routes/account.ts';
import { authRoute, googleStandinRoute } from './routes/auth.ts';
import { health } from './routes/health.ts';
import { checkInstallPrompt, dismissInstallPrompt } from './routes/install-prompt.ts';
import { newsletterRoute, subscribe } from './routes/newsletter.ts';
import { ordersRoute } from './routes/orders.ts';
import { tradeInsRoute } from './routes/trade-ins.ts';
import { products } from './routes/products.ts';
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
