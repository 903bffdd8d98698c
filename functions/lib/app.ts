import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import { openDb, type Db } from '../db/client.ts';
import { readConfig, type Config } from '../env.ts';
import { ApiError, handleError, handleNotFound } from './errors.ts';

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
  app.use(secureHeaders());
  // JSON bodies need a CORS preflight cross-origin; csrf() also refuses cross-site form posts.
  app.use(csrf());
  app.use(
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new ApiError(413, 'payload_too_large', 'The request body is larger than 64 KB.');
      },
    }),
  );
  app.use(async (c, next) => {
    c.set('config', readConfig(c.env));
    c.set('db', openDb(c.env.DB));
    await next();
  });
  return app;
}
