import { readdirSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

/**
 * The browser tests' servers and their D1s. Each Playwright worker has its own server
 * (scripts/serve.ts with PORTS: its own port, its own copy of the migrated, seeded D1 and of
 * the build), so tests in different workers never see each other's changes.
 *
 * SQL runs against the worker's D1 file directly with Node's built-in SQLite while workerd
 * serves it: how a test stands in for a change made at runtime (an admin's edit) until the
 * admin screens exist, and how it checks what the Worker stored. Tests change D1 through
 * the `db` fixture (fixtures.ts), which undoes their changes.
 *
 * Both sides see each other's writes at once: they share one SQLite file in WAL mode. Node
 * waits up to 10 s for workerd's write lock (busy_timeout); workerd does not wait for ours
 * (a Worker write that meets one fails with SQLITE_BUSY), so keep writes single, short
 * statements, as the fixture's are.
 */

/** The tests' servers' state: server i in `${E2E_D1_DIR}/${i}` (E2E_D1_DIR: two runs on one machine must not share it). */
export const E2E_D1_DIR = process.env.E2E_D1_DIR ?? '.wrangler/e2e';

/** This Playwright worker's server, as playwright.config.ts and scripts/serve.ts lay them out. */
export function workerServer() {
  const index = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  const ports = (process.env.E2E_PORTS ?? '').split(',').filter(Boolean);
  const port = ports[index];
  if (!port) {
    throw new Error(
      `No test server for worker ${index} (E2E_PORTS=${process.env.E2E_PORTS}): set the number of workers with E2E_WORKERS, not --workers`,
    );
  }
  const dir = `${E2E_D1_DIR}/${index}`;
  return { index, port, baseURL: `http://127.0.0.1:${port}`, d1Dir: dir, buildDir: `${dir}/build` };
}

/** Runs one or more statements (`begin; …; commit` for all or nothing). */
export function runSql(sql: string) {
  const db = database();
  try {
    db.exec(sql);
  } catch (error) {
    // Never leave a transaction open: it would hold the write lock workerd needs.
    if (db.isTransaction) db.exec('rollback');
    throw error;
  }
}

/** The rows the first statement returns (later statements run too, in the same transaction). */
export function querySql<Row = Record<string, unknown>>(sql: string): Row[] {
  const db = database();
  let rest = sql;
  const first = db.prepare(rest);
  rest = rest.slice(first.sourceSQL.length);
  if (isBlank(rest)) return plain(first.all());
  db.exec('begin immediate');
  try {
    const rows = plain(first.all());
    db.exec(rest);
    db.exec('commit');
    return rows as Row[];
  } catch (error) {
    if (db.isTransaction) db.exec('rollback');
    throw error;
  }
}

/** Rows as plain objects (node:sqlite gives null-prototype ones). */
const plain = <Row>(rows: unknown[]) => rows.map((row) => ({ ...(row as object) })) as Row[];

const isBlank = (sql: string) => /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*$/.test(sql);

let opened: { dir: string; db: DatabaseSync } | undefined;

/** This worker's D1, opened once (the file miniflare keeps for the one D1 binding). */
function database(): DatabaseSync {
  const { d1Dir } = workerServer();
  if (opened?.dir === d1Dir) return opened.db;
  const folder = `${d1Dir}/v3/d1/miniflare-D1DatabaseObject`;
  const files = readdirSync(folder).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`Expected one D1 database in ${folder}, found: ${files.join(', ') || 'none'}`);
  const { DatabaseSync } = nodeSqlite();
  // Foreign keys on, as D1 has them; wait for workerd's write lock rather than fail at once.
  const db = new DatabaseSync(`${folder}/${files[0]}`, { enableForeignKeyConstraints: true, timeout: 10_000 });
  opened = { dir: d1Dir, db };
  return db;
}

/** node:sqlite (built into Node 22), without the "SQLite is an experimental feature" warning on every worker's output. */
function nodeSqlite(): typeof import('node:sqlite') {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes('SQLite is an experimental feature'))
      (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}
