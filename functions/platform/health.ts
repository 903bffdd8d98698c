import { sql } from 'drizzle-orm';
import { createRouter } from './app.ts';

export const health = createRouter().get('/', async (c) => {
  const started = Date.now();
  await c.var.db.run(sql`select 1`);
  return c.json({ status: 'ok', database: 'ok', databaseMs: Date.now() - started, time: new Date().toISOString() });
});
