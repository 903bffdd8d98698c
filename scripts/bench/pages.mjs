/**
 * The pages part of `npm run bench`: Lighthouse (mobile, simulated throttling) on each page
 * below: scores, LCP/TBT/CLS, the JavaScript it loads against its budget, no admin code on a
 * shopper page, no framework on a page without an island. Checks the targets and prints them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import lighthouse from 'lighthouse';

/**
 * The most JavaScript a page may transfer (gzipped bytes, as Lighthouse counts them), issue 23:
 * 30 KB on the home page and on pages without an island, 85 KB on pages with a React island.
 */
const KB = 1024;
const JS_BUDGET = { plain: 30 * KB, island: 85 * KB };
/**
 * The most a shopper page's HTML response may transfer (its headers and gzipped body, as
 * Lighthouse counts it): what a new connection delivers in its first round trip, TCP's initial
 * window of 10 segments of 1,460 bytes (RFC 6928; Lighthouse's simulation models the same).
 * Past it the first paint waits one more round trip: 150 ms in Lighthouse's mobile setting,
 * 400 ms on the slow-3G phone. The home page was 15,003 bytes before the build took Astro's
 * <meta> policy out (decision 013, amended 2026-11-28).
 */
const FIRST_ROUND_TRIP_BYTES = 10 * 1460;
/**
 * Pages to measure. `lighthouse: true` runs all four categories and checks the
 * score targets; `lighthouse: false` does one performance-only run, used just to
 * record the scripts the page loads (no score targets).
 * `noFramework: true` checks that the page loads no React / island runtime.
 * `noShift: true` checks a layout shift of exactly 0 (a listing URL the Worker renders
 * with its own results: nothing may move when the island takes over).
 * `jsBudget`: the most JavaScript (transfer bytes) the page may load: what it loaded
 * before the variants, pick-up and installable-app work (commit 636a1d8, measured with
 * this script on 2026-11-22), so later features cannot quietly grow it.
 * Every page but /admin is a shopper page: it must load no chunk of the admin's code.
 */
const PAGES = [
  { name: 'home', path: '/', lighthouse: true, noFramework: true, jsBudget: JS_BUDGET.plain },
  // The listing and product pages have no island since issue 23 (plain scripts act on the
  // Worker's HTML, decision 004): held to the plain budget, with no framework.
  { name: 'products', path: '/products', lighthouse: true, noFramework: true, jsBudget: JS_BUDGET.plain },
  {
    name: 'category',
    path: '/products?category=phones',
    lighthouse: true,
    noFramework: true,
    noShift: true,
    jsBudget: JS_BUDGET.plain,
  },
  { name: 'product', path: '/product/sony-playstation-5-slim', lighthouse: true, noFramework: true, jsBudget: JS_BUDGET.plain },
  // /cart and /login are noindex on purpose (nobody's search result): their SEO score is reported, not held to 100.
  { name: 'cart', path: '/cart', lighthouse: true, noindex: true, jsBudget: JS_BUDGET.island },
  { name: 'track', path: '/track', lighthouse: true, jsBudget: JS_BUDGET.island },
  { name: 'login', path: '/login', lighthouse: true, noindex: true, jsBudget: JS_BUDGET.island },
  // Pre-rendered whole, so nothing may move as it hydrates.
  { name: 'sell-or-swap', path: '/sell-or-swap', lighthouse: true, noShift: true, jsBudget: JS_BUDGET.island },
  { name: 'about', path: '/about', lighthouse: true, noFramework: true, jsBudget: JS_BUDGET.plain },
  { name: 'admin', path: '/admin', lighthouse: false, admin: true },
];

