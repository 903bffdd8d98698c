import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pagePolicy } from '../../functions/platform/page-policy.ts';
import { isPrivatePage, OPENER_POLICY } from '../../functions/platform/security-headers.ts';

/**
 * Pages the Worker answers itself, with their policy as a header (functions/worker.ts): the home
 * page and product pages (wrangler.toml `run_worker_first`), and the 404 and 500 pages.
 */
const WORKER_SERVED = [/^\/$/, /^\/product\//, /^\/404$/, /^\/500$/];

/** Cloudflare's limits on `_headers`: rules per file and characters per line. */
export const HEADERS_LIMITS = { rules: 100, lineLength: 2000 };

/** Astro's site-wide policy in a pre-rendered page: one <meta> at the end of <head>. */
const META_POLICY = /<meta http-equiv="content-security-policy" content="([^"]+)">/i;

/**
 * After `astro build`: gives each pre-rendered page that the static assets serve its own
 * Content-Security-Policy header (functions/platform/page-policy.ts), as a rule of its path
 * appended to the build's `_headers`; the rules of PRIVATE_PAGES carry the opener policy too.
 * The pages the Worker serves get the same policy from functions/worker.ts.
 *
 * Then takes Astro's <meta> policy out of every page, so the header is the one script policy
 * (issue 23): the <meta> lists the whole site's hashes, about 2.3 KB of base64 that gzip cannot
 * shrink, which put the home page's first response over the 14.6 KB a new connection delivers
 * in its first round trip. It is read first: the build fails when a hash computed here is not in
 * it (the page would be read differently from Astro) or when Cloudflare's limits would be passed.
 * Runs before the service worker's precache list is made, which hashes the pages as served.
 */
export async function writePageHeaders(clientDir: string): Promise<{ path: string; policy: string }[]> {
  const rules: { path: string; policy: string }[] = [];
  for (const file of htmlFiles(clientDir)) {
    const path = pagePath(relative(clientDir, file));
    const html = readFileSync(file, 'utf8');
    const policy = await pagePolicy(html);
    const meta = META_POLICY.exec(html)?.[1]?.replaceAll('&#39;', "'");
    if (!meta) throw new Error(`${path}: no <meta> policy from Astro to check the page's own against`);
    for (const source of policy.match(/'sha256-[^']+'/g) ?? [])
      if (!meta.includes(source)) throw new Error(`${path}: ${source} is not in Astro's policy: the page was read differently`);
    writeFileSync(file, html.replace(META_POLICY, ''));
    if (!WORKER_SERVED.some((pattern) => pattern.test(path))) rules.push({ path, policy });
  }
  const headersFile = join(clientDir, '_headers');
  const existing = readFileSync(headersFile, 'utf8');
  // A page with a person's data also gets the opener policy (functions/platform/security-headers.ts).
  const opener = Object.entries(OPENER_POLICY)
    .map(([name, value]) => `  ${name}: ${value}\n`)
    .join('');
  const added = rules
    .map(({ path, policy }) => `${path}\n  Content-Security-Policy: ${policy}\n${isPrivatePage(path) ? opener : ''}`)
    .join('\n');
  const text = `${existing.trimEnd()}\n\n# Each pre-rendered page's own script and style hashes (scripts/build/page-headers.ts).\n${added}`;
  const ruleCount = text.split('\n').filter((line) => /^\S/.test(line) && !line.startsWith('#')).length;
  if (ruleCount > HEADERS_LIMITS.rules)
    throw new Error(`_headers has ${ruleCount} rules; Cloudflare takes ${HEADERS_LIMITS.rules}`);
  const long = text.split('\n').find((line) => line.length > HEADERS_LIMITS.lineLength);
  if (long) throw new Error(`_headers has a line of ${long.length} characters; Cloudflare takes ${HEADERS_LIMITS.lineLength}`);
  writeFileSync(headersFile, text);
  return rules;
}

/** The URL path a built file answers: index.html is /, about.html /about, sell-or-swap/status.html /sell-or-swap/status. */
export function pagePath(file: string): string {
  const path = `/${file.replaceAll('\\', '/').replace(/\.html$/, '')}`;
  return path === '/index' ? '/' : path.replace(/\/index$/, '');
}

/** Every built page (.html) under `dir`, in a stable order. */
export function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
