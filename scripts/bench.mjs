/**
 * Benchmark: serves the built store in workerd on its own free port and its own fresh
 * local D1 (scripts/store-server.ts), then runs each part, each in its own module under
 * scripts/bench/: Lighthouse (mobile, simulated throttling) on the pages (pages.mjs) and
 * whether Chromium would install the store (installable.mjs), an API load run (load.mjs),
 * then the catalogue at scale (scale.mjs): the same listing and search requests against the
 * shipped catalogue and against a second local D1 with 10,000 generated products more
 * (scripts/generate-products.ts). Beside the pages, Lighthouse also measures a plain page of one
 * paragraph: the TBT floor of this machine. Checks the targets and writes the numbers to bench-results/.
 *
 *   npm run bench            (builds first if $BUILD_DIR/server/wrangler.json is missing)
 *   BUILD_DIR=dist-search npm run bench   (another build folder, as `BUILD_DIR=… npm run build` wrote it)
 *   BENCH_RUNS=3 npm run bench   (Lighthouse runs per page; the median run is reported, see BENCH_PICK)
 *   BENCH_PICK=best npm run bench   (report each page's best run instead of its median run)
 *   BENCH_PARTS=scale npm run bench   (only some parts: lighthouse, slow, load, writes, scale; all by default)
 *   BENCH_PAGES=cart,login npm run bench   (only some pages, by name: home, products, product, cart, track, login, sell-or-swap, about)
 *   BENCH_D1_DIR=.wrangler/bench-pwa npm run bench   (the Lighthouse/load run's own D1, so two benches can run side by side)
 *   BENCH_CPU_SLOWDOWN=10 npm run bench   (Lighthouse's simulated CPU slowdown; 4 by default, see suggestedSlowdown() in bench/pages.mjs)
 *
 * Exit code 1 when a target is missed (or the run fails), 0 otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as chromeLauncher from 'chrome-launcher';
import { installability, printInstallability } from './bench/installable.mjs';
import { loadRun, printLoad } from './bench/load.mjs';
import { printWrites, writeRun } from './bench/writes.mjs';
import { describeSize, describeStartup, workerSize, workerStartup } from './worker-size.ts';
import { measureFloor, measurePages, PAGE_SETTINGS, printPages, TARGETS } from './bench/pages.mjs';
import { printSlowPhone, slowPhoneRun } from './bench/slow-phone.mjs';
import { prepareScaleDb, printScale, SCALE_PERSIST_DIR, SCALE_PRODUCTS, scaleChecks, scaleRun } from './bench/scale.mjs';
import { freePort, setUpD1, startStore } from './store-server.ts';
import { CHROMIUM_ARGS, FULL_CHROMIUM } from '../tests/e2e/browsers.ts';

const PERSIST_DIR = process.env.BENCH_D1_DIR ?? '.wrangler/bench';
const BUILD_DIR = process.env.BUILD_DIR ?? 'dist';
const PARTS = new Set((process.env.BENCH_PARTS ?? 'lighthouse,slow,load,writes,scale').split(',').map((p) => p.trim()));
/** Makes the bench's Worker report D1's rows read per request (x-d1-rows-read); removed after the run. */
const DEV_VARS = `${BUILD_DIR}/server/.dev.vars`;
/** The whole Chromium (Lighthouse wants a browser, not the headless shell), with the browser tests' flags. */
const CHROME_PATH = process.env.CHROME_PATH ?? FULL_CHROMIUM;
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

/** Runs a command to completion with inherited stdio; rejects on a non-zero exit. */
function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

/**
 * Starts the store on `port` with its D1 in `persistDir` (emptied first when `fresh`), migrated
 * and seeded, in a process group of its own (`stop()` ends wrangler and workerd together).
 */
