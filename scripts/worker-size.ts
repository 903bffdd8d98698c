/**
 * Does the built Worker still deploy, how big is it, and how long does it take to start?
 * - `wrangler deploy --dry-run` bundles the build exactly as a deploy would (no Cloudflare account
 *   needed) and reports the upload; this holds it to WORKER_GZIP_BUDGET_KIB, a third of the free
 *   plan's 3 MiB compressed limit (paid: 10 MiB), so growth is noticed long before a deploy is
 *   refused.
 * - `wrangler check startup` runs the bundle's global scope in a local workerd under the profiler
 *   and reports the CPU it was active: held to WORKER_STARTUP_BUDGET_MS. Cloudflare refuses to
 *   deploy a Worker whose startup exceeds its limit (developers.cloudflare.com/workers/platform/
 *   limits/#worker-startup-time); the local CPU is not Cloudflare's, so the budget leaves room.
 * `npm test` runs the size check after the build (CI): the upload's size is the same on every
 * machine. The startup time is not: the same build measured 135 ms on an idle 2-core machine and
 * 310-323 ms beside the API tests, so a time budget in `npm test` fails by the machine's load, not
 * by the code (it failed CI once that way). `npm run bench` and `npm run deploy` measure it, on a
 * machine doing nothing else, with the other speed budgets.
 *
 *   node scripts/worker-size.ts            (the size; the build in $BUILD_DIR, default dist)
 *   node scripts/worker-size.ts --startup  (the size and the startup time)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const WORKER_GZIP_BUDGET_KIB = 1024;
/** Cloudflare's limit on the compressed Worker for the Workers Free plan. */
export const FREE_PLAN_LIMIT_KIB = 3 * 1024;

export interface WorkerSize {
  rawKiB: number;
  gzipKiB: number;
  modules: number;
  pass: boolean;
}

/**
 * Runs wrangler on the build's config with a scratch folder of its own (removed after) and
 * answers what it printed. `args(scratch)` gives the command's arguments.
 */
function wranglerOnBuild(buildDir: string, args: (scratch: string) => string[]): string {
  const scratch = mkdtempSync(join(tmpdir(), 'gts-worker-'));
  try {
    return execFileSync(
      process.execPath,
      ['node_modules/wrangler/bin/wrangler.js', ...args(scratch), '--config', `${buildDir}/server/wrangler.json`],
      {
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).toString();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function workerSize(buildDir = process.env.BUILD_DIR ?? 'dist'): WorkerSize {
  const out = wranglerOnBuild(buildDir, (scratch) => ['deploy', '--dry-run', '--outdir', scratch]);
  const upload = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  const modules = /Total \((\d+) modules?\)/.exec(out);
  if (!upload) throw new Error(`wrangler deploy --dry-run printed no upload size:\n${out.slice(-2000)}`);
  const gzipKiB = Number(upload[2]);
  return { rawKiB: Number(upload[1]), gzipKiB, modules: Number(modules?.[1] ?? 0), pass: gzipKiB <= WORKER_GZIP_BUDGET_KIB };
}

/** The most startup CPU, measured locally (an idle 2-core machine measured 73-135 ms), before the check fails. */
export const WORKER_STARTUP_BUDGET_MS = 250;

export interface WorkerStartup {
  activeMs: number;
  pass: boolean;
}

export function workerStartup(buildDir = process.env.BUILD_DIR ?? 'dist'): WorkerStartup {
  const out = wranglerOnBuild(buildDir, (scratch) => ['check', 'startup', '--outfile', join(scratch, 'startup.cpuprofile')]);
  const active = /Active: ([\d.]+) ms/.exec(out);
  if (!active) throw new Error(`wrangler check startup printed no active time:\n${out.slice(-2000)}`);
  const activeMs = Number(active[1]);
  return { activeMs, pass: activeMs <= WORKER_STARTUP_BUDGET_MS };
}

export function describeStartup(startup: WorkerStartup): string {
  return `Worker startup (wrangler check startup, local CPU): ${startup.activeMs.toFixed(1)} ms active; budget ${WORKER_STARTUP_BUDGET_MS} ms`;
}

export function describeSize(size: WorkerSize): string {
  return `Worker upload (wrangler deploy --dry-run): ${size.rawKiB.toFixed(0)} KiB, ${size.gzipKiB.toFixed(0)} KiB gzipped, ${size.modules} modules; budget ${WORKER_GZIP_BUDGET_KIB} KiB gzipped (Cloudflare's free-plan limit: ${FREE_PLAN_LIMIT_KIB} KiB)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = workerSize();
  console.log(`${size.pass ? 'PASS' : 'MISS'} ${describeSize(size)}`);
  const startup = process.argv.includes('--startup') ? workerStartup() : null;
  if (startup) console.log(`${startup.pass ? 'PASS' : 'MISS'} ${describeStartup(startup)}`);
  if (!size.pass || (startup && !startup.pass)) process.exit(1);
}
