import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { catalogueSeedSql } from './functions/db/seed.ts';
import { readCatalogueFromDisk } from './scripts/catalogue-files.ts';

// The API through the real Hono app inside workerd, each test file with its own
// local D1, migrated from migrations/ and seeded from the catalogue data files.
export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      main: './functions/index.ts',
      miniflare: {
        compatibilityDate: '2026-10-12',
        compatibilityFlags: ['nodejs_compat'],
        d1Databases: ['DB'],
        bindings: {
          SITE_URL: 'http://localhost:8787',
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
          TEST_SEED: catalogueSeedSql(readCatalogueFromDisk()),
        },
      },
    })),
  ],
  test: {
    name: 'api',
    include: ['tests/api/**/*.test.ts'],
    setupFiles: ['./tests/api/setup.ts'],
  },
});
