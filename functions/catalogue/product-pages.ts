import { featuredShelfVersion, productPageVersion } from '../../src/features/catalogue/page-content.ts';
import { isProductId } from '../../src/features/catalogue/product.ts';
import { openDb } from '../platform/db.ts';
import { featuredOnSale, findActiveProduct } from './products.ts';

/**
 * Pre-rendered pages say what D1 says (docs/decisions/025-one-catalogue-truth.md). The build
 * pre-renders a page per product of the data files and the home page's featured shelf, and
 * records what each shows (/page-versions.json, src/features/catalogue/page-content.ts). Those
 * requests reach the Worker first (wrangler.toml `run_worker_first`), which reads D1 and:
 *  - serves the pre-rendered file while D1 shows the same as the build did;
 *  - otherwise renders from D1 what differs: a product page whole (the on-demand
 *    /product/[...slug] page), the home page's shelf into the file (/partials/featured-shelf);
 *  - answers 404 "Product not found" for an archived or unknown product, file or not.
 * The answer says which in `X-Page-Source: build | d1 | missing`.
 */
export const PAGE_SOURCE_HEADER = 'X-Page-Source';

/** The product id of a product page's path (/product/{id}, with or without a trailing slash). */
export function productIdOfPagePath(pathname: string): string | undefined {
  const id = /^\/product\/([^/]+)\/?$/.exec(pathname)?.[1];
  return id !== undefined && isProductId(id) ? id : undefined;
}

interface BuiltVersions {
  products: Record<string, string>;
  featuredShelf: string;
}

/** The build's fingerprints, read once per isolate (per assets binding); a failed read is tried again on the next request. */
const builtVersions = new WeakMap<Fetcher, Promise<BuiltVersions>>();

function readBuiltVersions(assets: Fetcher, origin: string): Promise<BuiltVersions> {
  let versions = builtVersions.get(assets);
  if (!versions) {
    versions = assets.fetch(new URL('/page-versions.json', origin)).then(async (response) => {
      if (!response.ok) throw new Error(`/page-versions.json answered ${response.status}`);
      return (await response.json()) as BuiltVersions;
    });
    builtVersions.set(assets, versions);
    versions.catch(() => builtVersions.delete(assets));
  }
  return versions;
}

/** The build's record, or undefined without one: then every page is rendered from D1 (slower, never wrong). */
const builtVersion = <T>(env: Pick<Env, 'ASSETS'>, url: URL, pick: (versions: BuiltVersions) => T): Promise<T | undefined> =>
  readBuiltVersions(env.ASSETS, url.origin).then(pick, () => undefined);

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
    builtVersion(env, url, (versions) => versions.products[id]),
    findActiveProduct(openDb(env.DB), id),
  ]);
  if (live && built !== undefined && built === productPageVersion(live)) {
    const file = await env.ASSETS.fetch(new Request(url, request));
    if (file.ok || file.status === 304) return tagged(file, 'build');
  }
  return tagged(await render(), live ? 'd1' : 'missing');
}

/**
 * Answers the home page: the pre-rendered file, with its featured shelf replaced by D1's when the
 * featured products differ from the build's (`renderShelf()`: the Astro handler's
 * /partials/featured-shelf, the same ProductCard markup). If the shelf cannot be rendered, the
 * build's stays: a stale card beats an empty shelf.
 */
export async function serveHomePage(
  request: Request,
  env: Pick<Env, 'ASSETS' | 'DB'>,
  renderShelf: () => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  const [built, live] = await Promise.all([
    builtVersion(env, url, (versions) => versions.featuredShelf),
    featuredOnSale(openDb(env.DB)),
  ]);
  if (built !== undefined && built === featuredShelfVersion(live))
    return tagged(await env.ASSETS.fetch(new Request(url, request)), 'build');
  // Unconditional: a browser's copy of the file (its ETag) is not this page.
  const [file, shelf] = await Promise.all([env.ASSETS.fetch(new Request(url, { method: request.method })), renderShelf()]);
  if (!file.ok || !shelf.ok) return tagged(file, 'build');
  const cards = await shelf.text();
  const page = new HTMLRewriter()
    .on('[data-featured-shelf]', {
      element(element) {
        element.setInnerContent(cards, { html: true });
      },
    })
    .transform(file);
  const answer = tagged(page, 'd1');
  answer.headers.delete('etag');
  answer.headers.delete('last-modified');
  answer.headers.set('cache-control', 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
  return answer;
}

function tagged(response: Response, source: 'build' | 'd1' | 'missing'): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(PAGE_SOURCE_HEADER, source);
  return copy;
}
