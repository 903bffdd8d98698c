import { THEME_SCRIPT } from '../../src/features/theme/theme-script.ts';
import { cspHash } from './crypto.ts';
import { PAGE_SCRIPTS_STARTER } from './page-scripts.ts';
import { PAGE_CSP_DIRECTIVES } from './security-headers.ts';

/**
 * The whole Content-Security-Policy of one HTML page, for its response header: the store's page
 * directives (default-src 'self' and the fetch directives), frame-ancestors, and script-src and
 * style-src listing the SHA-256 of exactly the inline scripts and styles this page holds: its
 * real <script> and <style> elements, read as a browser reads the page (inlineElements()), so
 * that a visitor's text shown back in an attribute is never taken for one. With `known` (the
 * hashes Astro's build knows for the whole site, which its policy for a page rendered on demand
 * lists), only those: a script that got into a page some other way (a templating slip that
 * writes a visitor's text as HTML) is not allowed to run.
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
export async function pagePolicy(html: string, known?: ReadonlySet<string>): Promise<string> {
  const [scripts, styles] = await Promise.all([hashes(inlineScripts(html), known), hashes(inlineStyles(html), known)]);
  return [
    ...PAGE_CSP_DIRECTIVES,
    "frame-ancestors 'none'",
    ["script-src 'self'", ...scripts].join(' '),
    ["style-src 'self'", ...styles].join(' '),
  ].join('; ');
}

/**
 * The inline scripts our own pages carry (src/components/InlineScript.astro's uses). Astro adds
 * their hashes to a page's policy as the page renders (`Astro.csp.insertScriptHash`): too late for
 * the header of a page it streams, so its policy for a page rendered on demand lists only the
 * hashes of its own scripts and of the site's styles.
 */
const OWN_INLINE_SCRIPTS = [THEME_SCRIPT, PAGE_SCRIPTS_STARTER];
let ownHashes: Promise<string[]> | undefined;

/**
 * Every hash a page rendered on demand may list (pagePolicy's `known`): those in Astro's policy
 * for it, which covers the whole site, and those of our own inline scripts.
 */
export async function knownHashes(astrosPolicy: string): Promise<Set<string>> {
  ownHashes ??= Promise.all(OWN_INLINE_SCRIPTS.map(async (code) => `'${await cspHash(code)}'`));
  return new Set([...(astrosPolicy.match(/'sha256-[A-Za-z0-9+/=]+'/g) ?? []), ...(await ownHashes)]);
}

/** The text of each inline script a browser runs (not a src= script, not a JSON data block such as JSON-LD). */
export function inlineScripts(html: string): string[] {
  return inlineElements(html)
    .filter(({ name }) => name === 'script')
    .filter(({ attributes }) => !/(^|\s)src\s*=/i.test(attributes))
    .filter(({ attributes }) => !/(^|\s)type\s*=\s*["']?application\/(?:ld\+)?json/i.test(attributes))
    .map(({ text }) => text);
}

/** The text of each <style> element. */
export function inlineStyles(html: string): string[] {
  return inlineElements(html)
    .filter(({ name }) => name === 'style')
    .map(({ text }) => text);
}

/** Elements whose content the browser reads as text up to their end tag: no tag inside them starts. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

interface InlineElement {
  name: 'script' | 'style';
  /** The start tag's attributes, as written. */
  attributes: string;
  text: string;
}

/**
 * The page's real <script> and <style> elements, read as a browser's tokenizer reads the page:
 * what looks like a tag inside an attribute's value, a comment, or another element read as text
 * (a <textarea>, a <title>) is text, not an element. A visitor's words shown back in an attribute
 * (a search in a <meta>, a name in an alt) must never be taken for a script the page runs.
 */
function inlineElements(html: string): InlineElement[] {
  const found: InlineElement[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    const next = html[open + 1] ?? '';
    if (next === '!' || next === '?' || next === '/') {
      // A doctype, a bogus comment or an end tag: up to its '>' (no quotes in them).
      const end = html.indexOf('>', open + 2);
      at = end < 0 ? html.length : end + 1;
      continue;
    }
    const name = /^[a-zA-Z][^\s/>]*/.exec(html.slice(open + 1, open + 64))?.[0]?.toLowerCase();
    if (!name) {
      at = open + 1;
      continue;
    }
    const tagEnd = startTagEnd(html, open + 1 + name.length);
    const attributes = html.slice(open + 1 + name.length, tagEnd);
    at = tagEnd + 1;
    if (!RAW_TEXT.has(name)) continue;
    const close = new RegExp(`</${name}[\\s/>]`, 'i');
    const rest = html.slice(at);
    const end = close.exec(rest)?.index ?? rest.length;
    if (name === 'script' || name === 'style') found.push({ name, attributes, text: rest.slice(0, end) });
    at += end;
  }
  return found;
}

/** Where a start tag whose attributes begin at `from` ends (its '>'), attribute values skipped. */
function startTagEnd(html: string, from: number): number {
  let at = from;
  while (at < html.length) {
    const c = html[at];
    if (c === '>') return at;
    at++;
    if (c !== '=') continue;
    while (/\s/.test(html[at] ?? '')) at++;
    const quote = html[at];
    if (quote === '"' || quote === "'") {
      const end = html.indexOf(quote, at + 1);
      if (end < 0) return html.length;
      at = end + 1;
    } else {
      while (at < html.length && !/[\s>]/.test(html[at]!)) at++;
    }
  }
  return html.length;
}

/** Each text's CSP source, 'sha256-…', once each, in page order; only those in `known` when it is given. */
async function hashes(texts: readonly string[], known?: ReadonlySet<string>): Promise<string[]> {
  const sources = await Promise.all(texts.map(async (text) => `'${await cspHash(text)}'`));
  return [...new Set(sources)].filter((source) => !known || known.has(source));
}
