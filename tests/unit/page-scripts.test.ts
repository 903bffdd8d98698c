import { describe, expect, it } from 'vitest';
import {
  cachedImports,
  importLevels,
  type ModuleImports,
  moduleScripts,
  PAGE_SCRIPTS_STARTER,
  staticImports,
  withLateScripts,
} from '../../functions/platform/page-scripts.ts';

/** A built site's modules, by path: what each imports (as rolldown writes it, minified). */
const SITE: Record<string, string> = {
  '/_astro/Header.js': 'import{a as e}from"./shared.js";import"./theme.js";e();',
  '/_astro/listing.js': 'import{b}from"./shared.js";export{c}from"../_astro/price.js";const t=()=>import("./toast.js");',
  '/_astro/shared.js': 'import{x}from"./atom.js";var a=1;export{a,b};',
  '/_astro/theme.js': 'document.title="import \'./not-a-module.js\' in a string";',
  '/_astro/price.js': 'export const c=1;',
  '/_astro/atom.js': 'export const x=1;',
  '/_astro/toast.js': 'import"./react.js";',
};
const siteImports: ModuleImports = async (path) => {
  const source = SITE[path];
  return source === undefined ? [] : staticImports(source, path);
};

const STARTER = `<script>${PAGE_SCRIPTS_STARTER}</script>`;
const page = (body: string, starter = STARTER) =>
  `<!DOCTYPE html><html><head><script type="module" src="/_astro/page.js"></script><title>t</title>${starter}<style>p{}</style></head><body><main><img src="/a.svg"></main>${body}</body></html>`;
/** The JSON block of a page's scripts, read back. */
const listed = (html: string) =>
  JSON.parse(/<script type="application\/json" data-page-scripts>([^<]*)<\/script>/.exec(html)?.[1] ?? 'null');

describe('page scripts', () => {
  it('reads static imports and re-exports, resolved against the module, and not dynamic ones', () => {
    expect(staticImports(SITE['/_astro/listing.js'] ?? '', '/_astro/listing.js')).toEqual([
      '/_astro/shared.js',
      '/_astro/price.js',
    ]);
    expect(staticImports(SITE['/_astro/Header.js'] ?? '', '/_astro/Header.js')).toEqual([
      '/_astro/shared.js',
      '/_astro/theme.js',
    ]);
    expect(staticImports(SITE['/_astro/toast.js'] ?? '', '/_astro/toast.js')).toEqual(['/_astro/react.js']);
    expect(staticImports('export const c=1;import x from"https://cdn.example/x.js";', '/_astro/a.js')).toEqual([]);
    // Nothing outside the build's folder is read or named, however a path is written.
    expect(staticImports('import"../../etc/x.js";import"../sw.js";', '/_astro/a.js')).toEqual([]);
  });

  it("finds a page's module scripts, once each, in page order", () => {
    const html = page(
      '<script type="module" src="/_astro/Header.js"></script><script>inline()</script><script type="module" src="/_astro/Header.js"></script>',
    );
    expect(moduleScripts(html)).toEqual(['/_astro/page.js', '/_astro/Header.js']);
    // Only the build's own scripts: not another site's, not one elsewhere on this one.
    const others = '<script type="module" src="//cdn.example/_astro/x.js"></script><script type="module" src="/sw.js"></script>';
    expect(moduleScripts(page(others))).toEqual(['/_astro/page.js']);
  });

  it('lists every module the scripts import, however deep, each once, nearest first', async () => {
    expect(await importLevels(['/_astro/Header.js', '/_astro/listing.js'], siteImports)).toEqual([
      ['/_astro/shared.js', '/_astro/theme.js', '/_astro/price.js'],
      ['/_astro/atom.js'],
    ]);
  });

  it('takes the scripts out and lists them with every import right before the starter, once, on a page with the starter', async () => {
    const html = page(
      '<script type="module" src="/_astro/Header.js"></script><p>text</p><script type="module" src="/_astro/listing.js"></script>',
    );
    // Astro writes a component's script after </html> at times: it is taken too.
    const late = await withLateScripts(`${html}<script type="module" src="/_astro/price.js"></script>`, siteImports);
    // No module script and no preload left for the browser to fetch before the first paint.
    expect(late.replace(STARTER, '')).not.toMatch(/type="module"|modulepreload/);
    expect(listed(late)).toEqual({
      start: ['/_astro/page.js', '/_astro/Header.js', '/_astro/listing.js', '/_astro/price.js'],
      preload: ['/_astro/shared.js', '/_astro/theme.js', '/_astro/atom.js'],
    });
    // The rest of the page as it was, the list right before the starter (which reads the element before it).
    expect(late).toContain('<main><img src="/a.svg"></main><p>text</p>');
    expect(late).toMatch(/<title>t<\/title><script type="application\/json" data-page-scripts>[^<]*<\/script><script>/);
    expect(late).toContain(`${STARTER}<style>p{}</style></head>`);
    // Once: a page that has its list already is left.
    expect(await withLateScripts(late, siteImports)).toBe(late);
  });

  it('leaves a page without the starter, or with no module script, as it is', async () => {
    const html = page('<script type="module" src="/_astro/Header.js"></script>', '');
    expect(await withLateScripts(html, siteImports)).toBe(html);
    const none = `<!DOCTYPE html><html><head>${STARTER}</head><body><p>hi</p><script>x()</script></body></html>`;
    expect(await withLateScripts(none, siteImports)).toBe(none);
    expect(await withLateScripts('<p>hello', siteImports)).toBe('<p>hello');
  });

  it('reads each file once, and again after a failed read', async () => {
    const reads: string[] = [];
    let fail = true;
    const importsOf = cachedImports(async (path) => {
      reads.push(path);
      if (path === '/_astro/shared.js' && fail) throw new Error('assets unavailable');
      return SITE[path];
    });
    expect(await importsOf('/_astro/shared.js')).toEqual([]);
    fail = false;
    expect(await importsOf('/_astro/shared.js')).toEqual(['/_astro/atom.js']);
    expect(await importsOf('/_astro/shared.js')).toEqual(['/_astro/atom.js']);
    expect(await importsOf('/_astro/missing.js')).toEqual([]);
    expect(reads).toEqual(['/_astro/shared.js', '/_astro/shared.js', '/_astro/missing.js']);
  });
});
