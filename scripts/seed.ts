/**
 * Brings the catalogue's data files into the local D1, field by field (scripts/catalogue/sync.ts):
 *   npm run db:seed                  new products added, changed fields applied, conflicts listed
 *   npm run db:seed -- --dry-run     only says what it would do
 *   npm run db:seed -- --reset       the data files overwrite every catalogue field (stock too)
 * D1_PERSIST_DIR points it at another local database (the browser tests use one).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hashPassword } from '../functions/accounts/password.ts';
import { catalogueSeedSql } from '../functions/catalogue/seed-rows.ts';
import { describeSync, planCatalogueSync, readD1Catalogue, recordAllSql, syncSql } from './catalogue/sync.ts';
import { readCatalogueFromDisk } from './catalogue-files.ts';
import { runFile, type Target } from './db/d1.ts';

const reset = process.argv.includes('--reset');
const dryRun = process.argv.includes('--dry-run');
const products = readCatalogueFromDisk();
const target: Target = { remote: false, persistDir: process.env.D1_PERSIST_DIR ?? '.wrangler/state' };

/**
 * LOCAL DEVELOPMENT ONLY: one admin account, so the admin pages can be tried at once. This
 * script only ever writes the local D1 (`--local`); migrations and production never hold it.
 * An existing account with this address is made admin again but keeps its password.
 */
const LOCAL_ADMIN = { email: 'admin@gts.local', password: 'gts-local-admin-2026' } as const;
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;
const adminSql = `INSERT INTO users (id, email, name, role, password_hash, email_verified) VALUES (${sqlText(crypto.randomUUID())}, ${sqlText(LOCAL_ADMIN.email)}, 'Local Admin', 'admin', ${sqlText(await hashPassword(LOCAL_ADMIN.password))}, ${Date.now()}) ON CONFLICT(email) DO UPDATE SET role = 'admin';`;

let statements: string[];
if (reset) {
  statements = [...catalogueSeedSql(products, { reset }), ...recordAllSql(products)];
  console.log(`The data files' ${products.length} products overwrite the local D1's (reset).`);
} else {
  const plan = planCatalogueSync(products, readD1Catalogue(target));
  statements = syncSql(plan);
  console.log(`Catalogue: ${products.length} products in src/data/products/ → the local D1${dryRun ? ' (dry run)' : ''}`);
  for (const line of describeSync(plan, { dryRun })) console.log(line);
}
if (!dryRun) {
  mkdirSync('.wrangler', { recursive: true });
  const file = '.wrangler/seed.sql';
  writeFileSync(file, [...statements, adminSql].join('\n'));
  runFile(target, file);
  console.log(`Local admin (this machine's D1 only): ${LOCAL_ADMIN.email} / ${LOCAL_ADMIN.password}`);
}
