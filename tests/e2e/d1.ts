import { type MessagePort, MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * The browser tests' servers and their D1s. Each Playwright worker has its own server
 * (scripts/serve.ts with PORTS: its own port, its own copy of the migrated, seeded D1 and of
 * the build), so tests in different workers never see each other's changes.
 *
 * SQL goes to the worker's server through wrangler's local explorer API
 * (`/cdn-cgi/local/explorer/api/d1/database/<id>/raw`, part of `wrangler dev`, never of the
 * deployed Worker): the same workerd and the same D1 object the Worker uses, so the
 * statements take their turn with the Worker's own and are seen by its next query. It is
 * how a test stands in for a change made at runtime (an admin's edit) until the admin
 * screens exist, and how it checks what the Worker stored. Tests change D1 through the `db`
 * fixture (fixtures.ts), which undoes their changes.
 *
 * Not the D1 file itself: Node's SQLite can open it while workerd serves it, but workerd
 * does not wait for another process's write lock, so a Worker write that ran into one of
 * the test's failed with SQLITE_BUSY (a 500) now and then.
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

/** Runs statements (one string may hold several) as one batch: all or nothing. */
export function runSql(sql: string | string[]) {
  d1((Array.isArray(sql) ? sql : [sql]).flatMap(statements));
}

/** The rows the first statement returns; later statements in `sql` run too, in the same batch. */
export function querySql<Row = Record<string, unknown>>(sql: string): Row[] {
  const [first] = d1(statements(sql));
  return (first?.rows ?? []).map((row) => Object.fromEntries(first!.columns.map((name, i) => [name, row[i]]))) as Row[];
}

interface Result {
  columns: string[];
  rows: unknown[][];
}

/** Sends a batch to the explorer API and answers each statement's columns and rows. */
function d1(batch: string[]): Result[] {
  if (!batch.length) return [];
  const answer = postSync(`${d1Url()}/raw`, { batch: batch.map((sql) => ({ sql })) }) as {
    success: boolean;
    errors?: { message: string }[];
    result: { results: Result }[] | null;
  };
  if (!answer.success) {
    throw new Error(`D1: ${answer.errors?.map((e) => e.message).join('; ')}\n  in: ${batch.join(';\n      ')}`);
  }
  return (answer.result ?? []).map((r) => r.results);
}

let database: { baseURL: string; url: string } | undefined;

/** The explorer API's address for the one D1 binding, DB, on this worker's server. */
function d1Url(): string {
  const { baseURL } = workerServer();
  if (database?.baseURL === baseURL) return database.url;
  const base = `${baseURL}/cdn-cgi/local/explorer/api/d1/database`;
  const list = postSync(base) as { result?: { name: string; uuid: string }[] };
  const found = list.result?.find((db) => db.name === 'DB') ?? list.result?.[0];
  if (!found)
    throw new Error(`No D1 database listed at ${base} (is the local explorer on? scripts/serve.ts sets X_LOCAL_EXPLORER)`);
  database = { baseURL, url: `${base}/${found.uuid}` };
  return database.url;
}

/**
 * Splits SQL into statements at the semicolons outside quotes and comments (the explorer
 * runs a string of several but answers only the last one's rows).
 */
function statements(sql: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === ';') {
      found.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  found.push(sql.slice(start));
  return found.filter((s) => !/^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*$/.test(s)).map((s) => s.trim());
}

let bridge: { worker: Worker; port: MessagePort; signal: Int32Array } | undefined;

/**
 * POSTs JSON (or GETs, without a body) and waits for the answer: the `db` fixture's methods
 * are synchronous, as they were when they ran wrangler. A helper thread does the fetch; this
 * one sleeps on a shared flag until it is done (a few milliseconds).
 */
function postSync(url: string, body?: unknown): unknown {
  bridge ??= startBridge();
  Atomics.store(bridge.signal, 0, 0);
  bridge.worker.postMessage({ url, body });
  if (Atomics.wait(bridge.signal, 0, 0, 30_000) === 'timed-out') throw new Error(`No answer from ${url} in 30 s`);
  const reply = receiveMessageOnPort(bridge.port)?.message as { status: number; text: string } | { error: string };
  if ('error' in reply) throw new Error(`${url}: ${reply.error}`);
  try {
    return JSON.parse(reply.text);
  } catch {
    throw new Error(`${url} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
  }
}

function startBridge() {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(
    `const { parentPort, workerData: { signal, port } } = require('node:worker_threads');
    parentPort.on('message', async ({ url, body }) => {
      let reply;
      try {
        const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
        const response = await fetch(url, init);
        reply = { status: response.status, text: await response.text() };
      } catch (error) {
        reply = { error: String(error?.cause ?? error) };
      }
      port.postMessage(reply);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });`,
    { eval: true, workerData: { signal, port: port2 }, transferList: [port2] },
  );
  worker.unref();
  return { worker, port: port1, signal };
}
