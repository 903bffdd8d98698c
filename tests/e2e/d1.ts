import { execFileSync } from 'node:child_process';

/**
 * Runs SQL against the browser tests' own local D1 (.wrangler/e2e, see
 * playwright.config.ts) while the Worker serves it: how a test stands in for a
 * change made at runtime (an admin's edit) until the admin screens exist.
 */
export function runSql(sql: string) {
  execFileSync(
    process.execPath,
    ['node_modules/wrangler/bin/wrangler.js', 'd1', 'execute', 'DB', '--local', '--config', 'wrangler.toml', '--persist-to', E2E_D1_DIR, '--command', sql],
    { stdio: 'ignore', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
}

export const E2E_D1_DIR = '.wrangler/e2e';
