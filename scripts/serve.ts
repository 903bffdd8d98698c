/**
 * Serves the built store in workerd on its own port and its own local D1, migrated
 * and seeded: used by the browser tests and the benchmark so they never touch the
 * development database or port 8787. Needs `npm run build` first.
 *
 *   PORT=8799 D1_PERSIST_DIR=.wrangler/e2e FRESH_DB=1 node scripts/serve.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

// The project's wrangler on this same Node (22), also when run outside `npm run`,
// where `wrangler` on PATH would start on the system's Node 20 and refuse.
const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

// Every test and benchmark request comes from 127.0.0.1: the per-client rate limits
// (functions/lib/rate-limit.ts) are raised here so they measure the store, not the limiter.
// tests/api/rate-limit.test.ts covers the limiter itself.
const LOCAL_ONLY_VARS = [
  ...[
    'RATE_LIMIT_PLACE_ORDER:1000/60',
    'RATE_LIMIT_PAYMENT_REPORT:1000/60',
    'RATE_LIMIT_LOOKUP:1000/60',
    'RATE_LIMIT_QUOTE:10000/60',
  ].flatMap((v) => ['--var', v]),
  ...['RATE_LIMIT_SIGN_IN_CLIENT:1000/60', 'RATE_LIMIT_ACCOUNT_EMAIL:1000/60'].flatMap((v) => ['--var', v]),
  // A fixed, non-secret session key for local test servers only (production: `wrangler secret put AUTH_SECRET`).
  '--var',
  'AUTH_SECRET:local-dev-only-auth-secret-not-for-production-0123456789',
];

const port = process.env.PORT ?? '8787';
const persist = process.env.D1_PERSIST_DIR ?? '.wrangler/state';
const env = { ...process.env, D1_PERSIST_DIR: persist, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

if (process.env.FRESH_DB) rmSync(persist, { recursive: true, force: true });
execFileSync('npm', ['run', '--silent', 'db:setup'], { env, stdio: 'inherit' });

const server = spawn(
  WRANGLER[0],
  [
    WRANGLER[1],
    'dev',
    '--config',
    `${process.env.BUILD_DIR ?? 'dist'}/server/wrangler.json`,
    '--persist-to',
    persist,
    '--port',
    port,
    '--ip',
    '127.0.0.1',
    '--log-level',
    'warn',
    ...LOCAL_ONLY_VARS,
  ],
  { env, stdio: 'inherit', detached: false },
);
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
