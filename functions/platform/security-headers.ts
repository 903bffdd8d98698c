/**
 * The security headers of every answer, in one place.
 *
 * Who sends them:
 * - pre-rendered pages and files: Cloudflare's static assets, from `public/_headers`
 *   (the Worker does not run for them); tests/e2e/security-headers.spec.ts checks that
 *   file against these values. Scripts and styles (/_astro/*) get only the headers that
 *   apply to them (see PAGE_ONLY_HEADERS);
 * - pages the Worker renders (the 404 page, /product/{id} added after the build):
 *   `finishPage()` in functions/worker.ts;
 * - the API: Hono's secureHeaders in functions/platform/app.ts, with these values.
 *
 * The page CSP comes in two parts that browsers enforce together:
 * - the page's own policy, PAGE_CSP_DIRECTIVES with script-src and style-src listing the
 *   hashes of its inline scripts and styles, in its header, as functions/platform/page-policy.ts
 *   computes it: the build writes it into `_headers` for pre-rendered pages (after checking it
 *   against the site-wide <meta> Astro's `security.csp` writes, which it then takes out), and the
 *   Worker sends it with every page it serves or renders (in place of Astro's site-wide header);
 * - PAGE_CSP_HEADER is what a <meta> cannot carry (frame-ancestors) plus the same
 *   fetch directives, so they hold from the first byte and for non-HTML files too. It
 *   has no default-src or script-src: those would also apply to inline scripts, whose
 *   hashes only Astro knows, page by page.
 */

/** Fetch directives shared by each page's own policy and the policy every page carries. */
export const PAGE_FETCH_DIRECTIVES = [
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  // Product images and icons are local; small icons may be data: URLs.
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "media-src 'self'",
  "frame-src 'none'",
] as const;

/** What astro.config.mjs passes to `security.csp.directives` (Astro adds script-src and style-src). */
export const PAGE_CSP_DIRECTIVES = ["default-src 'self'", ...PAGE_FETCH_DIRECTIVES] as const;

/** The Content-Security-Policy header of every page (see above for why it has no script-src). */
export const PAGE_CSP_HEADER = ["frame-ancestors 'none'", ...PAGE_FETCH_DIRECTIVES].join('; ');

/**
 * The API's policy, in the shape of Hono's secureHeaders: JSON needs nothing, so an API
 * answer opened in a tab or framed loads and runs nothing.
 * Header: default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'
 */
export const API_CSP = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

/**
 * Powerful features no page of the store uses are switched off for it and anything it
 * embeds. Clipboard writes stay allowed for the store's own pages (the Copy buttons on
 * the payment step). Notifications and vibration are not Permissions-Policy features.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'clipboard-write=(self)',
].join(', ');

/** Sent only over https (production): a browser ignores it over http anyway, and local runs are http. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers every page carries, besides its CSP (and HSTS over https). */
export const PAGE_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
} as const;

/**
 * The opener policy, on the pages that show or take a person's data (PRIVATE_PAGES) and on API
 * answers: a window that opened one of them (another site's popup) loses its reference to it,
 * so it can neither watch nor steer it, and the page gets a process of its own.
 *
 * Not on the catalogue and information pages, which hold nothing of the shopper's: there the
 * policy cost more than it kept. Entering the store on a page with it makes Chromium start a
 * new browsing-context group, and Lighthouse (mobile, the same page served with and without
 * it, four runs each) measured TBT 84-183 ms with it and 6-37 ms without; moving between a
 * page without it and one with it (home to /cart) measured no such cost (docs/decisions/013).
 */
export const OPENER_POLICY = { 'Cross-Origin-Opener-Policy': 'same-origin' } as const;

/** Pages that show or take a shopper's or an admin's data: each carries OPENER_POLICY. */
export const PRIVATE_PAGES = [
  '/admin',
  '/cart',
  '/login',
  '/newsletter/confirm',
  '/newsletter/subscribe',
  '/newsletter/unsubscribe',
  '/orders',
  '/payment-methods',
  '/profile',
  '/ratings',
  '/sell-or-swap',
  '/sell-or-swap/status',
  '/track',
  '/track/order',
  '/trade-ins',
  '/transactions',
] as const;

/** Whether the page at `path` (a URL path, with or without a trailing slash or `.html`) is one of PRIVATE_PAGES. */
export function isPrivatePage(path: string): boolean {
  const page = path.replace(/\.html$/, '').replace(/(.)\/$/, '$1');
  return (PRIVATE_PAGES as readonly string[]).includes(page);
}

/**
 * The headers browsers apply only to documents (and workers): the page CSP, the
 * Permissions-Policy, framing and the opener policy. `public/_headers` detaches them from
 * scripts and styles (/_astro/*), where they would be ~630 bytes of nothing on every one of a
 * page's ~40 answers; nosniff and Referrer-Policy (which a stylesheet or module script
 * applies to what it loads) stay. Not detached from other files: an SVG image opened on its
 * own is a document.
 */
export const PAGE_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Permissions-Policy',
  'X-Frame-Options',
  'Cross-Origin-Opener-Policy',
] as const;
