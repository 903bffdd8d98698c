import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './app.ts';

/**
 * One JSON line per request the Worker answers (the API's, and the pages it renders or checks:
 * finishPageRequest), for an operator reading Workers Logs (wrangler.toml [observability]):
 * when, the request id (also in the `x-request-id` answer header and on error pages, so a
 * shopper's or a support ticket's id finds its line), the method, the route's pattern (never
 * the path with its values, never the query string: those may carry a token or an e-mail),
 * the status, how long it took, and the order or trade-in reference it concerned when there is
 * one (GTS-… and TRD-… numbers, which identify an order but no person). Never a name, e-mail,
 * phone, address, token or password: tests/api/request-log.test.ts runs a whole checkout and
 * looks for them in every line.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

const REFERENCE = /\b(GTS|TRD)-[0-9A-Z]{10}\b/;

/** A reference a handler learnt from the body or its answer (a placed order's number), for the request's log line. */
export function noteReference(c: Context<AppEnv>, reference: string) {
  if (REFERENCE.test(reference)) c.set('reference', reference);
}

/** The log line of one request, whoever answered it (the API's middleware, or the Worker for a page). */
function logRequest(facts: { started: number; id: string; method: string; route: string; status: number; reference?: string }) {
  const line: Record<string, unknown> = {
    at: new Date(facts.started).toISOString(),
    kind: 'request',
    id: facts.id,
    method: facts.method,
    route: facts.route,
    status: facts.status,
    ms: Date.now() - facts.started,
  };
  if (facts.reference) line.reference = facts.reference;
  console.log(JSON.stringify(line));
}

export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    const id = crypto.randomUUID();
    let status = 500;
    try {
      await next();
      status = c.res.status;
    } finally {
      c.header(REQUEST_ID_HEADER, id);
      const fromPath = REFERENCE.exec(new URL(c.req.url).pathname)?.[0];
      logRequest({
        started,
        id,
        method: c.req.method,
        route: routePath(c, -1) || c.req.routePath,
        status,
        reference: c.get('reference') ?? fromPath,
      });
    }
  };
}

/**
 * The route a page request is logged under: the on-demand pages by their path (never the query,
 * which may carry a token or an e-mail), product pages and uploads by their pattern, and any other
 * path as '(no page)': a mistyped URL can hold anything.
 */
const PAGE_ROUTES = new Set([
  '/',
  '/products',
  '/cart',
  '/cart/add',
  '/newsletter/confirm',
  '/newsletter/subscribe',
  '/newsletter/unsubscribe',
]);
export function pageRoute(pathname: string): string {
  if (PAGE_ROUTES.has(pathname)) return pathname;
  if (/^\/product\/[^/]+\/?$/.test(pathname)) return '/product/:id';
  if (pathname.startsWith('/images/uploads/')) return '/images/uploads/:file';
  return '(no page)';
}

/**
 * A page request the Worker answered (functions/worker.ts): its log line, its id in the
 * `x-request-id` header, and on an error page (HTML, 4xx or 5xx) the same id written into the
 * page's `[data-request-id]` element, for a shopper to quote to support.
 */
export function finishPageRequest(
  request: Request,
  response: Response,
  { id, started }: { id: string; started: number },
): Response {
  logRequest({ started, id, method: request.method, route: pageRoute(new URL(request.url).pathname), status: response.status });
  const answered = new Response(response.body, response);
  answered.headers.set(REQUEST_ID_HEADER, id);
  return withRequestIdOnErrorPage(answered, id);
}

/**
 * Writes the request id into an HTML error page: the text of its `[data-request-id]` elements,
 * and shows the `[data-request-ref]` ones (hidden in the page as built). Other answers are unchanged.
 */
export function withRequestIdOnErrorPage(response: Response, id: string): Response {
  if (response.status < 400 || !response.headers.get('content-type')?.startsWith('text/html')) return response;
  return new HTMLRewriter()
    .on('[data-request-id]', {
      element(element) {
        element.setInnerContent(id);
      },
    })
    .on('[data-request-ref]', {
      element(element) {
        element.removeAttribute('hidden');
      },
    })
    .transform(response);
}

/** One JSON line for something the Worker did on its own (the cron): what it was and its counts. */
export function logJob(kind: string, facts: Record<string, unknown>) {
  console.log(JSON.stringify({ at: new Date().toISOString(), kind, ...facts }));
}
