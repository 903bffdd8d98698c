import type { Page } from '@playwright/test';

/**
 * Sums the page's layout shifts (those not caused by input), from the first paint on:
 * call before navigating, read with `layoutShift(page)` once the page has settled.
 */
export async function watchLayoutShift(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift summed since the page loaded (CLS as one session). */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

/**
 * Waits until nothing is left that could still move the page: no request in flight (an island's
 * data), the fonts and images loaded, no (finite) animation running, then two frames painted, so the
 * layout-shift observer has been told of every shift they caused. Then `layoutShift(page)` is final.
 */
export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    const onScreen = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
    };
    await document.fonts.ready;
    await Promise.all(
      // An image fires load or error (not loadend). A lazy one away from the screen (below it, or
      // to the side in a shelf) is not fetched at all, so only those on screen are waited for.
      [...document.images]
        .filter((img) => !img.complete && (img.loading !== 'lazy' || onScreen(img)))
        .map(
          (img) =>
            new Promise((done) => {
              img.addEventListener('load', done);
              img.addEventListener('error', done);
            }),
        ),
    );
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    );
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
  });
}