/** Issue 23's targets, each checked on every page Lighthouse scores (median of the runs). */
export const TARGETS = {
  performance: 100,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  lcpMs: 1200,
  tbtMs: 50,
  cls: 0,
};
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** The header of the pages with a person's data (decision 013), whose entry costs the browser more. */
const OPENER_POLICY_HEADER = 'cross-origin-opener-policy';
/** Where the TBT budget's misses are explained, with the plan for them. */
const TBT_NOTES = 'docs/development.md, "Page speed"';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
/**
 * Which of a page's runs is reported and checked: 'median' (default: each figure is its own median
 * over the runs, and with an even number of runs the better of the middle two) or 'best' (the run
 * with the best performance score, all its figures).
 * On a shared machine a single run can be far off either way; the median of 3 is the honest figure.
 */
const PICK = process.env.BENCH_PICK === 'best' ? 'best' : 'median';
/**
 * Lighthouse's CPU slowdown for its simulated phone. The budgets are set with its default, 4×,
 * which stands for a mid-tier phone when the host is a high-end desktop (a benchmarkIndex of
 * 1,500–2,000). On a faster host 4× is a faster phone, on a slower one a slower phone: the bench
 * prints the host's benchmarkIndex and the slowdown Lighthouse's calculator suggests for it
 * (suggestedSlowdown()), and BENCH_CPU_SLOWDOWN runs the pages with that one instead.
 */
const DEFAULT_CPU_SLOWDOWN = 4;
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? DEFAULT_CPU_SLOWDOWN);
if (!(CPU_SLOWDOWN >= 1 && CPU_SLOWDOWN <= 30)) throw new Error('BENCH_CPU_SLOWDOWN must be a number from 1 to 30');

/**
 * The CPU slowdown that makes Lighthouse's simulated phone a mid-tier one on a host with this
 * benchmarkIndex: the piecewise line of Lighthouse's CPU throttling calculator (linked from its
 * docs/throttling.md, "Calibrating the CPU slowdown"): 150 → 1×, 800 → 2×, 1,300 → 3×, and one
 * more for each 233 past 1,300. Null below 150, which it calls too slow to emulate the phone.
 */
export function suggestedSlowdown(benchmarkIndex) {
  if (!(benchmarkIndex >= 150)) return null;
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  return 1 + (benchmarkIndex - 150) / 650;
}

/** Only these pages (by name), when set. */
const ONLY_PAGES = process.env.BENCH_PAGES ? new Set(process.env.BENCH_PAGES.split(',').map((p) => p.trim())) : null;
/**
 * A script counts as framework JS when its /_astro/ chunk is React or the island client runtime
 * (react.*.js, react-dom*.js, client.*.js, jsx-runtime.*.js); the name must start with it, so
 * our own api-client.browser.*.js is not taken for React.
 */
const FRAMEWORK_SCRIPT = /\/_astro\/(react|react-dom|client|jsx-runtime)[.-][^/?#]*$/i;

/**
 * The built chunks that hold admin code: every /_astro/ script that calls the admin API.
 * Filled in main() from the build; a shopper page that loads one of them fails its check.
 */
const ADMIN_CHUNKS = new Set();
/** Fills ADMIN_CHUNKS from the build in `buildDir`. */
function findAdminChunks(buildDir) {
  const dir = `${buildDir}/client/_astro`;
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.js') && readFileSync(`${dir}/${name}`, 'utf8').includes('/api/admin/'))
      ADMIN_CHUNKS.add(`/_astro/${name}`);
  }
}

const round = (n, digits = 0) => (n == null ? null : Number(n.toFixed(digits)));

/** Scripts the page requested (from Lighthouse's network-requests audit). */
function scriptsOf(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items
    .filter((r) => r.resourceType === 'Script')
    .map((r) => ({ url: r.url, transferSize: r.transferSize ?? 0, framework: FRAMEWORK_SCRIPT.test(new URL(r.url).pathname) }));
}

