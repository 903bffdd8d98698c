/**
 * Loads the catalogue into the local D1: `npm run db:seed` (new products only) or
 * `npm run db:seed -- --reset` (the data files overwrite catalogue products).
 * D1_PERSIST_DIR points it at another local database (the browser tests use one).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hashPassword } from '../functions/accounts/password.ts';
import { catalogueSeedSql } from '../functions/catalogue/seed-rows.ts';
import { readCatalogueFromDisk } from './catalogue-files.ts';

// The project's wrangler on this same Node (22), also when run outside `npm run`,
// where `wrangler` on PATH would start on the system's Node 20 and refuse.
const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

const reset = process.argv.includes('--reset');
const products = readCatalogueFromDisk();
mkdirSync('.wrangler', { recursive: true });
const file = '.wrangler/seed.sql';

/**
 * LOCAL DEVELOPMENT ONLY: one admin account, so the admin pages can be tried at once. This
 * script only ever writes the local D1 (`--local`); migrations and production never hold it.
 * An existing account with this address is made admin again but keeps its password.
 */
const LOCAL_ADMIN = { email: 'admin@gts.local', password: 'gts-local-admin-2026' } as const;
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;
const adminSql = `INSERT INTO users (id, email, name, role, password_hash, email_verified) VALUES (${sqlText(crypto.randomUUID())}, ${sqlText(LOCAL_ADMIN.email)}, 'Local Admin', 'admin', ${sqlText(await hashPassword(LOCAL_ADMIN.password))}, ${Date.now()}) ON CONFLICT(email) DO UPDATE SET role = 'admin';`;

writeFileSync(file, [...catalogueSeedSql(products, { reset }), adminSql].join('\n'));

const persist = ['--persist-to', process.env.D1_PERSIST_DIR ?? '.wrangler/state'];
execFileSync(
  WRANGLER[0],
  [WRANGLER[1], 'd1', 'execute', 'DB', '--local', '--config', 'wrangler.toml', '--file', file, ...persist],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  },
);
console.log(`Seeded ${products.length} catalogue products into the local D1${reset ? ' (reset)' : ''}.`);
console.log(`Local admin (this machine's D1 only): ${LOCAL_ADMIN.email} / ${LOCAL_ADMIN.password}`);
