import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { catalogueSeedSql } from './functions/catalogue/seed-rows.ts';
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
        // Admins' uploaded images (wrangler.toml's r2_buckets): a local bucket per test file.
        r2Buckets: ['IMAGES'],
        bindings: {
          SITE_URL: 'http://localhost:8787',
          // Rate limits far above what any test file sends (requests here carry no
          // cf-connecting-ip, so they share one client); tests of the limits set their own.
          RATE_LIMIT_PLACE_ORDER: '10000/60',
          RATE_LIMIT_PAYMENT_REPORT: '10000/60',
          RATE_LIMIT_LOOKUP: '10000/60',
          RATE_LIMIT_QUOTE: '10000/60',
          RATE_LIMIT_SIGN_IN_EMAIL: '10000/60',
          RATE_LIMIT_SIGN_IN_CLIENT: '10000/60',
          RATE_LIMIT_ACCOUNT_EMAIL: '10000/60',
          RATE_LIMIT_SIGN_IN_PAIR: '10000/60',
          RATE_LIMIT_EMAIL_RECIPIENT: '10000/60',
          RATE_LIMIT_NEWSLETTER: '10000/60',
          // Hoarding limits out of the way of the tests that place many orders; their own tests set them.
          MAX_UNPAID_UNITS_PER_CONTACT: '100000',
          MAX_UNPAID_SHARE_PER_PRODUCT: '1',
          // A fixed, non-secret value for tests only; production sets AUTH_SECRET with `wrangler secret put`.
          AUTH_SECRET: 'local-test-only-auth-secret-not-for-production-0123456789',
          // The property tests' seed (tests/api/hostile.ts): set FC_SEED to replay a failing run.
          FC_SEED: process.env.FC_SEED ?? '',
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
          TEST_SEED: catalogueSeedSql(readCatalogueFromDisk()),
        },
      },
    })),
  ],
  test: {
    name: 'api',
    // Each file runs in its own workerd with its own D1, so files run side by side: two at a
    // time on a 2-core machine took the suite from 116 s to 82 s.
    maxWorkers: 2,
    // `npm test` runs these beside the type checks, the build and the browser tests: a test that
    // sends 25 checkouts at once took 0.3 s alone and over 3 s on the loaded machine.
    testTimeout: 20_000,
    include: ['tests/api/**/*.test.ts'],
    setupFiles: ['./tests/api/setup.ts'],
  },
});
