/**
 * The store's D1 from Node scripts (backups, the catalogue sync, the deploy): SQL run through
 * `wrangler d1 execute`, on a local D1 persisted in a folder or on the deployed one (--remote).
 */
import { execFileSync } from 'node:child_process';

export interface Target {
  /** The deployed D1 (after `wrangler login`), or a local one persisted in `persistDir`. */
  remote: boolean;
  persistDir: string;
  /** The Wrangler config naming the database (default wrangler.toml; the deploy passes its build's). */
  config?: string;
}

/** Wrangler, run by this Node (no npx, no shell). */
export const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;
const where = (target: Target) => [
  ...(target.remote ? ['--remote'] : ['--local', '--persist-to', target.persistDir]),
  '--config',
  target.config ?? 'wrangler.toml',
];

/** Runs SQL statements on the target in one wrangler call (it starts in seconds) and answers each one's rows. */
export function queryEach(target: Target, statements: readonly string[]): Record<string, unknown>[][] {
  const out = execFileSync(
    WRANGLER[0],
    [WRANGLER[1], 'd1', 'execute', 'DB', ...where(target), '--json', '--command', statements.join(';\n')],
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 512 * 1024 * 1024 },
  );
  return (JSON.parse(out.toString()) as { results: Record<string, unknown>[] }[]).map((r) => r.results ?? []);
}

/** Runs SQL on the target and answers the rows of its last statement. */
export function query<T = Record<string, unknown>>(target: Target, sql: string): T[] {
  return (queryEach(target, [sql]).at(-1) ?? []) as T[];
}

/** Runs a SQL file on the target (one transaction). */
export function runFile(target: Target, file: string) {
  execFileSync(WRANGLER[0], [WRANGLER[1], 'd1', 'execute', 'DB', ...where(target), '--file', file], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
