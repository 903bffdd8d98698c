import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
const [url] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const r = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] });
chrome.kill();
const a = r.lhr.audits;
const doc = a['network-requests'].details.items[0];
console.log(
  'doc',
  doc.transferSize,
  doc.resourceSize,
  'FCP',
  Math.round(a['first-contentful-paint'].numericValue),
  'LCP',
  Math.round(a['largest-contentful-paint'].numericValue),
  'TBT',
  Math.round(a['total-blocking-time'].numericValue),
);
const m = a['metrics'].details.items[0];
console.log(
  'observed FCP',
  m.observedFirstContentfulPaint,
  'observed LCP',
  m.observedLargestContentfulPaint,
  'observed load',
  m.observedLoad,
);
const tasks = a['main-thread-tasks']?.details?.items ?? [];
const before = tasks.filter((t) => t.startTime < m.observedFirstContentfulPaint);
console.log(
  'tasks before observed FCP',
  before.length,
  'ms',
  Math.round(before.reduce((s, t) => s + t.duration, 0)),
  before
    .filter((t) => t.duration > 10)
    .map((t) => Math.round(t.startTime) + ':' + Math.round(t.duration))
    .join(' '),
);
