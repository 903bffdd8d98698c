/**
 * Takes the manifest's screenshots (the richer install sheet) from a running build of the
 * store and writes them to public/screenshots/ as small WebP files, which are committed.
 * Run again when the pages change a lot:
 *
 *   BUILD_DIR=dist PORT=8799 D1_PERSIST_DIR=.wrangler/shots FRESH_DB=1 npx node scripts/serve.ts &
 *   BASE_URL=http://127.0.0.1:8799 npx node scripts/make-pwa-screenshots.mjs
 */
import { chromium } from '@playwright/test';
import sharp from 'sharp';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:8799';
const shots = [
  { file: 'public/screenshots/home-wide.webp', path: '/', viewport: { width: 1280, height: 720 }, mobile: false },
  {
    file: 'public/screenshots/products-narrow.webp',
    path: '/products?category=phones',
    viewport: { width: 412, height: 915 },
    mobile: true,
  },
  { file: 'public/screenshots/cart-narrow.webp', path: '/cart', viewport: { width: 412, height: 915 }, mobile: true, cart: true },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const shot of shots) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      isMobile: shot.mobile,
      hasTouch: shot.mobile,
      deviceScaleFactor: 1,
    });
    if (shot.cart) {
      await context.addInitScript(() => {
        const line = (id, name, price, image, variant) => ({ id, name, price, image, variant, quantity: 1 });
        localStorage.setItem(
          'cartItems',
          JSON.stringify([
            line(
              'sony-playstation-5-slim',
              'Sony PlayStation 5 Slim',
              84900000,
              '/images/products/sony-playstation-5-slim.svg',
              'Disc Edition',
            ),
            line(
              'apple-iphone-17-pro-max',
              'Apple iPhone 17 Pro Max',
              244900000,
              '/images/products/apple-iphone-17-pro-max.svg',
              '256GB',
            ),
          ]),
        );
      });
    }
    const page = await context.newPage();
    await page.goto(base + shot.path, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    const png = await page.screenshot();
    await sharp(png).webp({ quality: 70 }).toFile(shot.file);
    console.log(shot.file);
    await context.close();
  }
} finally {
  await browser.close();
}
