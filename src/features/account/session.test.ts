import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInUrl } from './session.ts';

describe('the page /login returns to', () => {
  it('is a path on this site', () => {
    expect(safeReturnPath('/orders')).toBe('/orders');
    expect(safeReturnPath('/product/x?variant=512GB#reviews')).toBe('/product/x?variant=512GB#reviews');
  });

  it('is never another site, a scheme, a control character or /login itself', () => {
    for (const hostile of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/x\n',
      '/login?next=/x',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(hostile)).toBe('/profile');
    }
  });

  it('is carried in the sign-in link', () => {
    expect(signInUrl('/orders?page=2')).toBe('/login?next=%2Forders%3Fpage%3D2');
  });
});
