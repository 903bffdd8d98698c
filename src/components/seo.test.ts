import { describe, expect, it } from 'vitest';
import { servedPath } from './seo.ts';

describe('servedPath', () => {
  it('names a page by the address it is served at, not the file the build writes', () => {
    expect(servedPath('/index.html')).toBe('/');
    expect(servedPath('/index')).toBe('/');
    expect(servedPath('/')).toBe('/');
    expect(servedPath('/about.html')).toBe('/about');
    expect(servedPath('/product/acer-nitro-v-15.html')).toBe('/product/acer-nitro-v-15');
    expect(servedPath('/sell-or-swap/status')).toBe('/sell-or-swap/status');
    // Only a trailing .html is the build's.
    expect(servedPath('/product/html-guide')).toBe('/product/html-guide');
  });
});
