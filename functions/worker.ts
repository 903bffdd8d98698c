import { handle } from '@astrojs/cloudflare/handler';
import { productIdOfPagePath, serveHomePage, serveProductPage } from './catalogue/product-pages.ts';
import { isUploadedImagePath, serveUploadedImage } from './catalogue/uploads.ts';
import { api } from './index.ts';
import { HSTS, isPrivatePage, OPENER_POLICY, PAGE_CSP_HEADER, PAGE_SECURITY_HEADERS } from './platform/security-headers.ts';
import { runScheduledJobs } from './scheduled.ts';
import { drainReader } from './platform/drain.ts';
import { cachedImports, type ModuleImports, withLateScripts } from './platform/page-scripts.ts';
import { knownHashes, pagePolicy } from './platform/page-policy.ts';
import { finishPageRequest } from './platform/request-log.ts';

/**
 * The one Worker. Cloudflare serves the pre-rendered pages and assets before the
 * Worker runs (with the headers of public/_headers); what reaches it is /api/* (the
 * Hono app, which sets its own security headers) and paths with no file, which the
 * Astro adapter answers from D1: the listing (/products, every filter in its URL), the
 * cart (/cart, with lines added without JavaScript) and POST /cart/add, and the 404 page
 * (the home content) for the rest. Product pages (/product/*) and the home page reach it first
 * (wrangler.toml `run_worker_first`): the pre-rendered page while D1 agrees with it, else what
 * differs rendered from D1 (functions/catalogue/product-pages.ts). Images admins uploaded (/images/uploads/*) come
 * from R2 (functions/catalogue/uploads.ts).
 */
export default {
  async fetch(request, env, ctx) {
    try {
      const { pathname } = new URL(request.url);
      if (pathname === '/api' || pathname.startsWith('/api/'))
        return withTransportSecurity(request, await api.fetch(request, env, ctx));
      return await answerPage(request, env, ctx, pathname);
    } finally {
      await drainUnreadBody(request);
    }
  },
  scheduled: (controller, env) => runScheduledJobs(controller, env),
} satisfies ExportedHandler<Env>;

/**
 * Everything but the API: uploaded images, product pages, and what the Astro adapter renders.
 * Each is logged with a request id (functions/platform/request-log.ts); an error page shows it,
 * and a failure outside Astro's own error handling answers the store's 500 page, not
 * Cloudflare's.
 */
async function answerPage(request: Request, env: Env, ctx: ExecutionContext, pathname: string): Promise<Response> {
  const log = { id: crypto.randomUUID(), started: Date.now() };
  let response: Response;
  try {
    // Admins' uploaded images live in R2, not among the static assets (functions/catalogue/uploads.ts).
    if (isUploadedImagePath(pathname)) {
      response = withTransportSecurity(request, await serveUploadedImage(request, env.IMAGES));
    } else {
      const render = () => handle(request, env, ctx);
      const reading = request.method === 'GET' || request.method === 'HEAD';
      const productId = reading ? productIdOfPagePath(pathname) : undefined;
      response = await finishPage(
        request,
        env,
        !decodablePath(pathname)
          ? await notFoundPage(request, env)
          : productId
            ? await serveProductPage(request, env, productId, render)
            : reading && pathname === '/'
              ? await serveHomePage(request, env, () =>
                  handle(new Request(new URL('/partials/featured-shelf', request.url)), env, ctx),
                )
              : await render(),
      );
    }
  } catch (error) {
    console.error(JSON.stringify({ at: new Date().toISOString(), kind: 'error', id: log.id, error: String(error) }));
    response = await finishPage(request, env, await serverErrorPage(request, env));
  }
  return finishPageRequest(request, response, log);
}

/**
 * Whether a path's %-escapes decode (`/%ff` does not). Astro answers such a path 404 too, but
 * logs an error for it, so anyone could fill the error log with them: they get the 404 page here.
 */
function decodablePath(pathname: string): boolean {
  try {
    // The result is used: a bare decodeURI() call is dropped by the bundler as free of effects.
    return typeof decodeURI(pathname) === 'string';
  } catch {
    return false;
  }
}

/** The pre-rendered 404 page (src/pages/404.astro), with status 404. */
async function notFoundPage(request: Request, env: Env): Promise<Response> {
  const page = await env.ASSETS.fetch(new URL('/404', request.url)).catch(() => undefined);
  const body = page?.ok ? page.body : 'There is no page at this address.';
  return new Response(body, {
    status: 404,
    headers: { 'content-type': page?.headers.get('content-type') ?? 'text/plain; charset=utf-8' },
  });
}

