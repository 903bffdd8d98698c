import { describe, expect, it } from 'vitest';
import {
  cachedImports,
  importLevels,
  type ModuleImports,
  moduleScripts,
  staticImports,
  withModulePreloads,
} from '../../functions/platform/module-preloads.ts';

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

const page = (body: string) =>
  `<!DOCTYPE html><html><head><script type="module" src="/_astro/page.js"></script></head><body><main><img src="/a.svg"></main>${body}</body></html>`;

describe('module preloads', () => {
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

  it('writes a link for each at the end of the body, after the content, and leaves a page that has them', async () => {
    const html = page(
      '<script type="module" src="/_astro/Header.js"></script><script type="module" src="/_astro/listing.js"></script>',
    );
    const preloaded = await withModulePreloads(html, siteImports);
    const links = [...preloaded.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
    expect(links).toEqual(['/_astro/shared.js', '/_astro/theme.js', '/_astro/price.js', '/_astro/atom.js']);
    expect(preloaded.indexOf('rel="modulepreload"')).toBeGreaterThan(preloaded.indexOf('</main>'));
    expect(preloaded.endsWith('</body></html>')).toBe(true);
    expect(await withModulePreloads(preloaded, siteImports)).toBe(preloaded);
    // Nothing to preload, or no body: the page as it was.
    expect(await withModulePreloads(page(''), siteImports)).toBe(page(''));
    expect(await withModulePreloads('<p>hello', siteImports)).toBe('<p>hello');
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
