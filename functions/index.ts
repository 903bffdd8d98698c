import { createApp } from './lib/app.ts';
import { health } from './routes/health.ts';
import { subscribe } from './routes/newsletter.ts';
import { ordersRoute } from './routes/orders.ts';
import { products } from './routes/products.ts';
import { runScheduledJobs } from './scheduled.ts';

/** The store's API: everything under /api/*, served by the same Worker as the pages. */
export const api = createApp()
  .route('/health', health)
  .route('/products', products)
  .route('/orders', ordersRoute)
  .route('/subscribe', subscribe);

export type Api = typeof api;

/** The API on its own (what the API tests run): its routes and the scheduled jobs. */
export default {
  fetch: api.fetch,
  scheduled: (controller, env) => runScheduledJobs(controller, env),
} satisfies ExportedHandler<Env>;
