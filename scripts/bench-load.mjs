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
import autocannon from 'autocannon';

const DURATION_S = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 10);
/** A product with no variants, its stock set so the run sells out part-way: both 201 and 409 are exercised. */
const PRODUCT = 'anker-735-charger-ganprime-65w';
const STOCK = Number(process.env.BENCH_LOAD_STOCK ?? 300);
const SHIPPING_FEE = 150_000;

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

function cannon(options) {
  const statuses = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (err, result) =>
      err ? reject(err) : resolve({ result, statuses }),
    );
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

function summary(name, { result, statuses }, okStatuses) {
  const unexpected = Object.entries(statuses).filter(([code]) => !okStatuses.includes(Number(code)));
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    statuses,
    errors: result.errors + result.timeouts + unexpected.reduce((n, [, count]) => n + count, 0),
  };
}

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

// ---------------------------------------------------------------- catalogue at scale

/**
 * The same listing and search requests against the shipped catalogue and against a second
 * local D1 holding 10,000 generated products more (scripts/generate-products.ts): the cost of
 * a request must stay flat as the catalogue grows (docs/decisions/012-search-in-d1-with-fts5.md).
 * Rows read come from the `x-d1-rows-read` header the Worker adds when EXPOSE_D1_ROWS_READ is set.
 */
export const SCALE_REQUESTS = [
  { name: 'listing', path: '/api/products' },
  { name: 'category, by price', path: '/api/products?category=phones&sort=price-asc' },
  { name: 'brand + price', path: '/api/products?brand=Apple&maxPrice=1500000' },
  { name: 'search "samsung galaxy"', path: '/api/products?q=samsung%20galaxy' },
  { name: 'search prefix "iph"', path: '/api/products?q=iph' },
  { name: 'featured shelf', path: '/api/products?featured=true&sort=rating' },
];
const SCALE_SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
/** p50 with 10,000 more products may be at most this many times p50 at the shipped size. */
export const SCALE_BUDGET = 1.5;

/** Runs every scale request against one server; `label` names the catalogue. */
export async function scaleRun(origin, label) {
  const results = [];
  for (const request of SCALE_REQUESTS) {
    const probe = await fetch(origin + request.path);
    const body = await probe.json();
    const rowsRead = probe.headers.get('x-d1-rows-read');
    process.stderr.write(`scale (${label}): ${request.path} for ${SCALE_SECONDS} s, ${CONNECTIONS} connections...\n`);
    const run = await cannon({ url: origin + request.path, duration: SCALE_SECONDS });
    results.push({
      ...summary(request.name, run, [200]),
      path: request.path,
      catalogue: label,
      total: body.total ?? null,
      rowsRead: rowsRead === null ? null : Number(rowsRead),
    });
  }
  return results;
}

/** Pairs the two runs request by request and checks the budget. */
export function scaleChecks(shipped, scaled) {
  return SCALE_REQUESTS.map((request, i) => {
    const a = shipped[i];
    const b = scaled[i];
    const ratio = b.p50Ms / Math.max(a.p50Ms, 1);
    return {
      target: `${request.name}: p50 at scale <= ${SCALE_BUDGET}x shipped, no errors`,
      value: `${a.p50Ms} -> ${b.p50Ms} ms (${ratio.toFixed(2)}x), errors ${a.errors + b.errors}`,
      pass: ratio <= SCALE_BUDGET && a.errors + b.errors === 0,
    };
  });
}

export function printScale(scale) {
  console.log(
    `\nCatalogue at scale (autocannon, ${CONNECTIONS} connections, ${SCALE_SECONDS} s each, local workerd + D1; rows read = D1 meta.rows_read of one request)`,
  );
  console.log('| request | catalogue | total | req/s | p50 ms | p99 ms | rows read | errors |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (let i = 0; i < scale.shipped.length; i++) {
    for (const r of [scale.shipped[i], scale.scaled[i]]) {
      console.log(
        `| ${r.name} | ${r.catalogue} | ${r.total} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.rowsRead ?? '-'} | ${r.errors} |`,
      );
    }
  }
  console.log('\nBudget:');
  for (const c of scale.checks) console.log(`  ${c.pass ? 'PASS' : 'MISS'} ${c.target} (${c.value})`);
}
