import { PAGE_CSP_DIRECTIVES } from './security-headers.ts';
import { cspHash } from './crypto.ts';

/**
 * The whole Content-Security-Policy of one HTML page, for its response header: the store's page
 * directives (default-src 'self' and the fetch directives), frame-ancestors, and script-src and
 * style-src listing the SHA-256 of exactly the inline scripts and styles this page holds.
 *
 * Why: Astro writes a pre-rendered page's script policy only into a <meta> (its Cloudflare
 * adapter cannot send headers for static pages), so a scanner or anything that reads headers
 * saw a policy with no default-src or script-src, and a <meta> covers only what follows it.
 * Astro's list is the whole site's (about 2.3 KB), too long for a `_headers` line (2,000
 * characters) and too heavy for every page; a page's own list is a few hashes. The build writes
 * it into `_headers` for each page the static assets serve (scripts/build/page-headers.ts), and
 * the Worker sends it with the pre-rendered pages it serves itself (functions/worker.ts). The
 * build checks every page's against Astro's (each hash must be in the page's <meta> policy), then
 * takes the <meta> out: the header is the page's one script policy.
 *
 * Runs in the Worker and in Node (the build): Web Crypto only.
 */
export async function pagePolicy(html: string): Promise<string> {
  const [scripts, styles] = await Promise.all([hashes(inlineScripts(html)), hashes(inlineStyles(html))]);
  return [
    ...PAGE_CSP_DIRECTIVES,
    "frame-ancestors 'none'",
    ["script-src 'self'", ...scripts].join(' '),
    ["style-src 'self'", ...styles].join(' '),
  ].join('; ');
}

/** The text of each inline script a browser runs (not a src= script, not a JSON data block such as JSON-LD). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\btype=["']?application\/(?:ld\+)?json/i.test(m[1] ?? ''))
    .map((m) => m[2] ?? '');
}

/** The text of each <style> element. */
export function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '');
}

/** Each text's CSP source, 'sha256-…', once each, in page order. */
async function hashes(texts: readonly string[]): Promise<string[]> {
  const sources = await Promise.all(texts.map(async (text) => `'${await cspHash(text)}'`));
  return [...new Set(sources)];
}
