import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { backedUpTables, backup, restore } from '../../scripts/db/backup.ts';
import { queryEach } from '../../scripts/db/d1.ts';

/**
 * `npm run db:backup` and `npm run db:restore` end to end on a local D1 (scripts/db/backup.ts):
 * a migrated, seeded database with an order, a review-less user and edited stock is backed up,
 * wiped, restored into a fresh folder, and compared table by table, row for row where it matters,
 * derived tables (the search index, the kept counts) included.
 */
const SOURCE = `.wrangler/backup-test-source-${process.pid}`;
const RESTORED = `.wrangler/backup-test-restored-${process.pid}`;
const FILE = `.wrangler/backup-test-${process.pid}.sql`;
const source = { remote: false, persistDir: SOURCE };
const restored = { remote: false, persistDir: RESTORED };

afterAll(() => {
  for (const path of [SOURCE, RESTORED, FILE]) rmSync(path, { recursive: true, force: true });
});

/** The rows that must come back unchanged: an edited product, the order, the kept counts. */
const RESTORED_ROWS = [
  "SELECT * FROM products WHERE id = 'anker-735-charger-ganprime-65w'",
  "SELECT * FROM orders WHERE id = 'o-1'",
  'SELECT * FROM product_facets WHERE products > 0 ORDER BY 1, 2, 3',
];

/** Every table's row count and the rows of `statements`, in one wrangler call. */
function snapshot(target: typeof source, tables: string[], statements: string[]) {
  const rows = queryEach(target, [...tables.map((t) => `SELECT count(*) AS n FROM "${t}"`), ...statements]);
  const counts = Object.fromEntries(tables.map((t, i) => [t, (rows[i]?.[0] as { n: number } | undefined)?.n]));
  return [counts, rows.slice(tables.length)] as const;
}

describe('backup and restore of the local D1', () => {
  it('restores every row of every table, and the search index and kept counts rebuild themselves', () => {
    execFileSync('npm', ['run', '--silent', 'db:setup'], {
      env: { ...process.env, D1_PERSIST_DIR: SOURCE, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // Data a store has beyond its seed: an order with a line and its history, a subscriber, an
    // admin's stock edit and an archived product, and text that needs quoting.
    queryEach(source, [
      `INSERT INTO orders (id, number, status, customer_name, email, phone, address, city, state, subtotal_kobo, shipping_kobo, total_kobo, idempotency_key_hash, request_hash, access_token_hash, expires_at)
       VALUES ('o-1', 'GTS-BACKUP0001', 'awaiting_payment', 'Ngozi O''Brien', 'ngozi@example.com', '+2348031234567', '3 Quote''s Lane', 'Ikeja', 'Lagos', 6450000, 150000, 6600000, 'k1', 'r1', 't1', unixepoch() + 3600)`,
      `INSERT INTO order_lines (order_id, product_id, name, image, variant, variant_id, unit_price_kobo, quantity, line_total_kobo)
       VALUES ('o-1', 'anker-735-charger-ganprime-65w', 'Anker 735', '/images/x.webp', '', '', 6450000, 1, 6450000)`,
      `INSERT INTO order_events (order_id, from_status, to_status, actor) VALUES ('o-1', NULL, 'awaiting_payment', 'customer')`,
      `INSERT INTO newsletter_subscribers (email) VALUES ('reader@example.com')`,
      `UPDATE products SET stock = 7 WHERE id = 'anker-735-charger-ganprime-65w'`,
      `UPDATE products SET active = 0 WHERE id = (SELECT id FROM products WHERE id != 'anker-735-charger-ganprime-65w' ORDER BY id LIMIT 1)`,
    ]);
    const tables = backedUpTables(source);
    expect(tables).toEqual(expect.arrayContaining(['products', 'product_variants', 'orders', 'order_lines', 'users']));
    expect(tables).not.toContain('product_facets');
    expect(tables.some((t) => t.startsWith('products_fts'))).toBe(false);
    // One wrangler call for everything read before and one for everything after: each call
    // starts wrangler, seconds of CPU on a busy CI machine.
    const [before, [product, order, facets, archivedRows]] = snapshot(source, tables, [
      ...RESTORED_ROWS,
      'SELECT id FROM products WHERE active = 0',
    ]);
    const archived = String(archivedRows?.[0]?.id);

    const written = backup(source, FILE);
    expect(written.orders).toBe(before.orders);
    rmSync(SOURCE, { recursive: true, force: true });

    restore(FILE, RESTORED);
    // The search index answers from the restored products, the archived one left out.
    const found = (id: string) =>
      `SELECT count(*) AS n FROM products_fts WHERE products_fts MATCH (SELECT '"' || replace(name, '"', '') || '"' FROM products WHERE id = '${id}')`;
    const [after, [restoredProduct, restoredOrder, restoredFacets, foundKept, foundArchived]] = snapshot(restored, tables, [
      ...RESTORED_ROWS,
      found('anker-735-charger-ganprime-65w'),
      found(archived),
    ]);
    expect(after).toEqual(before);
    expect(restoredProduct).toEqual(product);
    expect(restoredOrder).toEqual(order);
    expect(restoredFacets).toEqual(facets);
    expect(foundKept).toEqual([{ n: 1 }]);
    expect(foundArchived).toEqual([{ n: 0 }]);
    // About 40 s alone, 49 s in a CI run of `npm test` beside the browser tests (before the one-go
    // migration, decision 029, and the fewer wrangler calls: 76 s alone, up to 728 s in CI).
  }, 900_000);
});
