import { describe, expect, it } from 'vitest';
import {
  decodePendingCart,
  encodePendingCart,
  PENDING_CART_MAX_LINES,
  type PendingLine,
  pendingCartSetCookie,
  readCookie,
} from './pending-cart.ts';

const line = (id: string, over: Partial<PendingLine> = {}): PendingLine => ({
  id,
  variant: '',
  variantLabel: '',
  quantity: 1,
  name: `Product ${id}; "quoted", ₦`,
  price: 1_000_000,
  image: `/images/products/${id}.webp`,
  ...over,
});

describe('the pending cart cookie', () => {
  it('round-trips lines, names with any characters included, as a value safe in a cookie', () => {
    const lines = [line('a'), line('b', { variant: '256gb', variantLabel: '256GB', quantity: 3 })];
    const value = encodePendingCart(lines);
    expect(value).not.toMatch(/[\s;,"\\]/);
    expect(decodePendingCart(value)).toEqual(lines);
  });

  it('drops what does not parse instead of failing', () => {
    expect(decodePendingCart('not%json')).toEqual([]);
    expect(decodePendingCart(encodeURIComponent('{"a":1}'))).toEqual([]);
    const bad = encodeURIComponent(
      JSON.stringify([
        ['a', '', 9, 'A', 1, '/a.webp', ''],
        ['b', '', 1, 'B', 1, '/b.webp', ''],
      ]),
    );
    expect(decodePendingCart(bad).map((l) => l.id)).toEqual(['b']);
    const many = encodePendingCart(Array.from({ length: PENDING_CART_MAX_LINES + 3 }, (_, i) => line(`p${i}`)));
    expect(decodePendingCart(many)).toHaveLength(PENDING_CART_MAX_LINES);
  });

  it('is found in a Cookie header among others, and set for the whole site, readable by the page, SameSite=Lax', () => {
    expect(readCookie('a=1; gts_cart_add=xyz; b=2', 'gts_cart_add')).toBe('xyz');
    expect(readCookie('xgts_cart_add=1', 'gts_cart_add')).toBeUndefined();
    const cookie = pendingCartSetCookie([line('a')], { secure: true });
    expect(cookie).toMatch(/^gts_cart_add=[^;]+; Path=\/; Max-Age=\d+; SameSite=Lax; Secure$/);
    expect(cookie).not.toMatch(/HttpOnly/i);
  });
});
