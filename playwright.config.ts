import { defineConfig, devices } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { CHROMIUM_ARGS, HEADLESS_CHROMIUM } from './tests/e2e/browsers.ts';
import { E2E_D1_DIR, workerServer } from './tests/e2e/d1.ts';

// Every Playwright worker has its own server (scripts/serve.ts with PORTS): its own free
// port (8787 may be taken), its own copy of the migrated, seeded D1 and of the build, under
// E2E_D1_DIR (.wrangler/e2e unless set: two runs on one machine need two). Tests in different
// workers never see each other's changes to D1. E2E_WORKERS sets how many (not --workers).
// The ports are chosen once in the main process; workers inherit them through the env.
// Three on a 2-core machine: with two, the cores were only about two-thirds busy (the tests
// wait on pages, timers and servers); see docs/development.md's timings.
const workers = Number(process.env.E2E_WORKERS ?? 3);
process.env.E2E_PORTS ??= execFileSync(process.execPath, [
  '-e',
  `const net=require('net');Promise.all(Array.from({length:${workers}},()=>new Promise((r)=>{const s=net.createServer().listen(0,'127.0.0.1',()=>r(s))}))).then((ss)=>{console.log(ss.map((s)=>s.address().port).join(','));for(const s of ss)s.close()})`,
])
  .toString()
  .trim();
// In a worker (this file is loaded there too): its own server. tests/e2e/accounts.ts reads
// E2E_PORT, the service-worker test changes a file under BUILD_DIR.
const server = process.env.TEST_PARALLEL_INDEX === undefined ? undefined : workerServer();
if (server) {
  process.env.E2E_PORT = server.port;
  process.env.BUILD_DIR = server.buildDir;
}
const firstPort = process.env.E2E_PORTS.split(',')[0];

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Two workers share two cores (and CI machines are shared): long journeys need the room.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: server?.baseURL,
    // Recording a trace costs every test CPU; in CI a failure is traced on its retry.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // Each test's fresh context would register the service worker and pre-cache the app shell
    // and core pages: seconds of work per test that only tests/e2e/pwa.spec.ts is about (it allows them).
    serviceWorkers: (process.env.E2E_SW as 'allow' | 'block' | undefined) ?? 'block',
    launchOptions: { executablePath: HEADLESS_CHROMIUM, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined }, grepInvert: /@phone/ },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@phone/ },
  ],
  webServer: {
    command: 'node scripts/serve.ts',
    // The first server answering; each worker waits for its own (fixtures.ts).
    url: `http://127.0.0.1:${firstPort}/api/health`,
    env: { PORTS: process.env.E2E_PORTS, D1_PERSIST_DIR: E2E_D1_DIR, FRESH_DB: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
