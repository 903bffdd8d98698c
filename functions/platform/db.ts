import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema.ts';

export function openDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof openDb>;
