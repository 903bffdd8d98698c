import { describe, expect, it } from 'vitest';
import {
  addItem,
  quantityOf,
  cartCount,
  cartSubtotal,
  MAX_LINE_QUANTITY,
  MAX_UNITS_PER_PRODUCT,
  mostPerOrder,
  parseStoredCart,
  removeItem,
  setQuantity,
  type CartItem,
} from './cart.ts';

const phone = {
  id: 'tecno-spark-30',
  name: 'Tecno Spark 30',
  price: 21_500_000,
  image: '/images/products/tecno-spark-30.svg',
  variant: '128gb',
  variantLabel: '128GB',
};

describe('cart rules', () => {
  it('adds a new line, then adds quantity to the same id and variant', () => {
    const one = addItem([], phone);
    expect(one).toEqual([{ ...phone, quantity: 1 }]);
    const three = addItem(one, phone, 2);
    expect(three).toEqual([{ ...phone, quantity: 3 }]);
  });

  it('keeps another variant of the same product on its own line', () => {
    const cart = addItem(addItem([], phone), { ...phone, variant: '256gb' });
    expect(cart.map((i) => [i.variant, i.quantity])).toEqual([
      ['128gb', 1],
      ['256gb', 1],
    ]);
  });

  it('removes only the line matching id and variant', () => {
    const cart = addItem(addItem([], phone), { ...phone, variant: '256gb' });
    expect(removeItem(cart, { id: phone.id, variant: '128gb' }).map((i) => i.variant)).toEqual(['256gb']);
  });

  it('sets a quantity, and 0 or less removes the line', () => {
    const cart = addItem([], phone);
    expect(setQuantity(cart, phone, 4)[0]?.quantity).toBe(4);
    expect(setQuantity(cart, phone, 0)).toEqual([]);
    expect(setQuantity(cart, phone, -3)).toEqual([]);
  });

  it('caps a line at the maximum quantity: what one order may hold of one product (5)', () => {
    expect(MAX_LINE_QUANTITY).toBe(MAX_UNITS_PER_PRODUCT);
    expect(MAX_UNITS_PER_PRODUCT).toBe(5);
    expect(addItem(addItem([], phone, 4), phone, 4)[0]?.quantity).toBe(5);
    expect(addItem([], phone, 500)[0]?.quantity).toBe(MAX_LINE_QUANTITY);
    expect(setQuantity(addItem([], phone), phone, 1000)[0]?.quantity).toBe(MAX_LINE_QUANTITY);
  });

  it('caps a line at what one order may take when the caller knows it, and never takes away what a line holds', () => {
    // 2 left: "Up to 1 per order". Pressing Add to Cart again adds nothing.
    const once = addItem([], phone, 1, mostPerOrder(2));
    expect(addItem(once, phone, 1, mostPerOrder(2))).toEqual(once);
    expect(quantityOf(addItem([], phone, 3, 2), phone)).toBe(2);
    expect(quantityOf(addItem(addItem([], phone, 1, 4), phone, 2, 4), phone)).toBe(3);
    // A line that holds more (added when more were left) keeps it; the cart's quote says what is left.
    expect(quantityOf(addItem(addItem([], phone, 4), phone, 1, 2), phone)).toBe(4);
    // Never past the most any order may take.
    expect(quantityOf(addItem([], phone, 9, 9), phone)).toBe(MAX_LINE_QUANTITY);
    expect(quantityOf([], phone)).toBe(0);
  });

  it('offers one order what unpaid orders may hold of a product: half its units rounded down, at least one, at most 5', () => {
    const offered = [0, 1, 2, 3, 4, 5, 9, 10, 11, 100].map((stock) => [stock, mostPerOrder(stock)]);
    expect(offered).toEqual([
      [0, 0],
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
      [5, 2],
      [9, 4],
      [10, 5],
      [11, 5],
      [100, 5],
    ]);
    // A store that lifts the share (1: unpaid orders may hold every unit) offers up to the stock.
    expect([1, 2, 3, 7].map((stock) => mostPerOrder(stock, 1))).toEqual([1, 2, 3, 5]);
    // 0.3 of 10 is 3, not 2 (floating point puts it just under).
    expect(mostPerOrder(10, 0.3)).toBe(3);
  });

  it('counts items and sums the subtotal in kobo', () => {
    const cart = addItem(addItem([], phone, 2), { ...phone, id: 'x', price: 150_050 });
    expect(cartCount(cart)).toBe(3);
    expect(cartSubtotal(cart)).toBe(2 * 21_500_000 + 150_050);
  });
});

describe('reading the stored cart', () => {
  it('reads a valid list and fills a missing variant and label', () => {
    const stored: Omit<CartItem, 'variant' | 'variantLabel'>[] = [
      { id: 'a', name: 'A', price: 100, image: '/a.svg', quantity: 2 },
    ];
    expect(parseStoredCart(JSON.stringify(stored))).toEqual([{ ...stored[0], variant: '', variantLabel: '' }]);
  });

  it('keeps a line stored with more than the limit (an older cart), capped at it', () => {
    const stored = [
      { id: 'a', name: 'A', price: 100, image: '/a.svg', variant: '', quantity: 12 },
      { id: 'b', name: 'B', price: 100, image: '/b.svg', variant: '', quantity: 2 },
    ];
    expect(parseStoredCart(JSON.stringify(stored)).map((i) => i.quantity)).toEqual([5, 2]);
  });

  it.each([null, '', 'not json', '{"items":1}', '[{"id":"a","quantity":"lots"}]', '[{"id":"a","price":-1}]'])(
    'drops %j instead of crashing',
    (raw) => {
      expect(parseStoredCart(raw)).toEqual([]);
    },
  );
});
