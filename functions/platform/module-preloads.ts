/**
 * `<link rel="modulepreload">` for every module a page's scripts import, written into the page.
 *
 * Why: a page's module scripts import shared modules, which import others (before the shared
 * chunk, the header's script was four imports deep: session → API client → API error → light
 * checks; the listing's and the product page's scripts still import two levels). A browser finds each level
 * only once the one above has arrived, so on a slow phone (400 ms a round trip) every level costs
 * a round trip before the controls answer. Listed in the page, they are all fetched at once, as soon
 * as the page has arrived. Only static imports are listed: what a script loads on demand (React
 * with the first toast, say) stays on demand. Nothing runs earlier: a preloaded module runs when
 * the script that imports it does.
 *
 * The build writes them into the pre-rendered pages (scripts/build/module-preloads.ts); the Worker
 * into the pages it renders (functions/worker.ts). Both read the built files the browser will get.
 * Runs in the Worker and in Node: plain strings, no DOM.
 */

/** Reads a built file by its URL path (/_astro/x.js), or undefined when there is none. */
export type ReadModule = (path: string) => Promise<string | undefined>;
/** The modules a built module imports statically (URL paths), or [] when it cannot be read. */
export type ModuleImports = (path: string) => Promise<readonly string[]>;

/**
 * A built module's imports, each file read once: its name has its content's hash in it, so its
 * imports never change (the Worker keeps them for as long as its instance lives).
 */
export function cachedImports(read: ReadModule): ModuleImports {
  const known = new Map<string, Promise<readonly string[]>>();
  return (path) => {
    let imports = known.get(path);
    if (!imports) {
      imports = read(path).then(
        (source) => (source === undefined ? [] : staticImports(source, path)),
        // A failed read is not kept: the next page asks again.
        () => {
          known.delete(path);
          return [];
        },
      );
      known.set(path, imports);
    }
    return imports;
  };
}

const PRELOAD = 'rel="modulepreload"';

/** Where the build puts the scripts: only modules there are read and preloaded. */
const BUILT_MODULES = '/_astro/';

/** The URL paths of the build's module scripts a page loads (`<script type="module" src="/_astro/…">`), in page order. */
export function moduleScripts(html: string): string[] {
  const paths = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="(\/_astro\/[^"/]+\.js)"[^>]*>/g)].map(
    (m) => m[1] ?? '',
  );
  return [...new Set(paths)];
}

/**
 * The URL paths a built module imports statically (`import … from "./x.js"`, `import "./x.js"`,
 * `export … from "./x.js"`), resolved against its own path; only the build's (under /_astro/).
 * Dynamic `import("./x.js")` is left out.
 */
export function staticImports(source: string, path: string): string[] {
  const imports = source.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w$\s{},*]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g);
  const paths = [...imports].map((m) => new URL(m[1] ?? '', `https://x${path}`).pathname);
  return [...new Set(paths.filter((p) => p.startsWith(BUILT_MODULES)))];
}

/**
 * Every module the given scripts import, however deep, each once, by how far it is from them: the
 * modules they import themselves first, then the modules those import, and so on. The scripts
 * themselves are not in it.
 */
export async function importLevels(scripts: readonly string[], importsOf: ModuleImports): Promise<string[][]> {
  const found = new Set<string>(scripts);
  const levels: string[][] = [];
  let level = [...scripts];
  while (level.length > 0) {
    const imports = await Promise.all(level.map(importsOf));
    level = imports.flat().filter((child) => !found.has(child) && found.add(child));
    if (level.length > 0) levels.push(level);
  }
  return levels;
}

/**
 * The page with a modulepreload link for each module its scripts import, at the end of its body:
 * after the content, so the pictures are asked for first (in the head, twenty preloads ahead of
 * them put Lighthouse's LCP from ~1.3 s to ~1.7 s on the listing), and still as soon as the page
 * has arrived, with the scripts themselves.
 * A page that already has modulepreload links (the build wrote them) or no body is returned as is.
 */
export async function withModulePreloads(html: string, importsOf: ModuleImports): Promise<string> {
  const end = html.lastIndexOf('</body>');
  if (end < 0 || html.includes(PRELOAD)) return html;
  const modules = (await importLevels(moduleScripts(html), importsOf)).flat();
  if (modules.length === 0) return html;
  const links = modules.map((path) => `<link ${PRELOAD} href="${path}">`).join('');
  return `${html.slice(0, end)}${links}${html.slice(end)}`;
}
