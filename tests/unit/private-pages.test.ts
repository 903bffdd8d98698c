import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPrivatePage, PRIVATE_PAGES } from '../../functions/platform/security-headers.ts';

/** The opener policy goes to PRIVATE_PAGES by path: a misspelt or moved page would silently go without it. */
describe('PRIVATE_PAGES', () => {
  it('names pages the store has', () => {
    for (const path of PRIVATE_PAGES) expect(existsSync(`src/pages${path}.astro`), `src/pages${path}.astro`).toBe(true);
  });

  it('matches a page however its path is written, and nothing else', () => {
    expect(isPrivatePage('/login')).toBe(true);
    expect(isPrivatePage('/login/')).toBe(true);
    expect(isPrivatePage('/login.html')).toBe(true);
    expect(isPrivatePage('/sell-or-swap/status')).toBe(true);
    expect(isPrivatePage('/')).toBe(false);
    expect(isPrivatePage('/about')).toBe(false);
    expect(isPrivatePage('/products')).toBe(false);
    expect(isPrivatePage('/product/sony-playstation-5-slim')).toBe(false);
    expect(isPrivatePage('/login-help')).toBe(false);
    expect(isPrivatePage('/cart/add')).toBe(false);
  });
});
