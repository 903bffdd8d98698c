import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { openDb, type Db } from '../db/client.ts';
import { readConfig, type Config } from '../env.ts';
import { ApiError, handleError, handleNotFound } from './errors.ts';
import { API_CSP, PAGE_SECURITY_HEADERS } from './security-headers.ts';

/**
 * The routes that read a body over 64 KB, each with its own limit counted as it streams: an
 * admin's image upload (2 MB, functions/admin/images.ts) and a trade-in request with its
 * photos (functions/trade-ins/photos.ts).
 */
const LARGE_UPLOAD_PATHS: readonly string[] = [adminApi.uploadImage.path, tradeInApi.submit.path];

export interface AppEnv {
  Bindings: Env;
  Variables: { db: Db; config: Config };
}

/** A Hono app with the API's shared middleware and its one error shape. */
export function createRouter() {
  return new Hono<AppEnv>();
}

export function createApp() {
  const app = new Hono<AppEnv>().basePath('/api');
  app.onError(handleError);
  app.notFound(handleNotFound);
  // The pages' headers (functions/lib/security-headers.ts), and a CSP under which an answer
  // opened in a tab loads and runs nothing. HSTS is added by the Worker, over https only.
  app.use(
    secureHeaders({
      contentSecurityPolicy: API_CSP,
      xContentTypeOptions: PAGE_SECURITY_HEADERS['X-Content-Type-Options'],
      referrerPolicy: PAGE_SECURITY_HEADERS['Referrer-Policy'],
      xFrameOptions: PAGE_SECURITY_HEADERS['X-Frame-Options'],
      crossOriginOpenerPolicy: PAGE_SECURITY_HEADERS['Cross-Origin-Opener-Policy'],
      strictTransportSecurity: false,
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.header('Permissions-Policy', PAGE_SECURITY_HEADERS['Permissions-Policy']);
  });
  // JSON bodies need a CORS preflight cross-origin; csrf() also refuses cross-site form posts.
  app.use(csrf());
  const jsonBodyLimit = bodyLimit({
    maxSize: 64 * 1024,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', 'The request body is larger than 64 KB.');
    },
  });
  // Uploads are larger: their handlers count the bytes as they stream and stop at their own
  // limit. Exact method and path, so nothing else escapes this one.
  app.use((c, next) => (c.req.method === 'POST' && LARGE_UPLOAD_PATHS.includes(c.req.path) ? next() : jsonBodyLimit(c, next)));
  app.use(async (c, next) => {
    c.set('config', readConfig(c.env));
    c.set('db', openDb(c.env.DB));
    await next();
  });
  return app;
}
