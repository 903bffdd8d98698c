import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema.ts';

/**
 * Drizzle over D1, or over one request's D1 session (functions/platform/d1-session.ts): a
 * session answers the same prepare() and batch() drizzle calls.
 */
export function openDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Db = ReturnType<typeof openDb>;
