// @ts-check
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import AstroPWA from '@vite-pwa/astro';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_CSP_DIRECTIVES } from './functions/platform/security-headers.ts';
import { writeLateScripts } from './scripts/build/page-scripts.ts';
import { writePageHeaders } from './scripts/build/page-headers.ts';

const site = process.env.SITE_URL ?? 'https://gts.ng';
const outDir = process.env.BUILD_DIR ?? 'dist';
const shortcutIcons = [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }];
/**
 * Where the adapter writes the files the browser gets: the service worker and manifest go there
 * too. BUILD_DIR may be relative to this file or absolute (/tmp/build-x).
 */
const clientDir = `${resolve(fileURLToPath(new URL('.', import.meta.url)), outDir, 'client')}/`;

/**
 * The installable app (docs/decisions/015-service-worker-and-offline.md): the manifest and
 * /sw.js, built from src/sw/sw.ts with the list of files it pre-caches. With output
 * 'static' plus an adapter, @vite-pwa/astro writes into the server folder unless `outDir`
 * and the glob directory point at the client folder.
 */
function pwa() {
  return AstroPWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    outDir: clientDir,
    // Registered by src/features/pwa/register.browser.ts (plain ServiceWorker API, once the page has settled),
    // which offers a new version instead of reloading; the plugin injects no registration of its own.
    registerType: 'prompt',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      id: '/',
      name: 'GTS Electronics',
      short_name: 'GTS',
      description: 'Phones, laptops, TVs, consoles and games at honest naira prices. Pay by bank transfer, track your order.',
      lang: 'en-NG',
      dir: 'ltr',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      categories: ['shopping'],
      // The store is dark by default; the light colours are the light theme's (src/styles/global.css).
      theme_color: '#0b1016',
      background_color: '#0b1016',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
      shortcuts: [
        { name: 'Products', short_name: 'Products', url: '/products', icons: shortcutIcons },
        { name: 'Cart', short_name: 'Cart', url: '/cart', icons: shortcutIcons },
        { name: 'Track order', short_name: 'Track', url: '/track', icons: shortcutIcons },
      ],
      // The richer install sheet (scripts/make-pwa-screenshots.ts takes them from a built store).
      screenshots: [
        {
          src: '/screenshots/home-wide.webp',
          sizes: '1280x720',
          type: 'image/webp',
          form_factor: 'wide',
          label: 'The GTS store on a computer',
        },
        {
          src: '/screenshots/products-narrow.webp',
          sizes: '412x915',
          type: 'image/webp',
          form_factor: 'narrow',
          label: 'Browsing phones on a phone',
        },
        {
          src: '/screenshots/cart-narrow.webp',
          sizes: '412x915',
          type: 'image/webp',
          form_factor: 'narrow',
          label: 'The cart, kept on the phone',
        },
      ],
    },
    injectManifest: {
      globDirectory: clientDir,
      // The app shell (every script and style), the core pages and the icons. Product pages
      // and images are kept at run time, when the shopper opens them (src/sw/sw.ts).
      globPatterns: [
        '_astro/**/*.{js,css}',
        '{index,track,offline,about,contact,shipping,returns,warranty,privacy,terms}.html',
        'icons/*.png',
        'logo192.png',
      ],
      // The admin's chunks (AdminApp, AdminConsole with the features' admin screens, admin-*.browser, the chart)
      // are for /admin only: never downloaded into a shopper's cache.
      globIgnores: ['**/node_modules/**', 'sw.js', 'workbox-*.js', '_astro/Admin*', '_astro/admin*', '_astro/chart.browser*'],
      // The cart renders in the Worker (it shows lines added without JavaScript), so it has no
      // file to glob; the app's copy is its shell, and the cart itself lives in localStorage.
      additionalManifestEntries: [{ url: '/cart', revision: String(Date.now()) }],
      // The server build's Vite settings would leave it unminified (about 100 KB instead of 25).
      minify: true,
      sourcemap: false,
    },
    devOptions: { enabled: false },
  });
}

/**
 * An integration that runs one step on the built pages (`astro:build:done`) and logs what it did.
 * Steps run in the order their integrations are listed.
 */
function afterBuild(/** @type {string} */ name, /** @type {() => Promise<string>} */ step) {
  return {
    name,
    hooks: {
      'astro:build:done': async (/** @type {{ logger: { info(message: string): void } }} */ { logger }) => {
        logger.info(await step());
      },
    },
  };
}

/**
 * Each pre-rendered page's script policy as a response header, and only there (issue 23):
 * written into the build's `_headers` once the pages exist, and Astro's site-wide <meta> taken
 * out of the pages (scripts/build/page-headers.ts). Listed before pwa(): the pages the service
 * worker caches are these.
 */
const pagePolicyHeaders = () =>
  afterBuild('gts:page-policy-headers', async () => {
    const rules = await writePageHeaders(clientDir);
    return `_headers: a Content-Security-Policy for each of ${rules.length} pre-rendered pages`;
  });

/**
 * Each pre-rendered page's scripts start after its first paint, with every module they import
 * preloaded then, so a slow phone fetches them at once instead of one import level per round trip
 * (issue 23; scripts/build/page-scripts.ts). Listed before pwa(): the pages the service worker caches are these.
 */
const lateScripts = () =>
  afterBuild(
    'gts:late-scripts',
    async () => `scripts after the first paint in ${await writeLateScripts(clientDir)} pre-rendered pages`,
  );

