/**
 * Adds generated products (scripts/product-generator.ts) to a local D1, in batches, the way
 * the seed adds the catalogue: for the benchmark's scale run and for trying the store with a
 * big catalogue. The FTS triggers index them as they are inserted.
 *
 *   D1_PERSIST_DIR=.wrangler/bench-scale node scripts/generate-products.ts --count 10000
 *
 * The database must be migrated first (`npm run db:setup` with the same D1_PERSIST_DIR).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { catalogueSeedSql } from '../functions/catalogue/seed-rows.ts';
import { generateProducts } from './product-generator.ts';

const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

const count = option('count', 10_000);
const batch = option('batch', 5_000);
const seed = option('seed', 2026);
const persist = process.env.D1_PERSIST_DIR ?? '.wrangler/state';
const products = generateProducts(count, { seed, prefix: 'generated' });

mkdirSync('.wrangler', { recursive: true });
const file = `.wrangler/generated-products-${process.pid}.sql`;
const started = Date.now();
try {
  for (let i = 0; i < products.length; i += batch) {
    // One file per batch: each `d1 execute --file` runs in one transaction.
    writeFileSync(file, catalogueSeedSql(products.slice(i, i + batch)).join('\n'));
    execFileSync(
      WRANGLER[0],
      [WRANGLER[1], 'd1', 'execute', 'DB', '--local', '--config', 'wrangler.toml', '--persist-to', persist, '--file', file],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      },
    );
    process.stderr.write(`generated products: ${Math.min(i + batch, products.length)}/${products.length}\r`);
  }
} finally {
  rmSync(file, { force: true });
}
process.stderr.write('\n');
console.log(
  `Added ${products.length} generated products to the local D1 in ${persist} (${((Date.now() - started) / 1000).toFixed(1)} s).`,
);
