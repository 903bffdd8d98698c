/**
 * The slow-phone part of `npm run bench` (issue 23): each page opened cold in Chromium on an
 * emulated slow 3G phone (400 kbit/s both ways, 400 ms round trip, CPU 4× slower), median of 3,
 * measuring
 *  - first content: the browser's first-contentful-paint;
 *  - controls answer: the moment the first screen's controls work, i.e. the page's module
 *    scripts have run (they start after the first paint and mark `<html data-scripts="ran">`,
 *    functions/platform/page-scripts.ts), every island on the page has hydrated (Astro removes an
 *    island's `ssr` attribute when it has) and the plain scripts of the listing and the product
 *    page have taken them over (`data-ready`);
 *  - the JavaScript transferred before that moment.
 * Targets: first content <= 1.5 s and controls <= 3 s on the home page, a category listing and
 * a product page.
 */
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../tests/e2e/browsers.ts';

export const SLOW_PHONE = { downKbps: 400, upKbps: 400, rttMs: 400, cpuSlowdown: 4 };
export const SLOW_PHONE_TARGETS = { firstContentMs: 1500, controlsMs: 3000 };
const RUNS = Math.max(1, Number(process.env.BENCH_SLOW_RUNS ?? 3));
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'category listing', path: '/products?category=phones' },
  { name: 'product page', path: '/product/sony-playstation-5-slim' },
];

async function measureOnce(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2.625,
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_PHONE.rttMs,
    downloadThroughput: (SLOW_PHONE.downKbps * 1000) / 8,
    uploadThroughput: (SLOW_PHONE.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const sizes = await response
      .request()
      .sizes()
      .catch(() => null);
    scripts.push({ at: Date.now(), bytes: (sizes?.responseBodySize ?? 0) + (sizes?.responseHeadersSize ?? 0) });
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  // The page's scripts mark <html> once they have run; islands drop `ssr` once hydrated; the
  // listing's and product page's plain scripts mark what they took over.
  const waiting =
    'html:not([data-scripts="ran"]), astro-island[ssr], [data-listing]:not([data-ready]), form[data-product-form]:not([data-ready])';
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, waiting, {
    timeout: 60_000,
    polling: 50,
  });
  const controlsAt = Date.now();
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    return { firstContentMs: paint ? Math.round(paint.startTime) : null, domReadyMs: Math.round(nav.domContentLoadedEventEnd) };
  });
  await context.close();
  const controlsMs = Math.max(timing.domReadyMs, controlsAt - started);
  const jsBytes = scripts.filter((s) => s.at <= controlsAt).reduce((sum, s) => sum + s.bytes, 0);
  return { firstContentMs: timing.firstContentMs, controlsMs, jsBytes };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

export async function slowPhoneRun(origin, chromePath) {
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  try {
    const results = [];
    for (const page of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        console.error(`slow phone ${page.path} run ${i + 1}/${RUNS}...`);
        runs.push(await measureOnce(browser, new URL(page.path, origin).href));
      }
      const firstContentMs = median(runs.map((r) => r.firstContentMs ?? Number.POSITIVE_INFINITY));
      const controlsMs = median(runs.map((r) => r.controlsMs));
      const jsBytes = median(runs.map((r) => r.jsBytes));
      results.push({
        ...page,
        runs,
        firstContentMs,
        controlsMs,
        jsBytes,
        checks: [
          {
            target: `first content <= ${SLOW_PHONE_TARGETS.firstContentMs} ms`,
            value: firstContentMs,
            pass: firstContentMs <= SLOW_PHONE_TARGETS.firstContentMs,
          },
          {
            target: `controls answer <= ${SLOW_PHONE_TARGETS.controlsMs} ms`,
            value: controlsMs,
            pass: controlsMs <= SLOW_PHONE_TARGETS.controlsMs,
          },
        ],
      });
    }
    return { settings: { ...SLOW_PHONE, runs: RUNS }, results };
  } finally {
    await browser.close();
  }
}

export function printSlowPhone({ settings, results }) {
  console.log(
    `\nSlow phone (${settings.downKbps} kbit/s, ${settings.rttMs} ms round trip, CPU ${settings.cpuSlowdown}× slower), median of ${settings.runs}, cold:`,
  );
  for (const r of results) {
    const marks = r.checks.map((c) => `${c.target} ${c.pass ? 'PASS' : 'MISS'}`).join(', ');
    console.log(
      `  ${r.name.padEnd(17)} first content ${String(r.firstContentMs).padStart(5)} ms, controls answer ${String(r.controlsMs).padStart(5)} ms (${(r.jsBytes / 1024).toFixed(0)} KB of scripts before)  ${marks}`,
    );
  }
}