/**
 * The small modules every page's plain scripts share (the cart store, the session, the API
 * client and its light checks, nanostores, the toast queue, the connection watch, money) in one
 * chunk instead of about fifteen: on a slow link every file costs a request (HTTP/1.1 asks six at a
 * time) and about 300 bytes of headers, and this one chunk is most of every page's start-up code.
 * With lateScripts() below, the listing's controls on the slow-3G phone answer at ~2.2 s
 * instead of ~3.0 s (issue 23; decision 004 has the trial). Vite's preload helper, which every
 * page loaded as a file of its own, is in it too (Rolldown keeps its runtime helpers in their own
 * file whatever the groups say). Browser build only.
 */
const SHARED_BY_PAGE_SCRIPTS =
  /^\0vite[\\/]preload-helper\.js$|[\\/](src[\\/]lib[\\/](light-schema|api-client\.browser|api-error|api-contract|money)\.ts|src[\\/]features[\\/](cart[\\/](cart|cart-store\.browser)|account[\\/](session|session\.browser)|pwa[\\/]connection\.browser|toast[\\/]notify\.browser|theme[\\/]theme\.browser)\.ts|node_modules[\\/](nanostores|@nanostores[\\/]persistent)[\\/])/;

function pageScriptsChunk() {
  return {
    name: 'gts:page-scripts-chunk',
    applyToEnvironment: (/** @type {{ name: string }} */ environment) => environment.name === 'client',
    outputOptions(/** @type {Record<string, unknown>} */ options) {
      return { ...options, codeSplitting: { groups: [{ name: 'shared', test: SHARED_BY_PAGE_SCRIPTS }] } };
    },
  };
}

/**
 * Zod 4 probes whether it may compile parsers with `new Function` the first time it parses
 * an object. The CSP forbids eval, so the probe fails (zod falls back) but the browser still
 * reports a CSP violation each time a page loads it. `jitless` skips the probe; it must be
 * set before any parse, so it is set where zod's config lives: the end of its core module,
 * in the browser bundle only. The build fails if that module no longer has `config()`.
 */
function zodJitlessInBrowser() {
  return {
    name: 'gts:zod-jitless-in-browser',
    applyToEnvironment: (/** @type {{ name: string }} */ environment) => environment.name === 'client',
    transform(/** @type {string} */ code, /** @type {string} */ id) {
      if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null;
      if (!code.includes('export function config('))
        throw new Error(`zod's core module (${id}) has no config(): update zodJitlessInBrowser in astro.config.mjs`);
      return { code: `${code}\nconfig({ jitless: true });\n`, map: null };
    },
  };
}

export default defineConfig({
  site,
  // Pages are pre-rendered unless they say `export const prerender = false`: the listing
  // (/products), the cart (/cart and POST /cart/add), /product/{id} for a product with no
  // pre-rendered page, and the newsletter's subscribe, confirm and unsubscribe pages render on demand
  // in the Worker (docs/decisions/016). Cloudflare serves the pre-rendered files before the
  // Worker runs; the one Worker (functions/worker.ts) answers /api/* and hands the paths with
  // no file to the adapter, which renders those pages and the 404 page.
  output: 'static',
  // BUILD_DIR lets two builds of one checkout coexist (a test run and a benchmark, say);
  // scripts/serve.ts serves the same folder.
  outDir,
  // /product/x is served from product/x.html, with no trailing-slash redirect.
  // The page's CSS is in the page (a few KB gzipped): a phone on a slow link paints once the HTML
  // has arrived, without another round trip for a stylesheet first (issue 23). Astro hashes each
  // <style> for the CSP.
  build: { format: 'file', inlineStylesheets: 'always' },
  trailingSlash: 'never',
  adapter: cloudflare({ imageService: 'passthrough' }),
  // Astro sessions are not used: no SESSION KV namespace to provision.
  session: false,
  integrations: [react(), lateScripts(), pagePolicyHeaders(), pwa()],
  // No Astro prefetch: no link asked for it (data-astro-prefetch), yet its script loaded on every page
  // and walked every link three times at load (a long task on the listing). The service worker
  // keeps the core pages; the listing's script fetches a listing when a filter or page is chosen (issue 23).
  // Content-Security-Policy without 'unsafe-inline' (docs/decisions, functions/platform/security-headers.ts):
  // Astro hashes every script and style it emits (island loaders, inlined scripts, CSS)
  // into script-src/style-src, in a <meta> on pre-rendered pages and in the header on
  // pages rendered on demand. ThemeScript.astro adds its own hash. The build checks each
  // pre-rendered page's own hashes against that <meta>, sends them as a header instead and
  // drops the <meta> (pagePolicyHeaders() above); public/_headers and functions/worker.ts add
  // what applies to every page (frame-ancestors).
  // No Markdown pages: Shiki's inline styles (the default highlighter) would need 'unsafe-inline'.
  markdown: { syntaxHighlight: false },
  security: {
    csp: {
      algorithm: 'SHA-256',
      directives: [...PAGE_CSP_DIRECTIVES],
    },
  },
  vite: {
    plugins: [zodJitlessInBrowser(), pageScriptsChunk()],
    // Without these the first API request in `astro dev` waits ~13 s while Vite re-optimises.
    optimizeDeps: { include: ['hono', 'hono/http-exception', 'drizzle-orm', 'drizzle-orm/d1', 'zod'] },
  },
});
