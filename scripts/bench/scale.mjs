/**
 * The catalogue at scale: the same listing and search requests against the shipped catalogue
 * and against a second local D1 holding 100,000 generated products more (BENCH_SCALE_PRODUCTS)
 * (scripts/generate-products.ts): the cost of a request must stay flat as the catalogue grows
 * (docs/decisions/012-search-in-d1-with-fts5.md). Rows read come from the `x-d1-rows-read`
 * header the Worker adds when EXPOSE_D1_ROWS_READ is set (bench.mjs sets it for its servers).
 * Each run also asks the relevance set (tests/api/search-relevance-set.ts, decision 022) and
 * prints the share answered well; the shipped catalogue's share must reach its target.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setUpD1 } from '../store-server.ts';
import { answeredWell, RELEVANCE_SET, RELEVANCE_TARGET } from '../../tests/api/search-relevance-set.ts';
import { CONNECTIONS, cannon, summary } from './autocannon.mjs';

/** The scale run's D1: migrated, seeded, plus SCALE_PRODUCTS generated products. */
export const SCALE_PERSIST_DIR = '.wrangler/bench-scale';
export const SCALE_PRODUCTS = Number(process.env.BENCH_SCALE_PRODUCTS ?? 100_000);

const SCALE_REQUESTS = [
  { name: 'listing', path: '/api/products' },
  { name: 'category, by price', path: '/api/products?category=phones&sort=price-asc' },
  { name: 'brand + price', path: '/api/products?brand=Apple&maxPrice=1500000' },
  { name: 'search "samsung galaxy"', path: '/api/products?q=samsung%20galaxy' },
  { name: 'search prefix "iph"', path: '/api/products?q=iph' },
  { name: 'search typo "samsng galaxy"', path: '/api/products?q=samsng%20galaxy' },
  { name: 'search category word "phones"', path: '/api/products?q=phones' },
  { name: 'featured shelf', path: '/api/products?featured=true&sort=rating' },
];
const SCALE_SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
/** p50 with SCALE_PRODUCTS more products may be at most this many times p50 at the shipped size. */
const SCALE_BUDGET = 1.5;

/** A separate local D1 with the catalogue plus SCALE_PRODUCTS generated products, built before any server starts. */
export function prepareScaleDb() {
  rmSync(SCALE_PERSIST_DIR, { recursive: true, force: true });
  process.stderr.write(
    `scale: migrating and seeding ${SCALE_PERSIST_DIR}, then adding ${SCALE_PRODUCTS} generated products...\n`,
  );
  setUpD1(SCALE_PERSIST_DIR, 'stderr');
  execFileSync(process.execPath, ['scripts/generate-products.ts', '--count', String(SCALE_PRODUCTS)], {
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      D1_PERSIST_DIR: SCALE_PERSIST_DIR,
    },
    stdio: ['ignore', process.stderr, process.stderr],
  });
}

/** How many of the relevance set's queries the server answers well (the set's expectations are the shipped catalogue's). */
async function relevanceShare(origin) {
  let good = 0;
  for (const c of RELEVANCE_SET) {
    const body = await (await fetch(`${origin}/api/products?q=${encodeURIComponent(c.q)}`)).json();
    if (answeredWell(c, body.items ?? [])) good++;
  }
  return { good, of: RELEVANCE_SET.length, share: good / RELEVANCE_SET.length };
}

/**
 * Runs every scale request against one server; `label` names the catalogue. The answer is the
 * requests' results, with the relevance set's share as `relevance`.
 */
export async function scaleRun(origin, label) {
  const results = [];
  process.stderr.write(`scale (${label}): the relevance set, ${RELEVANCE_SET.length} queries...\n`);
  results.relevance = await relevanceShare(origin);
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

const percent = (r) => `${r.good} of ${r.of} (${(r.share * 100).toFixed(1)}%)`;

/** Pairs the two runs request by request and checks the budget, and the relevance share of the shipped catalogue. */
export function scaleChecks(shipped, scaled) {
  const relevance = {
    target: `relevance set answered well >= ${RELEVANCE_TARGET * 100}% (shipped catalogue)`,
    value: `${percent(shipped.relevance)}; with the generated products ${percent(scaled.relevance)}`,
    pass: shipped.relevance.share >= RELEVANCE_TARGET,
  };
  const budget = SCALE_REQUESTS.map((request, i) => {
    const a = shipped[i];
    const b = scaled[i];
    const ratio = b.p50Ms / Math.max(a.p50Ms, 1);
    return {
      target: `${request.name}: p50 at scale <= ${SCALE_BUDGET}x shipped, no errors`,
      value: `${a.p50Ms} -> ${b.p50Ms} ms (${ratio.toFixed(2)}x), errors ${a.errors + b.errors}`,
      pass: ratio <= SCALE_BUDGET && a.errors + b.errors === 0,
    };
  });
  return [relevance, ...budget];
}

/** Prints both runs side by side and the budget's checks. */
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
