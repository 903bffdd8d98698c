import { execFileSync } from 'node:child_process';

/**
 * Runs SQL against the browser tests' own local D1 (.wrangler/e2e, see
 * playwright.config.ts) while the Worker serves it: how a test stands in for a
 * change made at runtime (an admin's edit) until the admin screens exist, and how
 * it checks what the Worker stored. Tests change D1 through the `db` fixture
 * (fixtures.ts), which undoes their changes.
 */
export function runSql(sql: string) {
  wrangler(['--command', sql], 'ignore');
}

/** The rows a SELECT returns. */
export function querySql<Row = Record<string, unknown>>(sql: string): Row[] {
  const out = wrangler(['--json', '--command', sql], 'pipe');
  const [result] = JSON.parse(out) as { results: Row[] }[];
  return result?.results ?? [];
}

function wrangler(args: string[], stdio: 'ignore' | 'pipe'): string {
  const out = execFileSync(
    process.execPath,
    [
      'node_modules/wrangler/bin/wrangler.js',
      'd1',
      'execute',
      'DB',
      '--local',
      '--config',
      'wrangler.toml',
      '--persist-to',
      E2E_D1_DIR,
      ...args,
    ],
    { stdio: ['ignore', stdio, stdio], env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
  return out?.toString() ?? '';
}

/** The browser tests' D1; E2E_D1_DIR moves it (two runs on one machine must not share it). */
export const E2E_D1_DIR = process.env.E2E_D1_DIR ?? '.wrangler/e2e';
