import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import type { Endpoint } from '../../src/lib/api-contract.ts';
import { openDb, type Db } from './db.ts';
import { concatBytes } from './bytes.ts';
import { drainReader } from './drain.ts';
import { carryBookmark, openSession } from './d1-session.ts';
import { requestLog } from './request-log.ts';
import { readConfig, type Config } from '../env.ts';
import { ApiError, handleError, handleNotFound } from './errors.ts';
import { API_BASE } from './routing.ts';
import { API_CSP, OPENER_POLICY, PAGE_SECURITY_HEADERS } from './security-headers.ts';

/** What the API's routes ask of the shared middleware (functions/index.ts names them). */
export interface AppOptions {
  /**
   * The routes that read a body over 64 KB, each with its own limit counted as it streams (an
   * admin's image upload, a trade-in request with its photos).
   */
  largeUploads?: readonly Endpoint[];
  /**
   * Writes that other sites may send on purpose (a mailbox provider's RFC 8058 one-click
   * unsubscribe comes from its own servers or webmail): their authority is a signed token in
   * the URL, not a cookie, so a forged one acts only on what the token was made for.
   */
  crossSiteWrites?: readonly Endpoint[];
}

/** The body types a page on another site can send without a CORS preflight (an HTML form's enctypes). */
const FORM_BODY = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/**
 * Every request that can change something (any method but GET, HEAD, OPTIONS) must come from
 * the store's own pages, whatever route it is for: a browser says where a request comes from
 * in Origin (sent with every non-GET fetch and form post) and Sec-Fetch-Site. Refused with 403:
 * another site's Origin (`null` from a sandboxed frame too); Sec-Fetch-Site `cross-site` or
 * `same-site` (a sibling subdomain is another site here); and, when the browser sent neither,
 * a body an HTML form could send. A JSON body with neither header is let through: no browser
 * sends that cross-site (it would need a CORS preflight, which this API never grants), and it is
 * what scripts and the API tests send. Before the body limit and the routes, so nothing is read.
 */
const refuseCrossSiteWrites =
  (crossSiteWrites: readonly string[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || crossSiteWrites.includes(c.req.path)) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const foreignOrigin = origin !== undefined && origin !== new URL(c.req.url).origin;
    const foreignSite = site === 'cross-site' || site === 'same-site';
    const unmarkedForm =
      origin === undefined && site === undefined && FORM_BODY.test(c.req.header('content-type') ?? 'text/plain');
    if (foreignOrigin || foreignSite || unmarkedForm)
      throw new ApiError(403, 'forbidden', 'This request must come from the store’s own pages.');
    await next();
  };

export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Db;
    config: Config;
    /** The request's D1 session (functions/platform/d1-session.ts); `db` runs in it. */
    d1: D1DatabaseSession;
    /** The order or trade-in the request concerned, for its log line (functions/platform/request-log.ts). */
    reference?: string;
  };
}

/**
 * A body limit that answers a body which stops arriving (a phone that lost its connection
 * mid-request) as the sender's mistake: 400 `body_interrupted`, not a 500 logged as ours. A body
 * with no Content-Length is read whole by the limit before the route runs, so a stream that fails
 * fails there; an error after the route was reached is the route's and passes through.
 */
function refuseInterruptedBody(limit: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    let reachedRoute = false;
    try {
      await limit(c, async () => {
        reachedRoute = true;
        await next();
      });
    } catch (error) {
      if (reachedRoute || error instanceof ApiError || error instanceof HTTPException) throw error;
      throw new ApiError(400, 'body_interrupted', BODY_INTERRUPTED, [{ field: '(body)', message: BODY_INTERRUPTED }]);
    }
  };
}

/** The most an API request's body may hold, but for the uploads (AppOptions.largeUploads). */
const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The API's limit on a request body (Hono's bodyLimit, but the body is never left half read): one
 * whose Content-Length is over the limit is refused before it is read; one sent in chunks, with
 * no length, is read up to the limit and handed on whole. Past the limit the rest is drained
 * (bounded: functions/platform/drain.ts) before the 413. Hono's own limit left such a body locked
 * and half read, which functions/worker.ts cannot drain, and `wrangler dev` then lost the next
 * request on the connection (500 "Network connection lost", cloudflare/workers-sdk#5095).
 */
function jsonBodyLimit(maxBytes: number): MiddlewareHandler {
  const tooLarge = () => new ApiError(413, 'payload_too_large', `The request body is larger than ${maxBytes / 1024} KB.`);
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    if (raw.headers.has('content-length') && !raw.headers.has('transfer-encoding')) {
      if (Number.parseInt(raw.headers.get('content-length') ?? '0', 10) > maxBytes) throw tooLarge();
      return next();
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await drainReader(reader, size);
        throw tooLarge();
      }
      chunks.push(value);
    }
    c.req.raw = new Request(raw, { body: concatBytes(chunks, size) });
    return next();
  };
}

const BODY_INTERRUPTED = 'The request stopped arriving before its end (the connection was lost): please send it again.';

/** A Hono app with the API's shared middleware and its one error shape. */
export function createRouter() {
  return new Hono<AppEnv>();
}

export function createApp({ largeUploads = [], crossSiteWrites = [] }: AppOptions = {}) {
  const largeUploadPaths = largeUploads.map((e) => e.path as string);
  const app = new Hono<AppEnv>().basePath(API_BASE);
  app.onError(handleError);
  app.notFound(handleNotFound);
  // First, so it times and sees every answer, refusals and errors included (functions/platform/request-log.ts).
  app.use(requestLog());
  // The pages' headers (functions/platform/security-headers.ts), and a CSP under which an answer
  // opened in a tab loads and runs nothing. HSTS is added by the Worker, over https only.
  app.use(
    secureHeaders({
      contentSecurityPolicy: API_CSP,
      xContentTypeOptions: PAGE_SECURITY_HEADERS['X-Content-Type-Options'],
      referrerPolicy: PAGE_SECURITY_HEADERS['Referrer-Policy'],
      xFrameOptions: PAGE_SECURITY_HEADERS['X-Frame-Options'],
      crossOriginOpenerPolicy: OPENER_POLICY['Cross-Origin-Opener-Policy'],
      strictTransportSecurity: false,
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.header('Permissions-Policy', PAGE_SECURITY_HEADERS['Permissions-Policy']);
  });
  app.use(refuseCrossSiteWrites(crossSiteWrites.map((e) => e.path as string)));
  // Uploads are larger: their handlers count the bytes as they stream and stop at their own
  // limit. Exact method and path, so nothing else escapes this one.
  const jsonBody = refuseInterruptedBody(jsonBodyLimit(JSON_BODY_LIMIT_BYTES));
  app.use((c, next) => (c.req.method === 'POST' && largeUploadPaths.includes(c.req.path) ? next() : jsonBody(c, next)));
  app.use(async (c, next) => {
    c.set('config', readConfig(c.env));
    // One D1 session per request: reads from the nearest replica that has what this browser
    // last saw; writes and the admin's screens from the primary (functions/platform/d1-session.ts).
    const session = openSession(c.env.DB, c, {
      primary: c.req.method !== 'GET' || c.req.path.startsWith(`${API_BASE}/admin/`),
    });
    c.set('d1', session);
    c.set('db', openDb(session));
    await next();
    carryBookmark(c, session);
  });
  return app;
}
