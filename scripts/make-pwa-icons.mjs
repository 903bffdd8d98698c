/**
 * Writes the app's PNG icons from the logo (public/favicon.svg): the manifest's 192 and 512
 * icons, their maskable versions (full-bleed background, the mark inside the safe zone),
 * the Apple touch icon, /logo192.png (the notifications' icon and badge, seed spec §7) and the
 * pages' favicon, a 48 px PNG (an SVG favicon is a document the page's renderer parses and lays
 * out on its main thread after every page load: docs/decisions/026-product-drawings-stay-svg.md).
 * The PNGs are committed; run this again only when the logo changes:
 *
 *   npx node scripts/make-pwa-icons.mjs
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

const logo = readFileSync('public/favicon.svg', 'utf8');
const mark = /<path[^>]*\/>/.exec(logo)?.[0];
const fill = /<rect[^>]*fill="([^"]+)"/.exec(logo)?.[1];
if (!mark || !fill)
  throw new Error('public/favicon.svg no longer has one <rect fill> and one <path>: update scripts/make-pwa-icons.mjs');

// Maskable: the background fills the square (the platform cuts its own shape) and the
// mark, scaled up a little, stays well inside the central 80% safe zone.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><rect width="36" height="36" fill="${fill}"/><g transform="translate(18 18) scale(1.25) translate(-18 -18)">${mark}</g></svg>`;

const outputs = [
  { svg: logo, size: 192, file: 'public/icons/icon-192.png' },
  { svg: logo, size: 512, file: 'public/icons/icon-512.png' },
  { svg: maskable, size: 192, file: 'public/icons/icon-maskable-192.png' },
  { svg: maskable, size: 512, file: 'public/icons/icon-maskable-512.png' },
  { svg: maskable, size: 180, file: 'public/icons/apple-touch-icon.png' },
  { svg: logo, size: 192, file: 'public/logo192.png' },
  { svg: logo, size: 48, file: 'public/icons/favicon-48.png' },
];

for (const { svg, size, file } of outputs) {
  await sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 36) })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(file);
  console.log(`${file} (${size}×${size})`);
}
