import type { APIRoute } from 'astro';
import { catalogue } from '../features/catalogue/catalogue.build.ts';
import { INFO_LINKS } from '../lib/site.ts';

// Written by hand rather than with @astrojs/sitemap: that integration names its file
// sitemap-index.xml, and crawlers and robots.txt here expect /sitemap.xml.
export const GET: APIRoute = ({ site }) => {
  const paths = [
    '/',
    '/products',
    '/brands',
    '/track',
    '/payment-methods',
    '/sell-or-swap',
    '/sell-or-swap/status',
    ...INFO_LINKS.map((l) => l.href),
    ...catalogue.map((p) => `/product/${p.id}`),
  ];
  const urls = paths.map((p) => `  <url><loc>${new URL(p, site).href}</loc></url>`).join('\n');
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
    { headers: { 'content-type': 'application/xml; charset=utf-8' } },
  );
};
