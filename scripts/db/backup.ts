/**
 * Backups of the store's D1 (issue 25): a dated SQL file of every row of every table the store
 * writes, and a restore of one into a fresh local D1. Used by `npm run db:backup` and
 * `npm run db:restore` (scripts/db-backup.ts, scripts/db-restore.ts) and by
 * tests/unit/backup.test.ts, which backs up, wipes, restores and compares.
 *
 * Why not `wrangler d1 export`: it refuses a database with an FTS5 table (ours: the search
 * index; cloudflare/workers-sdk#6305). So the backup reads the tables with SELECTs through
 * `wrangler d1 execute` (local or --remote) and writes INSERTs. Derived tables are left out and
 * rebuilt on restore by the same triggers that keep them: the search index (products_fts) and
 * the kept counts (product_facets) follow the products as they are inserted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { query, queryEach, runFile, type Target } from './d1.ts';
import { migrateLocal, repositoryMigrations } from './migrate-local.ts';

/** Tables the triggers rebuild from the products (never backed up: restoring them would count twice). */
const DERIVED = /^(products_fts.*|product_facets)$/;
/** SQLite's, D1's and the migrations' own bookkeeping (the restore applies the migrations itself). */
const INTERNAL = /^(sqlite_.*|_cf_.*|d1_migrations)$/;
const PAGE = 2000;

/** The tables a backup holds, parents before children (the order migrations created them in). */
export function backedUpTables(target: Target): string[] {
  return tablesIn(query(target, TABLES));
}
const TABLES = "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid";
const tablesIn = (rows: Record<string, unknown>[]) =>
  rows.map((t) => String(t.name)).filter((name) => !DERIVED.test(name) && !INTERNAL.test(name));

const literal = (value: unknown): string =>
  value === null || value === undefined
    ? 'NULL'
    : typeof value === 'number'
      ? String(value)
      : typeof value === 'boolean'
        ? value
          ? '1'
          : '0'
        : `'${String(value).replaceAll("'", "''")}'`;

/** The migrations the database has, oldest first. */
const MIGRATIONS = 'SELECT name FROM d1_migrations ORDER BY id';

/** Writes a backup of `target` into `file`; answers the rows per table. */
export function backup(target: Target, file: string): Record<string, number> {
  // The migrations and the tables in one wrangler call (each call starts wrangler: seconds).
  const [migrationRows = [], tableRows = []] = queryEach(target, [MIGRATIONS, TABLES]);
  const migrations = migrationRows.map((m) => String(m.name));
  const counts: Record<string, number> = {};
  const out: string[] = [
    `-- GTS D1 backup, ${new Date().toISOString()}, ${target.remote ? 'remote' : `local (${target.persistDir})`}`,
    `-- migrations: ${migrations.at(-1) ?? 'none'}`,
    '-- Restore with `npm run db:restore -- <this file>` (scripts/db/backup.ts).',
    'PRAGMA defer_foreign_keys = on;',
  ];
  const tables = tablesIn(tableRows);
  const rowsOf = new Map<string, Record<string, unknown>[]>(tables.map((t) => [t, []]));
  // Every table's pages, a round of them per wrangler call, until each table's last page came.
  let open = tables;
  for (let offset = 0; open.length; offset += PAGE) {
    const pages = queryEach(
      target,
      open.map((table) => `SELECT * FROM "${table}" ORDER BY rowid LIMIT ${PAGE} OFFSET ${offset}`),
    );
    for (const [i, table] of open.entries()) rowsOf.get(table)!.push(...(pages[i] ?? []));
    open = open.filter((_, i) => (pages[i]?.length ?? 0) === PAGE);
  }
  for (const table of tables) {
    const rows = rowsOf.get(table)!;
    for (const row of rows) {
      const columns = Object.keys(row);
      out.push(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => literal(row[c])).join(', ')});`,
      );
    }
    counts[table] = rows.length;
  }
  mkdirSync(file.replace(/\/[^/]+$/, '') || '.', { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`);
  return counts;
}

/** The migration a backup file was taken at (its header). */
export function backupMigration(file: string): string | undefined {
  return /^-- migrations: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
}

/**
 * Loads a backup into a fresh local D1 in `persistDir`: migrates it (refusing a backup taken at a
 * migration this checkout does not have), then runs the file; the triggers rebuild the search
 * index and the kept counts as the products go in.
 */
export function restore(file: string, persistDir: string) {
  const at = backupMigration(file);
  if (at && at !== 'none' && !repositoryMigrations().includes(at)) {
    throw new Error(`${file} was taken at migration ${at}, which this checkout does not have: update the checkout first.`);
  }
  migrateLocal(persistDir);
  runFile({ remote: false, persistDir }, file);
}