/** Audits that cost a category points, with the selectors / savings needed to fix them. */
function lostPoints(lhr, categoryId) {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  const out = [];
  for (const ref of category.auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) continue;
    if (['notApplicable', 'informative', 'manual', 'error'].includes(audit.scoreDisplayMode) && ref.weight === 0) continue;
    const savings = audit.metricSavings ?? {};
    const savingsMs = (savings.LCP ?? 0) + (savings.FCP ?? 0) + (savings.TBT ?? 0);
    // Performance: keep weighted metrics and audits that estimate a saving; other categories: every failing weighted audit.
    if (categoryId === 'performance' ? ref.weight === 0 && savingsMs === 0 && !savings.CLS : ref.weight === 0) continue;
    const items = (audit.details?.items ?? [])
      .slice(0, 6)
      .map((item) => {
        const node = item.node ?? (item.type === 'node' ? item : null);
        return {
          selector: node?.selector ?? null,
          snippet: node?.snippet ?? null,
          url: typeof item.url === 'string' ? item.url : (item.source?.url ?? null),
          explanation: node?.explanation ?? item.explanation ?? null,
        };
      })
      .filter((i) => i.selector || i.url || i.snippet);
    out.push({
      id: ref.id,
      title: audit.title,
      score: audit.score,
      weight: ref.weight,
      displayValue: audit.displayValue ?? null,
      metricSavings: Object.keys(savings).length ? savings : null,
      items,
    });
  }
  // Weighted metrics first (by points lost), then the largest estimated savings.
  const lost = (a) => a.weight * (1 - a.score);
  const saved = (a) =>
    (a.metricSavings?.LCP ?? 0) + (a.metricSavings?.FCP ?? 0) + (a.metricSavings?.TBT ?? 0) + (a.metricSavings?.CLS ?? 0) * 1000;
  return out.sort((a, b) => lost(b) - lost(a) || saved(b) - saved(a));
}

/**
 * The main-thread tasks of 50 ms or more (Lighthouse's long-tasks audit: start and duration
 * as simulated, on the throttled phone), with the script each is attributed to: what TBT is made of.
 */
function longTasksOf(lhr) {
  const origin = lhr.finalDisplayedUrl ? new URL(lhr.finalDisplayedUrl).origin : '';
  return (lhr.audits['long-tasks']?.details?.items ?? []).slice(0, 10).map((t) => ({
    url: typeof t.url === 'string' ? t.url.replace(origin, '') : String(t.url ?? ''),
    startMs: round(t.startTime),
    durationMs: round(t.duration),
  }));
}

/**
 * Where a page's blocking time comes from: each long task's time past 50 ms (as Lighthouse
 * simulates it on the 4× phone), summed by what Lighthouse attributes the task to:
 * - `browser`: tasks it attributes to no script ("Unattributable"): Chromium committing the
 *   navigation (creating the page's JavaScript context), its own timers and paints;
 * - `page`: tasks attributed to the page's own URL: parsing its HTML, style and layout, its inline
 *   scripts, and module scripts run from its microtasks;
 * - `scripts`: tasks attributed to one of the build's scripts (/_astro/);
 * - `lighthouse`: Lighthouse's own script in the page (`_lighthouse-eval.js`);
 * - `other`: anything else.
 * The sums are not clipped at the first paint or at interactive as TBT is, so they can add up to
 * more than it: they say which kind of work to cut, not how much TBT each would save.
 */
function blockingBySource(lhr) {
  const pageUrl = lhr.finalDisplayedUrl ?? '';
  const origin = pageUrl ? new URL(pageUrl).origin : '';
  const by = { browser: 0, page: 0, scripts: 0, lighthouse: 0, other: 0 };
  for (const task of lhr.audits['long-tasks']?.details?.items ?? []) {
    const url = typeof task.url === 'string' ? task.url : '';
    const source =
      url === 'Unattributable'
        ? 'browser'
        : url.includes('_lighthouse-eval')
          ? 'lighthouse'
          : url === pageUrl
            ? 'page'
            : url.startsWith(`${origin}/_astro/`)
              ? 'scripts'
              : 'other';
    by[source] += Math.max(0, (task.duration ?? 0) - 50);
  }
  return Object.fromEntries(Object.entries(by).map(([source, ms]) => [source, round(ms)]));
}

