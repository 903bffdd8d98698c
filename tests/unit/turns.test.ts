import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_START_UPS } from '../../src/lib/start-up.ts';

// src/lib/turns.browser.ts reads `window`: in Node the global object stands in for it. Node has no
// `scheduler.yield`, so these are the zero-timeout turns a browser without it (Safari) takes.
const page = globalThis as unknown as Record<string, unknown>;

describe('inTurns (a page script start-up in short tasks)', () => {
  beforeEach(() => {
    page.window = globalThis;
    page.document = { visibilityState: 'visible' };
    delete page[PAGE_START_UPS];
  });
  afterEach(() => {
    delete page.window;
    delete page.document;
    delete page[PAGE_START_UPS];
    vi.restoreAllMocks();
  });

  it('runs the first step at once and each other one in a later task, in order', async () => {
    const { inTurns } = await import('../../src/lib/turns.browser.ts');
    const ran: string[] = [];
    const done = inTurns([() => ran.push('first'), () => ran.push('second'), () => ran.push('third')]);
    expect(ran).toEqual(['first']);
    // A task queued now runs before the second turn: the steps do not share one task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran.length).toBeLessThan(3);
    await done;
    expect(ran).toEqual(['first', 'second', 'third']);
  });

  it('leaves its promise for the page starter, and a step that throws stops none of the others', async () => {
    const { inTurns } = await import('../../src/lib/turns.browser.ts');
    const failed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ran: string[] = [];
    const done = inTurns([
      () => {
        throw new Error('broken step');
      },
      () => ran.push('after'),
    ]);
    expect(page[PAGE_START_UPS]).toEqual([done]);
    await expect(done).resolves.toBeUndefined();
    expect(ran).toEqual(['after']);
    expect(failed).toHaveBeenCalledWith('A start-up step failed', expect.any(Error));
  });

  it('runs every step at once in a hidden tab, whose timers would each wait a second', async () => {
    page.document = { visibilityState: 'hidden' };
    const { inTurns } = await import('../../src/lib/turns.browser.ts');
    const ran: string[] = [];
    const done = inTurns([() => ran.push('first'), () => ran.push('second'), () => ran.push('third')]);
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual(['first', 'second', 'third']);
    await done;
  });
});
