/**
 * How far one database goes for writes (issue 25): concurrent checkouts, each of one unit of a
 * different product or variant (no two fight over one stock row), against the local Worker, at
 * rising concurrency until errors appear or p99 passes WRITE_P99_BUDGET_MS. The figure is the
 * most orders per second placed with p99 under that budget; docs/operations.md turns it into
 * what the store can take. Every 201 is checked against D1 afterwards (one order row and one
 * unit per 201, no stock below zero).
 *
 * Local workerd runs D1 on one thread on this machine: the figure is this machine's, a floor
 * for what one D1 database does (its writes are serialised there too), not a forecast.
 */
import { execFileSync } from 'node:child_process';
import { cannon, summary } from './autocannon.mjs';

const LEVELS = (process.env.BENCH_WRITE_LEVELS ?? '1,2,4,8,16,32').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 5);
export const WRITE_P99_BUDGET_MS = 1000;

/** Runs one SQL command on the local D1 in `persistDir` (retried while the server still holds the database's lock). */
function sql(persistDir, command, tries = 10) {
  try {
    return sqlOnce(persistDir, command);
  } catch (err) {
    if (tries <= 1 || !String(err).includes('SQLITE_BUSY')) throw err;
    execFileSync('sleep', ['1']);
    return sql(persistDir, command, tries - 1);
  }
}

function sqlOnce(persistDir, command) {
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
      persistDir,
      '--json',
      '--command',
      command,
    ],
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(out.toString())[0]?.results ?? [];
}

/** Every line a checkout can buy: products without variants and each variant, at D1's price. */
function sellableLines(persistDir) {
  const plain = sql(
    persistDir,
    `SELECT id AS productId, '' AS variant, price_kobo AS price FROM products p
      WHERE active = 1 AND NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id)`,
  );
  const variants = sql(
    persistDir,
    `SELECT v.product_id AS productId, v.id AS variant, v.price_kobo AS price FROM product_variants v
      JOIN products p ON p.id = v.product_id WHERE p.active = 1`,
  );
  return [...plain, ...variants];
}

/** Raises the concurrency step by step on the server at `origin` (its D1 in `persistDir`). */
export async function writeRun(origin, persistDir) {
  // Stock enough that no checkout is refused for it: the run measures writing, not selling out.
  sql(persistDir, 'UPDATE product_variants SET stock = 100000');
  sql(
    persistDir,
    `UPDATE products SET stock = 100000 WHERE NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = products.id)`,
  );
  const lines = sellableLines(persistDir);
  const ordersBefore = sql(persistDir, 'SELECT count(*) AS n FROM orders')[0].n;
  let sequence = 0;
  const body = () => {
    const n = ++sequence;
    const line = lines[n % lines.length];
    return JSON.stringify({
      idempotencyKey: `writes-${process.pid}-${n}-${Math.random().toString(36).slice(2)}`,
      customer: {
        name: 'Write Bench',
        // Distinct contacts: the hoarding limits count per e-mail, phone and address.
        email: `writes${n}@example.com`,
        phone: `0803${String(1_000_000 + (n % 8_999_999)).padStart(7, '0')}`,
        address: `${n} Throughput Close`,
        city: 'Ikeja',
        state: 'Lagos',
      },
      lines: [{ productId: line.productId, variant: line.variant, quantity: 1, price: line.price }],
    });
  };

  const steps = [];
  for (const connections of LEVELS) {
    process.stderr.write(`writes: POST /api/orders, ${connections} connections for ${SECONDS} s...\n`);
    const run = await cannon({
      url: origin,
      connections,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/api/orders',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: body() }),
        },
      ],
    });
    const step = { connections, ...summary(`${connections} connections`, run, [201]) };
    steps.push(step);
    if (step.errors > 0 || step.p99Ms > WRITE_P99_BUDGET_MS) break;
  }

  const placed = steps.reduce((n, s) => n + (s.statuses[201] ?? 0), 0);
  const inFlight = steps.reduce((n, s) => n + s.connections, 0);
  // Let the last requests in flight finish before counting.
  execFileSync('sleep', ['3']);
  const [{ n: ordersAfter }] = sql(persistDir, 'SELECT count(*) AS n FROM orders');
  const [{ negative }] = sql(
    persistDir,
    'SELECT (SELECT count(*) FROM products WHERE stock < 0) + (SELECT count(*) FROM product_variants WHERE stock < 0) AS negative',
  );
  const within = steps.filter((s) => s.errors === 0 && s.p99Ms <= WRITE_P99_BUDGET_MS);
  const best = within.reduce((a, s) => (!a || s.requestsPerSecond > a.requestsPerSecond ? s : a), undefined);
  const checks = [
    {
      target: `orders per second with p99 under ${WRITE_P99_BUDGET_MS} ms (reported, the budget is the p99)`,
      value: best ? `${best.requestsPerSecond.toFixed(1)} at ${best.connections} connections (p99 ${best.p99Ms} ms)` : 'none',
      pass: Boolean(best),
    },
    {
      // A step's last requests (one per connection) finish after autocannon stops counting: their orders exist, uncounted.
      target: `one order row per 201, plus at most the requests in flight when each step ended (${inFlight})`,
      value: `${ordersAfter - ordersBefore} rows for ${placed} counted 201s`,
      pass: ordersAfter - ordersBefore >= placed && ordersAfter - ordersBefore <= placed + inFlight,
    },
    { target: 'no stock below zero', value: negative, pass: negative === 0 },
  ];
  return { steps, checks, best: best ?? null, settings: { seconds: SECONDS, levels: LEVELS, lines: lines.length } };
}

export function printWrites(writes) {
  console.log(
    `\nWrite throughput (POST /api/orders on ${writes.settings.lines} distinct products and variants, ${writes.settings.seconds} s per step, local workerd + D1)`,
  );
  console.log('| connections | orders/s | p50 ms | p99 ms | statuses | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const s of writes.steps) {
    console.log(
      `| ${s.connections} | ${s.requestsPerSecond.toFixed(1)} | ${s.p50Ms} | ${s.p99Ms} | ${JSON.stringify(s.statuses)} | ${s.errors} |`,
    );
  }
  for (const c of writes.checks) console.log(`  ${c.pass ? 'PASS' : 'MISS'} ${c.target} (${c.value})`);
}
