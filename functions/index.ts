import { createApp } from './lib/app.ts';
import { health } from './routes/health.ts';
import { subscribe } from './routes/newsletter.ts';
import { products } from './routes/products.ts';

/** The store's API: everything under /api/*, served by the same Worker as the pages. */
export const api = createApp()
  .route('/health', health)
  .route('/products', products)
  .route('/subscribe', subscribe);

export type Api = typeof api;

export default api;
