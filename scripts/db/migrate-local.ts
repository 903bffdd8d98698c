/**
 * Migrates a local D1: `npm run db:migrate` (scripts/db-migrate.ts, so `npm start` and the tests'
 * databases) and a restore (backup.ts).
 *
 * A database that already exists is migrated by `wrangler d1 migrations apply --local`, as
 * always. A new one gets every migration in one `wrangler d1 execute --file`: Wrangler's own
 * apply starts a local D1 (workerd) for each migration, about a second each (22 s for 23
 * migrations here, several times that on a busy CI machine, and every test database starts
 * new). The file is what Wrangler would run, in the same order: its migrations table, created
 * as Wrangler creates it, then each migration followed by the row naming it, so Wrangler (and
 * this script) sees them applied afterwards. One difference: the whole file is one batch, so a
 * migration that fails leaves a new database empty rather than half-migrated. The deployed
 * database is always migrated by Wrangler (`npm run deploy`).
 * tests/unit/migrate-local.test.ts compares the two ways' schemas.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFile, WRANGLER } from './d1.ts';

/** The migrations in this checkout, in order (wrangler.toml's migrations_dir). */
export function repositoryMigrations(): string[] {
  return readdirSync('migrations')
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** Wrangler's default migrations table, and its CREATE as Wrangler writes it (getCreateMigrationsTableQuery). */
const MIGRATIONS_TABLE = 'd1_migrations';
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/** Whether `persistDir` holds no local D1 yet (Wrangler keeps them under v3/d1). */
export const isNewDatabase = (persistDir: string) => !existsSync(join(persistDir, 'v3', 'd1'));

/** Every migration in this checkout, each followed by its row in the migrations table (buildMigrationQuery). */
export function allMigrationsSql(): string {
  return [
    CREATE_MIGRATIONS_TABLE,
    ...repositoryMigrations().map(
      (name) =>
        `${readFileSync(join('migrations', name), 'utf8')}\nINSERT INTO "${MIGRATIONS_TABLE}" (name)\nvalues ('${name.replaceAll("'", "''")}');`,
    ),
  ].join('\n');
}

/** Migrates the local D1 in `persistDir`: one file for a new database, Wrangler's apply for one that exists. */
export function migrateLocal(persistDir: string, { wranglerOnly = false } = {}) {
  if (!wranglerOnly && isNewDatabase(persistDir)) {
    mkdirSync(persistDir, { recursive: true });
    const file = join(persistDir, 'all-migrations.sql');
    writeFileSync(file, allMigrationsSql());
    try {
      runFile({ remote: false, persistDir }, file);
    } catch (error) {
      // Nothing half-written is left to look like a migrated database.
      rmSync(join(persistDir, 'v3', 'd1'), { recursive: true, force: true });
      throw error;
    } finally {
      rmSync(file, { force: true });
    }
    console.log(`Applied ${repositoryMigrations().length} migrations to a new local D1 in ${persistDir}.`);
    return;
  }
  execFileSync(
    WRANGLER[0],
    [WRANGLER[1], 'd1', 'migrations', 'apply', 'DB', '--local', '--config', 'wrangler.toml', '--persist-to', persistDir],
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
}
