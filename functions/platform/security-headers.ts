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
 * - Astro (`security.csp` in astro.config.mjs) writes script-src and style-src with the
 *   hashes of every script and style it emits, plus PAGE_CSP_DIRECTIVES, into a <meta>
 *   on pre-rendered pages and into the header on pages rendered on demand;
 * - PAGE_CSP_HEADER is what a <meta> cannot carry (frame-ancestors) plus the same
 *   fetch directives, so they hold from the first byte and for non-HTML files too. It
 *   has no default-src or script-src: those would also apply to inline scripts, whose
 *   hashes only Astro knows, page by page.
 */

/** Fetch directives shared by the meta policy (Astro) and the header policy. */
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
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

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
