import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { openDb, type Db } from '../db/client.ts';
import { readConfig, type Config } from '../env.ts';
import { ApiError, handleError, handleNotFound } from './errors.ts';
import { API_CSP, PAGE_SECURITY_HEADERS } from './security-headers.ts';

/** The one route that reads a body over 64 KB (an admin's image upload), with its own limit. */
const IMAGE_UPLOAD_PATH = adminApi.uploadImage.path;

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
  // An image upload is larger: its handler counts the bytes as they stream and stops at 2 MB
  // (functions/admin/images.ts). Exact method and path, so nothing else escapes the limit.
  app.use((c, next) => (c.req.method === 'POST' && c.req.path === IMAGE_UPLOAD_PATH ? next() : jsonBodyLimit(c, next)));
  app.use(async (c, next) => {
    c.set('config', readConfig(c.env));
    c.set('db', openDb(c.env.DB));
    await next();
  });
  return app;
}
