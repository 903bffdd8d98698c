import { productPageVersion } from '../../src/features/catalogue/page-content.ts';
import { isProductId } from '../../src/features/catalogue/product.ts';
import { openDb } from '../platform/db.ts';
import { findActiveProduct } from './products.ts';

/**
 * Product pages say what D1 says (docs/decisions/025-one-catalogue-truth.md). The build
 * pre-renders a page per product of the data files and records what each shows
 * (/product-pages.json, src/features/catalogue/page-content.ts). Every /product/{id} request
 * reaches the Worker first (wrangler.toml `run_worker_first`), which reads the product's row and:
 *  - serves the pre-rendered file while the row shows the same as the build did;
 *  - renders the page from D1 when they differ (an admin's edit, a sync not yet built, a product
 *    sold out or reviewed since), or when the build never had it (a product an admin added);
 *  - answers 404 "Product not found" for an archived or unknown product, file or not.
 * The answer says which in `X-Product-Page: build | d1 | missing`.
 */
export const PRODUCT_PAGE_HEADER = 'X-Product-Page';

/** The product id of a product page's path (/product/{id}, with or without a trailing slash). */
export function productIdOfPagePath(pathname: string): string | undefined {
  const id = /^\/product\/([^/]+)\/?$/.exec(pathname)?.[1];
  return id !== undefined && isProductId(id) ? id : undefined;
}

/** The build's fingerprints, read once per isolate (per assets binding); a failed read is tried again on the next request. */
const builtVersions = new WeakMap<Fetcher, Promise<Map<string, string>>>();

function readBuiltVersions(assets: Fetcher, origin: string): Promise<Map<string, string>> {
  let versions = builtVersions.get(assets);
  if (!versions) {
    versions = assets.fetch(new URL('/product-pages.json', origin)).then(async (response) => {
      if (!response.ok) throw new Error(`/product-pages.json answered ${response.status}`);
      return new Map(Object.entries((await response.json()) as Record<string, string>));
    });
    builtVersions.set(assets, versions);
    versions.catch(() => builtVersions.delete(assets));
  }
  return versions;
}

/**
 * Answers a product page request: the pre-rendered file when D1 agrees with it, else `render()`
 * (the Astro handler, whose on-demand /product/[...slug] page reads D1).
 */
export async function serveProductPage(
  request: Request,
  env: Pick<Env, 'ASSETS' | 'DB'>,
  id: string,
  render: () => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  const [built, live] = await Promise.all([
    readBuiltVersions(env.ASSETS, url.origin).then(
      (versions) => versions.get(id),
      // Without the build's record every page is rendered from D1: slower, never wrong.
      () => undefined,
    ),
    findActiveProduct(openDb(env.DB), id),
  ]);
  if (live && built !== undefined && built === productPageVersion(live)) {
    const file = await env.ASSETS.fetch(new Request(url, request));
    if (file.ok) return tagged(file, 'build');
  }
  return tagged(await render(), live ? 'd1' : 'missing');
}

function tagged(response: Response, source: 'build' | 'd1' | 'missing'): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(PRODUCT_PAGE_HEADER, source);
  return copy;
}
