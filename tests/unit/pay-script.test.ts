import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npm run pay` (scripts/pay.ts) says how it is used, and never takes a flag for an order number. */
const pay = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/pay.ts', ...args], {
    encoding: 'utf8',
    // Nothing listens here: a run that tried to pay would fail with "Could not reach the store".
    env: { ...process.env, STORE_URL: 'http://127.0.0.1:9' },
  });

describe('npm run pay', () => {
  it('--help prints the usage and exits 0, without calling the store', () => {
    const help = pay('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run pay -- <order number> \[amount in naira\] \[--lost\]/);
  });

  it.each([[[]], [['--lost']], [['GTS-7K3M9Q2XWD', '5,000']]])('refuses %j with the usage and exit code 2', (args) => {
    const run = pay(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^Usage: npm run pay/);
  });
});
