import { describe, expect, it } from 'vitest';
import { blocksCheckout, goneFromSale, lineProblemText } from './cart-check.ts';

describe("a cart line's problem, as /cart says it", () => {
  it('blocks checkout for everything but a changed price, which the cart takes', () => {
    expect(blocksCheckout({ kind: 'price_changed' })).toBe(false);
    for (const kind of ['unavailable', 'unknown_variant', 'insufficient_stock', 'hold_limit'] as const) {
      expect(blocksCheckout({ kind })).toBe(true);
    }
    expect(blocksCheckout(undefined)).toBe(false);
  });

  it('counts a line for nothing only when its product or option is gone from sale', () => {
    expect(goneFromSale({ kind: 'unavailable' })).toBe(true);
    expect(goneFromSale({ kind: 'unknown_variant' })).toBe(true);
    for (const kind of ['price_changed', 'insufficient_stock', 'hold_limit'] as const) expect(goneFromSale({ kind })).toBe(false);
    expect(goneFromSale(undefined)).toBe(false);
  });

  it('says how to put each right', () => {
    expect(lineProblemText('insufficient_stock', 0)).toBe('Sold out. Remove it to check out.');
    expect(lineProblemText('insufficient_stock', 2)).toBe('Only 2 left. Lower the quantity to check out.');
    // In stock, but more than unpaid orders may hold now (the hoarding limit): the rest once paid.
    expect(lineProblemText('hold_limit', 1)).toBe('Up to 1 per order while so few are left. Lower the quantity to check out.');
    expect(lineProblemText('hold_limit', 0)).toBe(
      'Held by other unpaid orders right now. Remove it to check out, or try again in a few hours.',
    );
    expect(lineProblemText('unavailable', 0)).toBe('No longer available. Remove it to check out.');
  });
});