function summarise(lhr) {
  const scores = Object.fromEntries(
    Object.entries(lhr.categories).map(([id, c]) => [id, c.score == null ? null : Math.round(c.score * 100)]),
  );
  const scripts = scriptsOf(lhr);
  const lcpItem =
    lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node ??
    lhr.audits['lcp-breakdown-insight']?.details?.items?.find((i) => i.type === 'node') ??
    null;
  return {
    scores,
    lcpMs: round(lhr.audits['largest-contentful-paint']?.numericValue),
    fcpMs: round(lhr.audits['first-contentful-paint']?.numericValue),
    tbtMs: round(lhr.audits['total-blocking-time']?.numericValue),
    cls: round(lhr.audits['cumulative-layout-shift']?.numericValue, 3),
    speedIndexMs: round(lhr.audits['speed-index']?.numericValue),
    lcpElement: lcpItem ? { selector: lcpItem.selector ?? null, snippet: lcpItem.snippet ?? null } : null,
    jsBytes: scripts.reduce((sum, s) => sum + s.transferSize, 0),
    documentBytes:
      lhr.audits['network-requests']?.details?.items?.find((r) => r.resourceType === 'Document')?.transferSize ?? null,
    frameworkJs: scripts.some((s) => s.framework),
    scripts,
    longTasks: longTasksOf(lhr),
    blockingBySource: blockingBySource(lhr),
    runtimeError: lhr.runtimeError?.message ?? null,
    runWarnings: lhr.runWarnings ?? [],
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

/**
 * One Lighthouse run of `url` (its report), by the Chromium listening on `port`. NO_NAVSTART, a
 * trace Lighthouse could not read (seen now and then, more often on a busy machine), is run
 * again, up to twice; any other error stops the bench.
 */
async function lighthouseRun(url, port, onlyCategories) {
  const throttling = CPU_SLOWDOWN === DEFAULT_CPU_SLOWDOWN ? undefined : { cpuSlowdownMultiplier: CPU_SLOWDOWN };
  const run = () => lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories, throttling });
  let result = await run();
  for (let retry = 0; retry < 2 && result?.lhr.runtimeError?.code === 'NO_NAVSTART'; retry++) {
    process.stderr.write(`lighthouse ${url}: NO_NAVSTART, running it again\n`);
    result = await run();
  }
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse error on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

/** Whether the page's response carries an opener policy (decision 013: the pages with a person's data). */
async function carriesOpenerPolicy(url) {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return response.headers.has(OPENER_POLICY_HEADER);
}

async function measure(page, origin, port) {
  const url = origin + page.path;
  const onlyCategories = page.lighthouse ? CATEGORIES : ['performance'];
  const runs = page.lighthouse ? RUNS : 1;
  const results = [];
  for (let i = 0; i < runs; i++) {
    process.stderr.write(`lighthouse ${page.path} run ${i + 1}/${runs}...\n`);
    const lhr = await lighthouseRun(url, port, onlyCategories);
    results.push({ lhr, summary: summarise(lhr) });
  }
  // Runs ranked best first: highest performance score, ties broken by the lower LCP + TBT.
  const perf = (r) => r.summary.scores.performance ?? -1;
  const cost = (r) => (r.summary.lcpMs ?? 0) + (r.summary.tbtMs ?? 0);
  const ranked = [...results].sort((a, b) => perf(b) - perf(a) || cost(a) - cost(b));
  // The reported run: the median (of an even number, the better of the middle two) or the best;
  // with the median, each figure checked is its own median (withMedianFigures).
  const best = PICK === 'best' ? ranked[0] : ranked[Math.floor((ranked.length - 1) / 2)];
  const diagnostics = {};
  for (const id of onlyCategories) {
    const lost = lostPoints(best.lhr, id);
    if (lost.length) diagnostics[id] = lost;
  }
  return {
    ...page,
    url,
    openerPolicy: await carriesOpenerPolicy(url),
    lighthouseVersion: best.lhr.lighthouseVersion,
    best:
      PICK === 'best'
        ? best.summary
        : withMedianFigures(
            best.summary,
            results.map(({ summary }) => summary),
          ),
    runs: results.map((r) => ({
      scores: r.summary.scores,
      lcpMs: r.summary.lcpMs,
      tbtMs: r.summary.tbtMs,
      cls: r.summary.cls,
      lcpElement: r.summary.lcpElement?.selector ?? null,
      jsBytes: r.summary.jsBytes,
      documentBytes: r.summary.documentBytes,
      benchmarkIndex: r.summary.benchmarkIndex,
    })),
    diagnostics,
  };
}
/**
 * The reported run with each figure a budget checks replaced by that figure's own median over the
 * runs (of an even number, the better of the middle two): the scores, LCP, TBT and CLS. The run
 * itself (its LCP element, long tasks and scripts) is the median-performance one; its TBT alone
 * could be the worst of three, since runs tie on a score of 100.
 */
function withMedianFigures(summary, runs) {
  const sorted = (values, order) => values.filter((v) => typeof v === 'number').sort(order);
  const middle = (values) => (values.length ? values[Math.floor((values.length - 1) / 2)] : null);
  /** A cost's median (lower is better), a score's (higher is better). */
  const cost = (pick) => middle(sorted(runs.map(pick), (a, b) => a - b));
  const score = (pick) => middle(sorted(runs.map(pick), (a, b) => b - a));
  const scores = Object.fromEntries(Object.keys(summary.scores).map((id) => [id, score((r) => r.scores[id])]));
  return { ...summary, scores, lcpMs: cost((r) => r.lcpMs), tbtMs: cost((r) => r.tbtMs), cls: cost((r) => r.cls) };
}

// ---------------------------------------------------------------- targets and output

function checkTargets(result) {
  const checks = [];
  const s = result.best.scores;
  if (result.lighthouse) {
    for (const category of ['performance', 'accessibility', 'best-practices', 'seo']) {
      // A page that is noindex on purpose has its SEO score reported, not counted.
      if (category === 'seo' && result.noindex) continue;
      checks.push({
        target: `${category} = ${TARGETS[category]}`,
        value: s[category],
        pass: (s[category] ?? 0) >= TARGETS[category],
      });
    }
    checks.push({ target: `LCP <= ${TARGETS.lcpMs} ms`, value: result.best.lcpMs, pass: result.best.lcpMs <= TARGETS.lcpMs });
    checks.push({ target: `TBT <= ${TARGETS.tbtMs} ms`, value: result.best.tbtMs, pass: result.best.tbtMs <= TARGETS.tbtMs });
    checks.push({ target: 'CLS = 0', value: result.best.cls, pass: result.best.cls === 0 });
  } else if (result.noShift) {
    checks.push({ target: 'CLS = 0', value: result.best.cls, pass: result.best.cls === 0 });
  }
  if (result.jsBudget) {
    checks.push({
      target: `JS <= ${kb(result.jsBudget)}`,
      value: kb(result.best.jsBytes),
      pass: result.best.jsBytes <= result.jsBudget,
    });
  }
  if (!result.admin) {
    const bytes = result.best.documentBytes;
    checks.push({
      target: `HTML <= ${FIRST_ROUND_TRIP_BYTES} B (one round trip)`,
      value: bytes,
      pass: typeof bytes === 'number' && bytes <= FIRST_ROUND_TRIP_BYTES,
    });
    const admin = result.best.scripts.filter((script) => ADMIN_CHUNKS.has(new URL(script.url).pathname));
    checks.push({
      target: 'no admin code',
      value: admin.length ? admin.map((script) => new URL(script.url).pathname).join(' ') : 'none',
      pass: admin.length === 0,
    });
  }
  if (result.noFramework) {
    checks.push({
      target: 'no framework JS',
      value: result.best.frameworkJs ? 'react loaded' : 'none',
      pass: !result.best.frameworkJs,
    });
  }
  return checks;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (check) => (check ? (check.pass ? ' PASS' : ' MISS') : '');

function printTable(results) {
  const header = [
    'page',
    'perf',
    'a11y',
    'best-pr',
    'seo',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS bytes',
    'React/island JS',
    'runs: perf/TBT',
    'other checks',
  ];
  const rows = results.map((r) => {
    const s = r.best.scores;
    const find = (prefix) => r.checks.find((c) => c.target.startsWith(prefix));
    const cell = (v) => (v == null ? '-' : String(v));
    return [
      r.path,
      r.lighthouse ? cell(s.performance) + mark(find('performance')) : '-',
      r.lighthouse ? cell(s.accessibility) + mark(find('accessibility')) : '-',
      r.lighthouse ? cell(s['best-practices']) + mark(find('best-practices')) : '-',
      r.lighthouse ? cell(s.seo) + (r.noindex ? ' (noindex)' : mark(find('seo'))) : '-',
      r.lighthouse ? cell(r.best.lcpMs) + mark(find('LCP')) : '-',
      r.lighthouse ? cell(r.best.tbtMs) + mark(find('TBT')) : '-',
      r.lighthouse ? cell(r.best.cls) + mark(find('CLS')) : '-',
      `${r.best.jsBytes} (${kb(r.best.jsBytes)})`,
      (r.best.frameworkJs ? 'yes' : 'no') + mark(find('no framework')),
      r.runs.map((run) => `${run.scores.performance ?? '-'}/${run.tbtMs ?? '-'}`).join(' '),
      r.checks
        .filter((c) => !/^(performance|accessibility|best-practices|seo|LCP|TBT|CLS|no framework)/.test(c.target))
        .map((c) =>
          c.target.startsWith('HTML') ? `HTML ${c.value} B <= ${FIRST_ROUND_TRIP_BYTES}${mark(c)}` : `${c.target}${mark(c)}`,
        )
        .join(', ') || '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log();
  console.log(
    `Lighthouse ${results[0]?.lighthouseVersion ?? ''} mobile, simulated throttling (CPU ${CPU_SLOWDOWN}× slower), ${PICK === 'best' ? 'best performance run' : 'each figure the median'} of ${RUNS}`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));

  console.log('\nLCP element and long main-thread tasks (reported run):');
  for (const r of results) {
    console.log(`  ${r.path}: LCP ${r.best.lcpElement?.selector ?? '(none)'}`);
    for (const t of r.best.longTasks)
      console.log(`    long task ${String(t.durationMs).padStart(5)} ms at ${String(t.startMs).padStart(6)} ms  ${t.url}`);
  }

  console.log('\nScripts loaded (transfer size):');
  for (const r of results) {
    console.log(`  ${r.path}`);
    if (!r.best.scripts.length) console.log('    (none)');
    for (const s of r.best.scripts)
      console.log(`    ${String(s.transferSize).padStart(8)} B  ${s.url}${s.framework ? '  [framework]' : ''}`);
  }
}

/** The control a page's TBT compares with: the plain page, with the opener policy when the page carries it. */
function floorNote(page, floor) {
  if (!floor) return '';
  if (page.openerPolicy && floor.withOpenerPolicy)
    return `; this page carries the opener policy: the plain page with it blocked ${floor.withOpenerPolicy.tbtMs} ms in this run, without it ${floor.tbtMs} ms`;
  return `; the plain page's TBT in this run: ${floor.tbtMs} ms`;
}

function printMisses(results, floor = null) {
  const missed = results.filter((r) => r.checks.some((c) => !c.pass));
  if (!missed.length) return;
  console.log('\nWhat cost points on pages that miss a target:');
  for (const r of missed) {
    const failed = r.checks
      .filter((c) => !c.pass)
      .map((c) => `${c.target} (got ${c.value})`)
      .join(', ');
    console.log(`\n  ${r.path}: MISS ${failed}`);
    if (r.best.lcpElement) console.log(`    LCP element: ${r.best.lcpElement.selector}  ${r.best.lcpElement.snippet ?? ''}`);
    if (r.checks.some((c) => c.target.startsWith('TBT') && !c.pass)) {
      const by = r.best.blockingBySource;
      console.log(
        `    TBT: time past 50 ms in the reported run's long tasks, by source: browser ${by.browser} ms, page (HTML, layout, inline and module scripts in its microtasks) ${by.page} ms, /_astro/ scripts ${by.scripts} ms, Lighthouse ${by.lighthouse} ms, other ${by.other} ms${floorNote(r, floor)} (why and what next: ${TBT_NOTES})`,
      );
    }
    for (const check of r.checks.filter((c) => !c.pass)) {
      const categoryId = check.target.split(' ')[0];
      if (!CATEGORIES.includes(categoryId) && check.target !== 'no framework JS') continue;
      if (check.target === 'no framework JS') {
        for (const s of r.best.scripts.filter((x) => x.framework))
          console.log(`    framework script: ${s.url} (${s.transferSize} B)`);
        continue;
      }
      for (const a of r.diagnostics[categoryId] ?? []) {
        const savings = a.metricSavings
          ? ' savings ' +
            Object.entries(a.metricSavings)
              .filter(([, v]) => v)
              .map(([k, v]) => `${k} ${round(v, k === 'CLS' ? 3 : 0)}`)
              .join(', ')
          : '';
        console.log(
          `    [${categoryId}] ${a.id} (score ${a.score}, weight ${a.weight})${a.displayValue ? ` ${a.displayValue}` : ''}${savings}: ${a.title}`,
        );
        for (const item of a.items) {
          console.log(`      - ${[item.selector, item.url, item.snippet].filter(Boolean).join('  ')}`);
        }
      }
    }
  }
}

/**
 * Measures every page (or those BENCH_PAGES names) on the store at `origin` with the Chromium
 * listening on `chromePort`, each with its checks; `buildDir` is the build the store serves
 * (for the admin chunks no shopper page may load).
 */
export async function measurePages(origin, chromePort, buildDir) {
  findAdminChunks(buildDir);
  console.error(`admin chunks in the build: ${[...ADMIN_CHUNKS].join(' ') || 'none'}`);
  const results = [];
  for (const page of PAGES.filter((p) => !ONLY_PAGES || ONLY_PAGES.has(p.name))) {
    const result = await measure(page, origin, chromePort);
    result.checks = checkTargets(result);
    results.push(result);
  }
  return results;
}

/**
 * The TBT floor: a page with one heading and one paragraph and nothing else (no script, no style,
 * no picture), from a plain Node server, measured by the same Chromium with the same settings and
 * number of runs as the store's pages. What it blocks is what this machine's Chromium and
 * Lighthouse's simulation cost before any page of ours has done anything: the navigation's own
 * commit, timed on this CPU and multiplied by four. Printed beside the pages' TBT; no budget
 * is moved by it.
 *
 * The same plain page is also measured with `Cross-Origin-Opener-Policy: same-origin`, the header
 * the pages with a person's data carry (decision 013): entering such a page from Lighthouse's
 * about:blank makes Chromium start a new browsing-context group, in a renderer of its own, and
 * that work lands in the page's load. The two are run in turns, so that both see the same machine.
 */
const FLOOR_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>A plain page</title><meta name="description" content="One heading and one paragraph."></head>' +
  '<body><h1>A plain page</h1><p>One heading and one paragraph: what the browser costs before a page does anything.</p></body></html>';

export async function measureFloor(chromePort) {
  const server = createServer((request, response) => {
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    if (request.url === '/opener-policy') headers[OPENER_POLICY_HEADER] = 'same-origin';
    response.writeHead(200, headers);
    response.end(FLOOR_PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const plain = [];
    const withPolicy = [];
    for (let i = 0; i < RUNS; i++) {
      for (const [runs, path, what] of [
        [plain, '/', 'the plain page (TBT floor)'],
        [withPolicy, '/opener-policy', 'the plain page with the opener policy'],
      ]) {
        process.stderr.write(`lighthouse ${what} run ${i + 1}/${RUNS}...\n`);
        const lhr = await lighthouseRun(origin + path, chromePort, ['performance']);
        runs.push({ tbtMs: round(lhr.audits['total-blocking-time']?.numericValue), longTasks: longTasksOf(lhr) });
      }
    }
    return { ...medianTbt(plain), withOpenerPolicy: medianTbt(withPolicy) };
  } finally {
    // Chromium keeps a connection open (a preconnect that never sends a request), which close()
    // would wait for until the server's request timeout, five minutes.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function medianTbt(runs) {
  const sorted = runs.map((r) => r.tbtMs).sort((a, b) => a - b);
  return { tbtMs: sorted[Math.floor((sorted.length - 1) / 2)], runs };
}

/**
 * Prints the pages' table, their LCP elements, long tasks and scripts, the TBT floor of this
 * machine (when measured), and what cost points where a target was missed.
 */
export function printPages(results, floor = null) {
  printTable(results);
  if (floor) printFloor(floor);
  printHost(results);
  printMisses(results, floor);
}

/** The host's CPU as Lighthouse measured it (each run's benchmarkIndex), and what that means for the simulated phone. */
function printHost(results) {
  const indexes = results
    .flatMap((r) => r.runs.map((run) => run.benchmarkIndex))
    .filter((n) => n != null)
    .sort((a, b) => a - b);
  if (!indexes.length) return;
  const median = indexes[Math.floor((indexes.length - 1) / 2)];
  const suggested = suggestedSlowdown(median);
  console.log(
    `\nHost CPU: Lighthouse benchmarkIndex ${Math.round(median)} (median of ${indexes.length} runs, ${Math.round(indexes[0])}–${Math.round(indexes.at(-1))}). ` +
      `These figures simulate a CPU ${CPU_SLOWDOWN}× slower${CPU_SLOWDOWN === DEFAULT_CPU_SLOWDOWN ? " (Lighthouse's default, the budgets' setting)" : ' (BENCH_CPU_SLOWDOWN)'}; ` +
      (suggested == null
        ? 'Lighthouse calls a host this slow too slow to emulate a mid-tier phone.'
        : `for a mid-tier phone on this host Lighthouse's calculator suggests ${suggested.toFixed(1)}× (BENCH_CPU_SLOWDOWN=${suggested.toFixed(1)}).`),
  );
}

function printFloor(floor) {
  const lines = [
    ['TBT floor, a plain page (one heading, one paragraph, no script) measured the same way', floor],
    ['The same plain page with Cross-Origin-Opener-Policy: same-origin', floor.withOpenerPolicy],
  ];
  for (const [title, measured] of lines) {
    if (!measured) continue;
    console.log(
      `\n${title}: ${measured.tbtMs} ms median (runs ${measured.runs.map((r) => r.tbtMs).join(', ')} ms; budget ${TARGETS.tbtMs} ms)`,
    );
    for (const [i, run] of measured.runs.entries())
      for (const t of run.longTasks)
        console.log(
          `    run ${i + 1}: long task ${String(t.durationMs).padStart(5)} ms at ${String(t.startMs).padStart(6)} ms  ${t.url}`,
        );
  }
}

/** The settings the results file records for the pages part. */
export const PAGE_SETTINGS = {
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
  cpuSlowdownMultiplier: CPU_SLOWDOWN,
  runsPerPage: RUNS,
  pick:
    PICK === 'best'
      ? 'best performance score'
      : 'each figure its median over the runs (of an even number, the better middle one)',
};
