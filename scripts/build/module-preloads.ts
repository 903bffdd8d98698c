import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedImports, withModulePreloads } from '../../functions/platform/module-preloads.ts';
import { htmlFiles } from './page-headers.ts';

/**
 * After `astro build`: each pre-rendered page gets a modulepreload link for every module its
 * scripts import (functions/platform/module-preloads.ts), read from the built files. Returns how
 * many pages changed. Runs before the service worker's list of files is made, so the pages it
 * caches are these.
 */
export async function writeModulePreloads(clientDir: string): Promise<number> {
  const importsOf = cachedImports(async (path) => {
    const file = join(clientDir, path);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  });
  let changed = 0;
  for (const file of htmlFiles(clientDir)) {
    const html = readFileSync(file, 'utf8');
    const preloaded = await withModulePreloads(html, importsOf);
    if (preloaded === html) continue;
    writeFileSync(file, preloaded);
    changed += 1;
  }
  return changed;
}
