// @ts-check
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';

const site = process.env.SITE_URL ?? 'https://gts.ng';

export default defineConfig({
  site,
  // Every page is pre-rendered; the one Worker (functions/worker.ts) serves /api/* and
  // hands the rest to the adapter, which serves the pre-rendered files and the 404 page.
  output: 'static',
  // /product/x is served from product/x.html, with no trailing-slash redirect.
  build: { format: 'file' },
  trailingSlash: 'never',
  adapter: cloudflare({ imageService: 'passthrough' }),
  // Astro sessions are not used (sign-in is Auth.js cookies): no SESSION KV namespace to provision.
  session: false,
  integrations: [react()],
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  vite: {
    // Without these the first API request in `astro dev` waits ~13 s while Vite re-optimises.
    optimizeDeps: { include: ['hono', 'hono/http-exception', 'drizzle-orm', 'drizzle-orm/d1', 'zod'] },
  },
});
