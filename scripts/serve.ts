/**
 * Serves the built store in workerd on its own port and its own local D1, migrated
 * and seeded: used by the browser tests and the benchmark so they never touch the
 * development database or port 8787. Needs `npm run build` first.
 *
 *   PORT=8799 D1_PERSIST_DIR=.wrangler/e2e FRESH_DB=1 node scripts/serve.ts
 *
 * PORTS=8801,8802 instead starts one server per port, each with its own copy of the D1
 * (migrated and seeded once, then copied) and of the build, so that no server sees what a
 * test did on another: the browser tests run one per Playwright worker. Server i keeps its
 * state in `<D1_PERSIST_DIR>/<i>` (its D1, persisted there as `--persist-to` does) and serves
 * its copy of the build from `<D1_PERSIST_DIR>/<i>/build` (tests/e2e/d1.ts finds them there).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';

// The project's wrangler on this same Node (22), also when run outside `npm run`,
// where `wrangler` on PATH would start on the system's Node 20 and refuse.
const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

// Every test and benchmark request comes from 127.0.0.1: the per-client rate limits
// (functions/platform/rate-limit.ts) are raised here so they measure the store, not the limiter.
// tests/api/rate-limit.test.ts covers the limiter itself.
const LOCAL_ONLY_VARS = [
  ...[
    'RATE_LIMIT_PLACE_ORDER:1000/60',
    'RATE_LIMIT_PAYMENT_REPORT:1000/60',
    'RATE_LIMIT_LOOKUP:1000/60',
    'RATE_LIMIT_QUOTE:10000/60',
  ].flatMap((v) => ['--var', v]),
  ...[
    'RATE_LIMIT_SIGN_IN_CLIENT:1000/60',
    'RATE_LIMIT_SIGN_IN_EMAIL:1000/60',
    'RATE_LIMIT_ACCOUNT_EMAIL:1000/60',
    'RATE_LIMIT_EMAIL_RECIPIENT:1000/60',
    'RATE_LIMIT_NEWSLETTER:1000/60',
    // Hoarding limits (functions/orders/limits.ts): the browser tests place many orders with one
    // shopper's details; tests/api/ covers the limits themselves.
    'MAX_UNPAID_UNITS_PER_CONTACT:100000',
    'MAX_UNPAID_SHARE_PER_PRODUCT:1',
  ].flatMap((v) => ['--var', v]),
  // A fixed, non-secret session key for local test servers only (production: `wrangler secret put AUTH_SECRET`).
  '--var',
  'AUTH_SECRET:local-dev-only-auth-secret-not-for-production-0123456789',
];

const persist = process.env.D1_PERSIST_DIR ?? '.wrangler/state';
const buildDir = process.env.BUILD_DIR ?? 'dist';
const ports = process.env.PORTS?.split(',').filter(Boolean);
// X_LOCAL_EXPLORER: wrangler's local explorer API (on by default), through which the browser
// tests' `db` fixture runs SQL on a server's D1 (tests/e2e/d1.ts). Only `wrangler dev` has it.
const baseEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  X_LOCAL_EXPLORER: 'true',
};

/** Migrates and seeds the local D1 in `dir` (two wrangler runs: seconds each). */
function setUpD1(dir: string) {
  execFileSync('npm', ['run', '--silent', 'db:setup'], { env: { ...baseEnv, D1_PERSIST_DIR: dir }, stdio: 'inherit' });
}

function serve(port: string, d1Dir: string, build: string): ChildProcess {
  return spawn(
    WRANGLER[0],
    [
      WRANGLER[1],
      'dev',
      '--config',
      `${build}/server/wrangler.json`,
      '--persist-to',
      d1Dir,
      '--port',
      port,
      '--ip',
      '127.0.0.1',
      // Devtools on any free port: the default picks the first free one from 9229, which two
      // wranglers starting together (several test servers, another checkout's) both take.
      '--inspector-port',
      '0',
      '--log-level',
      'warn',
      ...LOCAL_ONLY_VARS,
    ],
    { env: { ...baseEnv, D1_PERSIST_DIR: d1Dir }, stdio: 'inherit', detached: false },
  );
}

if (process.env.FRESH_DB) rmSync(persist, { recursive: true, force: true });
let servers: ChildProcess[];
if (ports) {
  // One migration and seed (wrangler is slow to start), copied to every server while none runs.
  const seeded = `${persist}/seeded`;
  setUpD1(seeded);
  servers = ports.map((port, index) => {
    const dir = `${persist}/${index}`;
    rmSync(dir, { recursive: true, force: true });
    cpSync(seeded, dir, { recursive: true });
    // Its own build too: a test may change a built file (the service-worker update test does).
    cpSync(buildDir, `${dir}/build`, { recursive: true });
    return serve(port, dir, `${dir}/build`);
  });
} else {
  setUpD1(persist);
  servers = [serve(process.env.PORT ?? '8787', persist, buildDir)];
}

const stop = () => {
  for (const server of servers) server.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// One server gone (a crash, or stopped): stop the others and leave with its code.
for (const server of servers) {
  server.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  });
}
