/**
 * The built store served locally: `wrangler dev` on the build's Worker, on a port of its own
 * and a local D1 of its own, migrated and seeded, so nothing touches the development database
 * or port 8787. The browser tests' servers (scripts/serve.ts) and the benchmark's
 * (scripts/bench.mjs) are both started and stopped here.
 */
import { type ChildProcess, execFileSync, type StdioOptions, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

// The project's wrangler on this same Node (22), also when run outside `npm run`,
// where `wrangler` on PATH would start on the system's Node 20 and refuse.
const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

// Every test and benchmark request comes from 127.0.0.1: the per-client rate limits
// (functions/platform/rate-limit.ts) are raised here so they measure the store, not the limiter.
// tests/api/rate-limit.test.ts covers the limiter itself.
const LOCAL_ONLY_VARS = [
  ...[
    'RATE_LIMIT_PLACE_ORDER:100000/60',
    'RATE_LIMIT_PAYMENT_REPORT:1000/60',
    'RATE_LIMIT_LOOKUP:1000/60',
    'RATE_LIMIT_LOOKUP_ORDER:1000/60',
    'RATE_LIMIT_QUOTE:10000/60',
    'RATE_LIMIT_TRADE_IN:1000/60',
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
  // Payments confirm themselves against the offline stand-in of Paystack (functions/payments/,
  // decision 023): each order gets its own account; `npm run pay` or POST /api/test/paystack/pay pays it.
  '--var',
  'PAYMENTS_STANDIN:true',
  // A fixed, non-secret session key for local test servers only (production: `wrangler secret put AUTH_SECRET`).
  '--var',
  'AUTH_SECRET:local-dev-only-auth-secret-not-for-production-0123456789',
];

// X_LOCAL_EXPLORER: wrangler's local explorer API (on by default), through which the browser
// tests' `db` fixture runs SQL on a server's D1 (tests/e2e/d1.ts). Only `wrangler dev` has it.
const TOOL_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  X_LOCAL_EXPLORER: 'true',
};

/**
 * Where the tools' output goes: `inherit` (the test server's own output) or `stderr` (the
 * benchmark keeps its standard output for the results).
 */
export type Output = 'inherit' | 'stderr';
const stdio = (output: Output): StdioOptions => (output === 'inherit' ? 'inherit' : ['ignore', process.stderr, process.stderr]);

/** Migrates and seeds the local D1 in `dir` (two wrangler runs: seconds each). */
export function setUpD1(dir: string, output: Output = 'inherit') {
  execFileSync('npm', ['run', '--silent', 'db:setup'], { env: { ...TOOL_ENV, D1_PERSIST_DIR: dir }, stdio: stdio(output) });
}

/** A free TCP port on 127.0.0.1, never 8787 (the development server's). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (port !== 8787) return port;
  }
}

export interface StoreServer {
  origin: string;
  /** The `wrangler dev` process. */
  process: ChildProcess;
  /** Resolves once /api/health answers 200; rejects when wrangler exits first or after `timeoutMs`. */
  untilHealthy(timeoutMs?: number): Promise<void>;
  /** Ends the server (SIGTERM, then SIGKILL after 5 s) and resolves once it has gone. */
  stop(): Promise<void>;
}

/**
 * Serves the build in `buildDir` with `wrangler dev` on 127.0.0.1:`port`, its D1 persisted in
 * `d1Dir` (set up with `setUpD1` first). With `ownProcessGroup`, wrangler and its workerd get a
 * process group of their own and `stop()` ends the whole group, so a benchmark leaves no workerd
 * behind; without it they stay in the caller's group, which whoever started the caller ends
 * (Playwright ends its web server's group).
 */
export function startStore({
  port,
  d1Dir,
  buildDir,
  output = 'inherit',
  ownProcessGroup = false,
}: {
  port: number | string;
  d1Dir: string;
  buildDir: string;
  output?: Output;
  ownProcessGroup?: boolean;
}): StoreServer {
  const child = spawn(
    WRANGLER[0],
    [
      WRANGLER[1],
      'dev',
      '--config',
      `${buildDir}/server/wrangler.json`,
      '--persist-to',
      d1Dir,
      '--port',
      String(port),
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
    { env: { ...TOOL_ENV, D1_PERSIST_DIR: d1Dir }, stdio: stdio(output), detached: ownProcessGroup },
  );
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;

  const signal = (name: NodeJS.Signals) => {
    try {
      if (ownProcessGroup && child.pid) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  /** Whether anything of the server is left: the group (workerd may outlive wrangler) or the process. */
  const alive = () => {
    if (!ownProcessGroup || !child.pid) return !gone();
    try {
      process.kill(-child.pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  async function stop() {
    if (!alive()) return;
    signal('SIGTERM');
    for (let i = 0; i < 50 && alive(); i++) await sleep(100);
    if (alive()) {
      signal('SIGKILL');
      for (let i = 0; i < 20 && alive(); i++) await sleep(100);
    }
    if (alive()) console.error(`warning: the store server on port ${port} (wrangler/workerd) is still alive`);
  }

  async function untilHealthy(timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (gone()) throw new Error(`wrangler dev on port ${port} exited early (${child.exitCode ?? child.signalCode})`);
      try {
        const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (response.status === 200) return;
      } catch {
        // not up yet
      }
      await Promise.race([sleep(500), exited]);
    }
    throw new Error(`store did not answer 200 on /api/health within ${timeoutMs / 1000} s`);
  }

  return { origin, process: child, untilHealthy, stop };
}
