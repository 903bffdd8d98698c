/**
 * Does the built Worker still deploy, and how big is it? `wrangler deploy --dry-run` bundles the
 * build exactly as a deploy would (no Cloudflare account needed) and reports the upload; this
 * holds it to WORKER_GZIP_BUDGET_KIB, a third of the free plan's 3 MiB compressed limit (paid:
 * 10 MiB), so growth is noticed long before a deploy is refused. `npm test` runs it after the
 * build (CI), `npm run bench` prints it with the other budgets.
 *
 *   node scripts/worker-size.ts            (the build in $BUILD_DIR, default dist)
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

export function workerSize(buildDir = process.env.BUILD_DIR ?? 'dist'): WorkerSize {
  const outdir = mkdtempSync(join(tmpdir(), 'gts-worker-'));
  try {
    const out = execFileSync(
      process.execPath,
      [
        'node_modules/wrangler/bin/wrangler.js',
        'deploy',
        '--dry-run',
        '--config',
        `${buildDir}/server/wrangler.json`,
        '--outdir',
        outdir,
      ],
      {
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).toString();
    const upload = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
    const modules = /Total \((\d+) modules?\)/.exec(out);
    if (!upload) throw new Error(`wrangler deploy --dry-run printed no upload size:\n${out.slice(-2000)}`);
    const gzipKiB = Number(upload[2]);
    return { rawKiB: Number(upload[1]), gzipKiB, modules: Number(modules?.[1] ?? 0), pass: gzipKiB <= WORKER_GZIP_BUDGET_KIB };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export function describeSize(size: WorkerSize): string {
  return `Worker upload (wrangler deploy --dry-run): ${size.rawKiB.toFixed(0)} KiB, ${size.gzipKiB.toFixed(0)} KiB gzipped, ${size.modules} modules; budget ${WORKER_GZIP_BUDGET_KIB} KiB gzipped (Cloudflare's free-plan limit: ${FREE_PLAN_LIMIT_KIB} KiB)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = workerSize();
  console.log(`${size.pass ? 'PASS' : 'MISS'} ${describeSize(size)}`);
  if (!size.pass) process.exit(1);
}