function startServer(port, { persistDir = PERSIST_DIR, fresh = true } = {}) {
  if (fresh) rmSync(persistDir, { recursive: true, force: true });
  setUpD1(persistDir, 'stderr');
  return startStore({ port, d1Dir: persistDir, buildDir: BUILD_DIR, output: 'stderr', ownProcessGroup: true });
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (!existsSync(`${BUILD_DIR}/server/wrangler.json`)) {
    console.error(`${BUILD_DIR}/server/wrangler.json missing: running npm run build`);
    await run('npm', ['run', 'build']);
  }

  let server = null;
  let chrome = null;
  let stopping = null;
  let wroteDevVars = false;
  // Idempotent: a signal and main's `finally` may both call it; both wait for the same shutdown.
  const cleanup = () =>
    (stopping ??= (async () => {
      const c = chrome;
      const s = server;
      if (c) {
        try {
          c.kill();
        } catch {
          /* already gone */
        } // SIGKILLs Chromium's process group
      }
      await Promise.all([
        s?.stop(),
        (async () => {
          for (let i = 0; i < 30 && c?.pid && groupAlive(c.pid); i++) await sleep(100);
        })(),
      ]);
      if (wroteDevVars) rmSync(DEV_VARS, { force: true });
    })());
  const onSignal = (signal) => {
    cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    if (PARTS.has('scale')) {
      prepareScaleDb();
      if (existsSync(DEV_VARS)) {
        console.error(`${DEV_VARS} exists: left as it is (rows read are shown only if it sets EXPOSE_D1_ROWS_READ=true)`);
      } else {
        writeFileSync(DEV_VARS, 'EXPOSE_D1_ROWS_READ=true\n');
        wroteDevVars = true;
      }
    }
    const port = await freePort();
    console.error(`starting store on 127.0.0.1:${port} (D1 in ${PERSIST_DIR}, build in ${BUILD_DIR})`);
    server = startServer(port);
    await server.untilHealthy();

    let results = [];
    let floor = null;
    let install = null;
    if (PARTS.has('lighthouse')) {
      chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
      results = await measurePages(server.origin, chrome.port, BUILD_DIR);
      // What a page with nothing in it blocks on this machine, beside the pages' TBT.
      floor = await measureFloor(chrome.port);
      install = await installability(chrome.port, server.origin);
      try {
        chrome.kill();
      } catch {
        /* already gone */
      }
      chrome = null;
    }
    // The same pages cold on an emulated slow 3G phone (issue 23's targets).
    const slow = PARTS.has('slow') ? await slowPhoneRun(server.origin, CHROME_PATH) : null;
    // Lighthouse is done with the pages; the load runs come last so they cannot slow them.
    const load = PARTS.has('load') ? await loadRun(server.origin, PERSIST_DIR) : null;
    // How many orders per second one database takes (after the load run: it fills the stock up).
    const writes = PARTS.has('writes') ? await writeRun(server.origin, PERSIST_DIR) : null;

    let scale = null;
    if (PARTS.has('scale')) {
      const shipped = await scaleRun(server.origin, 'shipped');
      await server.stop();
      const scalePort = await freePort();
      console.error(`starting store on 127.0.0.1:${scalePort} (D1 in ${SCALE_PERSIST_DIR}: +${SCALE_PRODUCTS} products)`);
      server = startServer(scalePort, { persistDir: SCALE_PERSIST_DIR, fresh: false });
      await server.untilHealthy();
      const scaled = await scaleRun(server.origin, `+${SCALE_PRODUCTS.toLocaleString('en')}`);
      scale = { shipped, scaled, checks: scaleChecks(shipped, scaled), settings: { products: SCALE_PRODUCTS } };
    }
    await cleanup();

    const lighthouseVersion = results[0]?.lighthouseVersion ?? null;
    if (results.length) printPages(results, floor);
    if (install) printInstallability(install);
    if (slow) printSlowPhone(slow);
    // Does the build still deploy, and within its size budget (wrangler deploy --dry-run)?
    const size = workerSize(BUILD_DIR);
    console.log(`\n${size.pass ? 'PASS' : 'MISS'} ${describeSize(size)}`);
    const startup = workerStartup(BUILD_DIR);
    console.log(`${startup.pass ? 'PASS' : 'MISS'} ${describeStartup(startup)}`);
    if (load) printLoad(load);
    if (writes) printWrites(writes);
    if (scale) printScale(scale);

    const ok =
      results.every((r) => r.checks.every((c) => c.pass)) &&
      (install?.installable ?? true) &&
      (slow?.results ?? []).every((r) => r.checks.every((c) => c.pass)) &&
      (load?.checks ?? []).every((c) => c.pass) &&
      (writes?.checks ?? []).every((c) => c.pass) &&
      size.pass &&
      startup.pass &&
      (scale?.checks ?? []).every((c) => c.pass);
    const date = new Date()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z')
      .replaceAll(':', '-');
    mkdirSync('bench-results', { recursive: true });
    const file = `bench-results/bench-${date}.json`;
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          lighthouse: lighthouseVersion,
          settings: { ...PAGE_SETTINGS, parts: [...PARTS] },
          targets: TARGETS,
          pass: ok,
          pages: results.map(({ lighthouseVersion: _v, ...r }) => r),
          tbtFloor: floor,
          installability: install,
          slowPhone: slow,
          apiLoad: load,
          writes,
          workerSize: size,
          workerStartup: startup,
          scale,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\n${ok ? 'All targets met.' : 'Some targets MISSED.'} Full numbers: ${file}`);
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err?.stack ?? err);
    process.exit(1);
  },
);