/** The pre-rendered 500 page (src/pages/500.astro), with status 500 and never cached. */
async function serverErrorPage(request: Request, env: Env): Promise<Response> {
  const page = await env.ASSETS.fetch(new URL('/500', request.url)).catch(() => undefined);
  const body = page?.ok ? page.body : 'Something went wrong on our side. Please try again in a moment.';
  return new Response(body, {
    status: 500,
    headers: { 'content-type': page?.headers.get('content-type') ?? 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * Reads and discards a request body nobody read (a 401 before the body mattered, a 404
 * for an unknown path, a 413 decided from Content-Length).
 *
 * Why: `wrangler dev` (`npm start`, the browser tests) forwards each request to this
 * Worker through a proxy Worker. When the answer comes back while part of the body is
 * still unsent, the proxy loses its connection to the Worker and that request, or the
 * next one, fails with a 500 "Network connection lost" (cloudflare/workers-sdk#5095,
 * #15203; tests/e2e/api-bodies.spec.ts shows it). Wrangler's own bundler adds a
 * middleware that drains bodies; this Worker is bundled by Astro, so it drains them itself.
 *
 * Drained, not cancelled: a cancel is what breaks the connection. Drained before the
 * Response is handed back (draining after it, in waitUntil, still lost connections):
 * that waits only for the rest of the upload, the answer's body still streams. Bounded:
 * past MAX_DRAIN_BYTES (far above the API's 64 KB limit) the body is cancelled, so an
 * oversized upload cannot keep the Worker reading.
 */
async function drainUnreadBody(request: Request) {
  const body = request.body;
  if (body === null || request.bodyUsed || body.locked) return;
  await drainReader(body.getReader());
}

/**
 * What the Worker adds to a page it answers: its scripts listed to start after the first paint, with
 * every module they import (functions/platform/page-scripts.ts; the build has done it in pre-rendered pages), and
 * the security headers a pre-rendered page gets from `_headers` (public/_headers, and the page's own
 * policy the build adds there). An HTML page is read whole for that (a few tens of KB), then sent.
 */
async function finishPage(request: Request, env: Env, response: Response): Promise<Response> {
  const { headers } = response;
  const html = (headers.get('content-type') ?? '').startsWith('text/html') && response.body !== null;
  const body = html ? await withLateScripts(await response.text(), builtModuleImports(request, env)) : null;
  // The adapter's answer may have immutable headers (one fetched from the assets).
  const secured = new Response(body ?? response.body, response);
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) secured.headers.set(name, value);
  // A page with a person's data: the opener policy too (security-headers.ts says why not on every page).
  if (isPrivatePage(new URL(request.url).pathname))
    for (const [name, value] of Object.entries(OPENER_POLICY)) secured.headers.set(name, value);
  if (body !== null) secured.headers.delete('content-length');
  // Every page gets its own script policy, computed from the page (functions/platform/page-policy.ts):
  // a pre-rendered one (the home page, a product page, the 404 and 500 pages, served here from the
  // assets) has none (the build takes Astro's <meta> out, once it has checked the page's hashes
  // against it), and the one Astro sends with a page it renders on demand lists the whole site's
  // hashes (1.7 KB of headers), which this replaces: only the page's hashes that list knows are kept
  // (with our own inline scripts', knownHashes()), so a script a slip let into the page does not run.
  if (body !== null) {
    const astros = response.headers.get('Content-Security-Policy');
    const known = astros?.includes("'sha256-") ? await knownHashes(astros) : undefined;
    secured.headers.delete('Content-Security-Policy');
    secured.headers.append('Content-Security-Policy', await pagePolicy(body, known));
  }
  // The policy every page carries (public/_headers' `/*`); a browser enforces each policy it gets.
  if (!secured.headers.get('content-security-policy')?.includes(PAGE_CSP_HEADER))
    secured.headers.append('Content-Security-Policy', PAGE_CSP_HEADER);
  return withTransportSecurity(request, secured);
}

/** The imports of the built scripts, read from the static assets once per Worker instance. */
let moduleImports: ModuleImports | undefined;
function builtModuleImports(request: Request, env: Env): ModuleImports {
  const { origin } = new URL(request.url);
  moduleImports ??= cachedImports(async (path) => {
    const file = await env.ASSETS.fetch(new Request(new URL(path, origin)));
    return file.ok ? await file.text() : undefined;
  });
  return moduleImports;
}

/** HSTS only over https: production. Local runs (wrangler dev, tests) are plain http. */
function withTransportSecurity(request: Request, response: Response): Response {
  if (new URL(request.url).protocol !== 'https:') return response;
  const secured = new Response(response.body, response);
  secured.headers.set('Strict-Transport-Security', HSTS);
  return secured;
}
