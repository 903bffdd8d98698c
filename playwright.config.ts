import { defineConfig, devices } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { E2E_D1_DIR } from './tests/e2e/d1.ts';

// Tests pick their own free port (8787 may be taken) and run on their own D1
// (E2E_D1_DIR, .wrangler/e2e unless set: two runs on one machine need two).
// The port is chosen once in the main process; workers inherit it through the env.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  '-e',
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();
const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined }, grepInvert: /@phone/ },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@phone/ },
  ],
  webServer: {
    command: 'node scripts/serve.ts',
    url: `${baseURL}/api/health`,
    env: { PORT: port, D1_PERSIST_DIR: E2E_D1_DIR, FRESH_DB: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
