import { handle } from '@astrojs/cloudflare/handler';
import { api } from './index.ts';
import { runScheduledJobs } from './scheduled.ts';

/**
 * The one Worker. Cloudflare serves the pre-rendered pages and assets before the
 * Worker runs; what reaches it is /api/* (the Hono app) and paths with no file,
 * which the Astro adapter answers: /product/{id} for a product added after the
 * build (rendered from D1), and the 404 page (the home content) for the rest.
 */
export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === '/api' || pathname.startsWith('/api/')) return api.fetch(request, env, ctx);
    return handle(request, env, ctx);
  },
  scheduled: (controller, env) => runScheduledJobs(controller, env),
} satisfies ExportedHandler<Env>;
