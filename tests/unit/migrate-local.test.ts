import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { queryEach } from '../../scripts/db/d1.ts';
import { isNewDatabase, migrateLocal, repositoryMigrations } from '../../scripts/db/migrate-local.ts';

/**
 * `npm run db:migrate` gives a new local D1 every migration in one `wrangler d1 execute`
 * (scripts/db/migrate-local.ts): the same database as Wrangler's own apply, one migration at a
 * time, would build, and one Wrangler then sees as migrated.
 */
const FAST = `.wrangler/migrate-test-fast-${process.pid}`;
const WRANGLER = `.wrangler/migrate-test-wrangler-${process.pid}`;

afterAll(() => {
  for (const path of [FAST, WRANGLER]) rmSync(path, { recursive: true, force: true });
});

/** Every table, index, trigger and view with its SQL, and the migrations recorded, in one wrangler call. */
function schemaOf(persistDir: string) {
  const [schema, migrations] = queryEach({ remote: false, persistDir }, [
    "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE '_cf_%' ORDER BY type, name",
    'SELECT id, name FROM d1_migrations ORDER BY id',
  ]);
  return { schema: schema ?? [], migrations: migrations ?? [] };
}

describe('migrating a new local D1', () => {
  it('builds what Wrangler’s apply builds, in one go, and Wrangler then finds nothing to apply', () => {
    expect(isNewDatabase(FAST)).toBe(true);
    migrateLocal(FAST);
    expect(isNewDatabase(FAST)).toBe(false);
    migrateLocal(WRANGLER, { wranglerOnly: true });

    const fast = schemaOf(FAST);
    const wrangler = schemaOf(WRANGLER);
    expect(fast.migrations.map((m) => m.name)).toEqual(repositoryMigrations());
    expect(fast.migrations).toEqual(wrangler.migrations);
    expect(fast.schema.length).toBeGreaterThan(30);
    expect(fast.schema).toEqual(wrangler.schema);
    expect(fast.schema.map((s) => s.name)).toEqual(expect.arrayContaining(['products', 'orders', 'products_fts']));

    // The database now exists: the next run is Wrangler's apply, which has nothing to do.
    migrateLocal(FAST);
    expect(schemaOf(FAST)).toEqual(fast);
  }, 600_000);
});
