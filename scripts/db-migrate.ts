/**
 * `npm run db:migrate`: applies this checkout's migrations to the local D1 in D1_PERSIST_DIR
 * (default .wrangler/state); a new database gets them all in one go (scripts/db/migrate-local.ts).
 */
import { migrateLocal } from './db/migrate-local.ts';

migrateLocal(process.env.D1_PERSIST_DIR ?? '.wrangler/state');
