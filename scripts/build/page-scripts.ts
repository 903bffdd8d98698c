import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedImports, withLateScripts } from '../../functions/platform/page-scripts.ts';
import { htmlFiles } from './page-headers.ts';

/**
 * After `astro build`: each pre-rendered page's module scripts are listed, with every module they
 * import, for the page to start after its first paint (functions/platform/page-scripts.ts), read
 * from the built files. Returns how many pages changed. Runs before the service worker's list of
 * files is made, so the pages it caches are these.
 */
export async function writeLateScripts(clientDir: string): Promise<number> {
  const importsOf = cachedImports(async (path) => {
    const file = join(clientDir, path);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  });
  let changed = 0;
  for (const file of htmlFiles(clientDir)) {
    const html = readFileSync(file, 'utf8');
    const late = await withLateScripts(html, importsOf);
    if (late === html) continue;
    writeFileSync(file, late);
    changed += 1;
  }
  return changed;
}
