import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './app.ts';

/**
 * One JSON line per API request, for an operator reading Workers Logs (wrangler.toml
 * [observability]): when, the request id (also in the `x-request-id` answer header, so a
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
      const noted = c.get('reference');
      const line: Record<string, unknown> = {
        at: new Date(started).toISOString(),
        kind: 'request',
        id,
        method: c.req.method,
        route: routePath(c, -1) || c.req.routePath,
        status,
        ms: Date.now() - started,
      };
      const reference = noted ?? fromPath;
      if (reference) line.reference = reference;
      console.log(JSON.stringify(line));
    }
  };
}

/** One JSON line for something the Worker did on its own (the cron): what it was and its counts. */
export function logJob(kind: string, facts: Record<string, unknown>) {
  console.log(JSON.stringify({ at: new Date().toISOString(), kind, ...facts }));
}
