import { PAGE_START_UPS } from './start-up.ts';

/**
 * Start-up in turns: the first step now, each of the others in a task of its own, so that the
 * browser can paint and answer a tap between them.
 *
 * Why: a page's scripts run once its first content is on the screen (decision 027), and one
 * long task then holds back the shopper's first tap. Lighthouse counts every task past 50 ms as
 * blocking, on a phone it takes to be 4× slower than the machine it runs on; on the machines we
 * measure on, the frame's whole start-up in one task came to ~40 ms (160 ms on that phone), most of
 * it first calls into the browser (the first `fetch`, cookie and storage reads), not our code.
 * Taken in turns, no step is long (decision 028).
 *
 * In a hidden tab (opened in the background, say) the steps run back to back: nobody is there to
 * tap, and such a tab runs each timer a second late at best. A step that throws is reported and
 * the others still run. The turns' promise is left in
 * `window[PAGE_START_UPS]`, so the page's starter says the scripts have run only once every
 * turn has (the browser tests wait for that mark).
 */
export function inTurns(steps: readonly (() => void)[]): Promise<void> {
  const done = (async () => {
    for (const [index, step] of steps.entries()) {
      // A hidden tab has no one to answer, and waits up to a second for each timer: no turns there.
      if (index > 0 && document.visibilityState !== 'hidden') await nextTurn();
      try {
        step();
      } catch (error) {
        console.error('A start-up step failed', error);
      }
    }
  })();
  const page = window as unknown as Record<typeof PAGE_START_UPS, Promise<void>[] | undefined>;
  const pending = page[PAGE_START_UPS] ?? [];
  pending.push(done);
  page[PAGE_START_UPS] = pending;
  return done;
}

/**
 * The browser's next turn: `scheduler.yield()` where there is one (Chromium, Firefox), which
 * comes back ahead of other queued work; else a zero timeout (Safari).
 */
function nextTurn(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
