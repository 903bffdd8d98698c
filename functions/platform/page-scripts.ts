/**
 * A page's module scripts start after its first paint, with every module they import preloaded
 * then, all at once.
 *
 * Why they start late: Astro writes each page's scripts as `<script type="module" src>`, which a
 * browser fetches as soon as it reads the tag and runs once the page is parsed, on a fast link
 * before the first paint. The first screen then waited for the header's, the listing's or the
 * product form's code, none of which it needs to be seen: on Lighthouse's mobile phone the first
 * paint came at ~1.1 s with them and ~0.7 s without (issue 23; docs/decisions/027). On a slow
 * link they also took bandwidth from the page's pictures. The build (scripts/build/page-scripts.ts)
 * and the Worker (functions/worker.ts) take the tags out and list them in a JSON block in the head;
 * PAGE_SCRIPTS_STARTER (an inline script right after it, src/layouts/PageScripts.astro) preloads
 * them once the first content is shown and adds them back, in page order, once the page is also
 * parsed. A page without JavaScript is unchanged: its forms and links work as they did.
 *
 * Why every import is preloaded: a page's scripts import shared modules, which import others. A
 * browser finds each level only once the one above has arrived, so on a slow phone (400 ms a round
 * trip) every level would cost a round trip before the controls answer. Preloaded with the
 * scripts, they are all fetched at once. Only static imports are listed: what a script loads on
 * demand (React with the first toast, say) stays on demand. Nothing runs earlier: a preloaded
 * module runs when the script that imports it does.
 *
 * Runs in the Worker and in Node (the build): plain strings, no DOM.
 */

import { INSTALL_OFFER } from '../../src/features/pwa/install-offer.ts';
import { PAGE_START_UPS } from '../../src/lib/start-up.ts';

/** The attribute of the JSON block that lists a page's scripts and their imports. */
export const PAGE_SCRIPTS_ATTRIBUTE = 'data-page-scripts';

/**
 * The longest the starter waits for the first paint to be reported once the page is parsed: a
 * browser that reports none (or not in time) gets its scripts then.
 */
const PAINT_WAIT_MS = 2000;

/** Where the build puts the scripts: only modules there are read, preloaded and started. */
const BUILT_MODULES = '/_astro/';

/**
 * The inline script every page carries in its head (src/layouts/PageScripts.astro, with its hash
 * in the page's policy), right after the page's list of scripts, which is the only list it reads.
 * Only the build's own files (/_astro/) are taken from it.
 * - Once the page's first content is on the screen (the browser's first-contentful-paint entry,
 *   which comes when the frame is shown, often while the rest of the page is still being read), it
 *   preloads the listed scripts and every module they import: fetched, not run. In a browser
 *   without paint timing that is the next animation frame once the page is parsed; in a hidden
 *   tab, which paints nothing, at once; and if no paint is reported within 2 s of the page being
 *   parsed, then.
 * - Once the page is also parsed, in the next turn, it adds the listed scripts in page order, and
 *   marks `<html data-scripts="ran">` when each has run (or failed to load) and the start-up they
 *   left to later turns has finished (`window[PAGE_START_UPS]`, src/lib/turns.browser.ts).
 *
 * Its turns come back ahead of other queued work where the browser can (`scheduler.yield()`): on
 * a slow phone a zero timeout waited half a second behind the page's pictures and paints.
 *
 * The browser's install offer (`beforeinstallprompt`) can come before the scripts start, and
 * is not made again: the starter holds it back as the frame's script would, and keeps it in
 * `window[INSTALL_OFFER]` for that script (src/features/pwa/pwa.browser.ts).
 */
export const PAGE_SCRIPTS_STARTER = `(() => {
  addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    window.${INSTALL_OFFER} = event;
  });
  const list = document.currentScript?.previousElementSibling;
  const page = list?.matches('script[${PAGE_SCRIPTS_ATTRIBUTE}]') ? JSON.parse(list.textContent) : { start: [], preload: [] };
  const built = (path) => typeof path === 'string' && path.startsWith(${JSON.stringify(BUILT_MODULES)});
  const hidden = () => document.visibilityState === 'hidden';
  // In a hidden tab nobody is there to tap, and a timer waits a second or more: no turns there.
  const nextTurn = (then) => {
    if (hidden()) then();
    else if (typeof window.scheduler?.yield === 'function') window.scheduler.yield().then(then);
    else setTimeout(then);
  };
  const whenParsed = (then) => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', then, { once: true });
    else then();
  };
  let preloaded = false;
  const preload = () => {
    if (preloaded) return;
    preloaded = true;
    for (const href of [...page.start, ...page.preload].filter(built)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    // The scripts in a turn of their own: adding a dozen elements, each a request, is a long task on a slow phone.
    whenParsed(() => nextTurn(addScripts));
  };
  const addScripts = () => {
    const scripts = page.start.filter(built);
    let left = scripts.length;
    const ran = () => {
      if (--left > 0) return;
      Promise.allSettled(window.${PAGE_START_UPS} ?? []).then(() => {
        document.documentElement.dataset.scripts = 'ran';
      });
    };
    if (left === 0) ran();
    for (const src of scripts) {
      const script = document.createElement('script');
      script.type = 'module';
      script.async = false;
      script.src = src;
      script.onload = script.onerror = ran;
      document.body.append(script);
    }
  };
  if (hidden()) preload();
  else if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) whenParsed(() => requestAnimationFrame(preload));
  else {
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      nextTurn(preload);
    }).observe({ type: 'paint', buffered: true });
    whenParsed(() => setTimeout(preload, ${PAINT_WAIT_MS}));
  }
})();`;

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

/** A module script of the build's as Astro writes it: `<script type="module" src="/_astro/…"></script>`. */
const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*\bsrc="(\/_astro\/[^"/]+\.js)"[^>]*><\/script>/g;

/** The URL paths of the build's module scripts a page loads (`<script type="module" src="/_astro/…">`), once each, in page order. */
export function moduleScripts(html: string): string[] {
  return [...new Set([...html.matchAll(MODULE_SCRIPT)].map((m) => m[1] ?? ''))];
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
 * The page with its module scripts taken out and listed, with every module they import (nearest
 * first), in one JSON block right before PAGE_SCRIPTS_STARTER (in the head), which starts them
 * after the first paint. Only a page that carries the starter is changed (any other keeps its
 * scripts as they are), and only once: a page that has the block already (the build wrote it) is
 * returned as is, as is a page with no module script.
 */
export async function withLateScripts(html: string, importsOf: ModuleImports): Promise<string> {
  const starter = html.indexOf(`>${PAGE_SCRIPTS_STARTER}</script>`);
  const at = starter < 0 ? -1 : html.lastIndexOf('<script', starter);
  if (at < 0 || html.includes(`${PAGE_SCRIPTS_ATTRIBUTE}>`)) return html;
  const scripts = moduleScripts(html);
  if (scripts.length === 0) return html;
  const preload = (await importLevels(scripts, importsOf)).flat();
  // JSON of /_astro/ paths (no quote, angle bracket or slash pair can close the block early).
  const block = `<script type="application/json" ${PAGE_SCRIPTS_ATTRIBUTE}>${JSON.stringify({ start: scripts, preload })}</script>`;
  // Astro writes a component's script after </html> at times (the browser reads it into the body):
  // every one goes, wherever it is.
  return `${html.slice(0, at)}${block}${html.slice(at)}`.replace(MODULE_SCRIPT, '');
}
