/**
 * The API load run of `npm run bench`: autocannon against the local Worker (workerd
 * with its local D1) for GET /api/products and POST /api/orders, then checks what
 * the orders left behind in D1: stock never below zero, exactly one unit sold per
 * 201, and every order's total equal to D1's price plus shipping.
 *
 * Local D1 runs one query at a time (~3-4 ms each), so these figures are a baseline
 * for spotting regressions on this machine, not a forecast of production throughput.
 */
import { execFileSync } from 'node:child_process';
import { CONNECTIONS, cannon, DURATION_S, summary } from './autocannon.mjs';

/** A product with no variants, its stock set so the run sells out part-way: both 201 and 409 are exercised. */
const PRODUCT = 'anker-735-charger-ganprime-65w';
const STOCK = Number(process.env.BENCH_LOAD_STOCK ?? 300);
const SHIPPING_FEE = 150_000;

/** Runs one SQL command on the local D1 in `persistDir` and answers its rows. */
function sql(persistDir, command) {
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

/** Loads the listing and order placement on the server at `origin` (its D1 in `persistDir`) and checks what the orders left in D1. */
export async function loadRun(origin, persistDir) {
  process.stderr.write(`load: GET /api/products for ${DURATION_S} s, ${CONNECTIONS} connections...\n`);
  const products = summary(
    'GET /api/products',
    await cannon({ url: `${origin}/api/products?category=phones&sort=price-asc` }),
    [200],
  );

  sql(persistDir, `UPDATE products SET stock = ${STOCK} WHERE id = '${PRODUCT}'`);
  const [{ price_kobo: price }] = sql(persistDir, `SELECT price_kobo FROM products WHERE id = '${PRODUCT}'`);
  const ordersBefore = sql(persistDir, 'SELECT count(*) AS n FROM orders')[0].n;
  let sequence = 0;
  const body = () =>
    JSON.stringify({
      idempotencyKey: `bench-${process.pid}-${++sequence}-${Math.random().toString(36).slice(2)}`,
      customer: {
        name: 'Bench Shopper',
        email: `bench${sequence}@example.com`,
        phone: '08031234567',
        address: '1 Load Test Road',
        city: 'Ikeja',
        state: 'Lagos',
      },
      lines: [{ productId: PRODUCT, variant: '', quantity: 1, price }],
      // Claims the browser might send; the server must ignore them.
      subtotal: 1,
      total: 1,
    });
  process.stderr.write(`load: POST /api/orders for ${DURATION_S} s, ${CONNECTIONS} connections, stock ${STOCK}...\n`);
  const run = await cannon({
    url: origin,
    requests: [
      {
        method: 'POST',
        path: '/api/orders',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: body() }),
      },
    ],
  });
  const orders = summary('POST /api/orders', run, [201, 409]);

  // What the run left in D1.
  const placed = run.statuses[201] ?? 0;
  const [{ stock }] = sql(persistDir, `SELECT stock FROM products WHERE id = '${PRODUCT}'`);
  const [{ n: newOrders }] = sql(persistDir, `SELECT count(*) AS n FROM orders`);
  const [{ units, wrong }] = sql(
    persistDir,
    `SELECT coalesce(sum(l.quantity), 0) AS units,
            coalesce(sum(o.total_kobo != ${price} + ${SHIPPING_FEE} OR l.line_total_kobo != ${price}), 0) AS wrong
     FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.email LIKE 'bench%@example.com'`,
  );
  const checks = [
    { target: 'stock never below zero', value: stock, pass: stock >= 0 },
    { target: `stock = ${STOCK} - orders placed (${placed})`, value: stock, pass: stock === STOCK - placed },
    { target: 'one order row per 201', value: newOrders - ordersBefore, pass: newOrders - ordersBefore === placed },
    { target: 'units sold = orders placed', value: units, pass: units === placed },
    { target: 'every total = D1 price + shipping', value: `${wrong} wrong`, pass: wrong === 0 },
    {
      target: 'no errors (only 200/201/409)',
      value: products.errors + orders.errors,
      pass: products.errors + orders.errors === 0,
    },
  ];
  return {
    runs: [products, orders],
    checks,
    settings: { durationSeconds: DURATION_S, connections: CONNECTIONS, product: PRODUCT, stock: STOCK },
  };
}

/** Prints the load run's figures and checks. */
export function printLoad(load) {
  console.log(
    `\nAPI load (autocannon, ${load.settings.connections} connections, ${load.settings.durationSeconds} s each, local workerd + D1)`,
  );
  console.log('| route | req/s | p50 ms | p99 ms | requests | statuses | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of load.runs) {
    console.log(
      `| ${r.name} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${JSON.stringify(r.statuses)} | ${r.errors} |`,
    );
  }
  console.log('\nAfter the order run:');
  for (const c of load.checks) console.log(`  ${c.pass ? 'PASS' : 'MISS'} ${c.target} (${c.value})`);
}
