import type { APIRoute } from 'astro';
import { catalogue, featuredProducts } from '../features/catalogue/catalogue.build.ts';
import { featuredShelfVersion, productPageVersion } from '../features/catalogue/page-content.ts';

/**
 * What the pre-rendered pages that show catalogue data show, as fingerprints: each product page
 * (by product id) and the home page's featured shelf. The Worker reads this file once per isolate
 * and serves a pre-rendered page only while D1 still gives the same fingerprint; otherwise it
 * renders from D1 what differs (functions/catalogue/product-pages.ts,
 * docs/decisions/025-one-catalogue-truth.md).
 */
export const GET: APIRoute = () =>
  new Response(
    JSON.stringify({
      products: Object.fromEntries(catalogue.map((p) => [p.id, productPageVersion(p)])),
      featuredShelf: featuredShelfVersion(featuredProducts()),
    }),
    { headers: { 'content-type': 'application/json; charset=utf-8' } },
  );
