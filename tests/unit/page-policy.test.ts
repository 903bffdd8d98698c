import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScripts, inlineStyles, knownHashes, pagePolicy } from '../../functions/platform/page-policy.ts';
import { PAGE_SCRIPTS_STARTER } from '../../functions/platform/page-scripts.ts';
import { THEME_SCRIPT } from '../../src/features/theme/theme-script.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const listed = (policy: string, directive: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${directive} `))!
    .split(' ')
    .slice(2);

/**
 * A page's policy lists the hashes of its real inline scripts and styles only: a visitor's text
 * shown back in an attribute, a comment or a text-only element is read as the browser reads it,
 * as text (issue 23's one policy; the hole a review found: a search for `<script>…</script>` put
 * that script's hash in the search page's policy).
 */
describe('inlineScripts and inlineStyles read the page as a browser does', () => {
  const visitor = '<script>alert(document.cookie)</script><style>*{display:none}</style>';
  it.each([
    ['a double-quoted attribute', `<meta name="description" content="Search: ${visitor}">`],
    ['a single-quoted attribute', `<img alt='${visitor}' src="/x.svg">`],
    ['an attribute after an = with spaces', `<img alt = "${visitor}">`],
    ['an unquoted attribute with no space in it', '<img alt=<script>alert(1)</script>>'],
    ['a comment', `<!-- ${visitor} -->`],
    ['a textarea', `<textarea name="note">${visitor}</textarea>`],
    ['a title', `<title>${visitor}</title>`],
    ['a noscript', `<noscript>${visitor}</noscript>`],
  ])("a visitor's <script> and <style> in %s are not the page's", (_, markup) => {
    const html = `<!doctype html><html><head>${markup}<script>real()</script><style>p{margin:0}</style></head><body><p>x</p></body></html>`;
    expect(inlineScripts(html)).toEqual(['real()']);
    expect(inlineStyles(html)).toEqual(['p{margin:0}']);
  });

  it('takes inline scripts of any case and type but a data block, and no src= script', () => {
    const html = [
      '<SCRIPT>upper()</SCRIPT>',
      '<script type="module">mod()</script>',
      '<script src="/_astro/a.js"></script>',
      '<script type="module" src="/_astro/b.js"></script>',
      '<script type="application/ld+json">{"@type":"Product","name":"\\u003cscript>"}</script>',
      '<script type="application/json" data-page-scripts>{"start":[]}</script>',
      // A script's own text may hold what looks like a tag: it ends at its own end tag.
      '<script>const s = "<p>" + "<b>";</script>',
    ].join('');
    expect(inlineScripts(html)).toEqual(['upper()', 'mod()', 'const s = "<p>" + "<b>";']);
  });

  it('reads the page to its end when an element or a quote is never closed', () => {
    expect(inlineScripts('<p title="never closed <script>x()</script>')).toEqual([]);
    expect(inlineScripts('<script>never closed()')).toEqual(['never closed()']);
  });
});

describe('pagePolicy', () => {
  const html = '<head><script>own()</script><style>p{}</style></head><body><script>slipped()</script></body>';

  it("lists each inline script's and style's hash once", async () => {
    const policy = await pagePolicy(`${html}<script>own()</script>`);
    expect(listed(policy, 'script-src')).toEqual([sha256('own()'), sha256('slipped()')]);
    expect(listed(policy, 'style-src')).toEqual([sha256('p{}')]);
  });

  it('with the hashes the build knows, lists only those: a script a slip let into the page is not allowed', async () => {
    const policy = await pagePolicy(html, new Set([sha256('own()'), sha256('p{}')]));
    expect(listed(policy, 'script-src')).toEqual([sha256('own()')]);
    expect(listed(policy, 'style-src')).toEqual([sha256('p{}')]);
  });

  it("knows Astro's hashes and those of our own inline scripts, which Astro's header for a streamed page lacks", async () => {
    const known = await knownHashes(
      `default-src 'self'; script-src 'self' ${sha256('island()')}; style-src 'self' ${sha256('p{}')}`,
    );
    expect([...known].sort()).toEqual(
      [sha256('island()'), sha256('p{}'), sha256(THEME_SCRIPT), sha256(PAGE_SCRIPTS_STARTER)].sort(),
    );
  });
});
