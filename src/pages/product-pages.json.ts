import type { APIRoute } from 'astro';
import { catalogue } from '../features/catalogue/catalogue.build.ts';
import { productPageVersion } from '../features/catalogue/page-content.ts';

/**
 * What each pre-rendered product page shows, as a fingerprint per product id. The Worker reads
 * this file once per isolate and serves a product's pre-rendered page only while D1's row still
 * has the same fingerprint; otherwise it renders the page from D1
 * (functions/catalogue/product-pages.ts, docs/decisions/025-one-catalogue-truth.md).
 */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(Object.fromEntries(catalogue.map((p) => [p.id, productPageVersion(p)]))), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
