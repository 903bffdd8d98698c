import { describe, expect, it } from 'vitest';
import type { OrderLineRequest } from './checkout.ts';
import { priceOrder, SHIPPING_FEE, STOCK_SHOWN_UP_TO, type PricingProduct } from './pricing.ts';

const variant = (id: string, label: string, price: number, stock: number, image: string | null = null) => ({
  id,
  label,
  price,
  stock,
  inStock: stock > 0,
  image,
});
const ps5: PricingProduct = {
  id: 'sony-playstation-5-slim',
  name: 'Sony PlayStation 5 Slim',
  price: 74_900_000,
  image: '/images/products/sony-playstation-5-slim.svg',
  variants: [
    variant('disc-edition', 'Disc Edition', 84_900_000, 3),
    variant('digital-edition', 'Digital Edition', 74_900_000, 1, '/images/products/ps5-digital.svg'),
  ],
  stock: 4,
};
const tv: PricingProduct = {
  id: 'hisense-32-a4-hd',
  name: 'Hisense 32" A4 HD',
  price: 18_950_000,
  image: '/images/products/hisense-32-a4-hd.svg',
  variants: [],
  stock: 10,
};
const catalogue = new Map([ps5, tv].map((p) => [p.id, p]));

const line = (
  product: PricingProduct,
  quantity = 1,
  variantId = product.variants[0]?.id ?? '',
  price = product.variants.find((v) => v.id === variantId)?.price ?? product.price,
): OrderLineRequest => ({
  productId: product.id,
  variant: variantId,
  quantity,
  price,
});

describe('priceOrder', () => {
  it('prices every line from the catalogue and adds the ₦1,500 shipping', () => {
    const quote = priceOrder([line(ps5, 2), line(tv, 3)], catalogue);
    expect(quote.ok).toBe(true);
    expect(quote.lines.map((l) => [l.unitPrice, l.lineTotal, l.problem])).toEqual([
      [84_900_000, 169_800_000, undefined],
      [18_950_000, 56_850_000, undefined],
    ]);
    expect(SHIPPING_FEE).toBe(150_000);
    expect(quote).toMatchObject({ subtotal: 226_650_000, shipping: 150_000, total: 226_800_000 });
    expect(quote.lines[0]).toMatchObject({
      name: ps5.name,
      image: ps5.image,
      variant: 'disc-edition',
      variantLabel: 'Disc Edition',
    });
  });

  it("prices each variant at its own price, with the variant's image where it has one", () => {
    const quote = priceOrder([line(ps5, 1, 'disc-edition'), line(ps5, 1, 'digital-edition')], catalogue);
    expect(quote.ok).toBe(true);
    expect(quote.lines.map((l) => [l.variantLabel, l.unitPrice, l.image])).toEqual([
      ['Disc Edition', 84_900_000, ps5.image],
      ['Digital Edition', 74_900_000, '/images/products/ps5-digital.svg'],
    ]);
    expect(quote.subtotal).toBe(159_800_000);
  });

  it("takes each variant's units from its own stock", () => {
    // 3 Disc and 1 Digital: the product's total (4) would allow 2 + 2, the variants do not.
    const quote = priceOrder([line(ps5, 2, 'disc-edition'), line(ps5, 2, 'digital-edition')], catalogue);
    expect(quote.ok).toBe(false);
    expect(quote.lines.map((l) => l.available)).toEqual([3, 1]);
    expect(quote.lines[0]!.problem).toBeUndefined();
    expect(quote.lines[1]!.problem).toEqual({
      kind: 'insufficient_stock',
      available: 1,
      message: 'Only 1 of Sony PlayStation 5 Slim (Digital Edition) left',
    });
    expect(priceOrder([line(ps5, 3, 'disc-edition'), line(ps5, 1, 'digital-edition')], catalogue).ok).toBe(true);
  });

  it('never tells more stock than one order may take: available is capped at the per-product limit', () => {
    const plenty = new Map([[tv.id, { ...tv, stock: 57 }]]);
    expect(STOCK_SHOWN_UP_TO).toBe(5);
    expect(priceOrder([line(tv, 1)], plenty).lines[0]).toMatchObject({ available: 5 });
    expect(priceOrder([line(tv, 1)], plenty).lines[0]!.problem).toBeUndefined();
    const few = new Map([[tv.id, { ...tv, stock: 4 }]]);
    expect(priceOrder([line(tv, 1)], few).lines[0]!.available).toBe(4);
    expect(priceOrder([line(tv, 5)], few).lines[0]!.problem).toEqual({
      kind: 'insufficient_stock',
      available: 4,
      message: 'Only 4 of Hisense 32" A4 HD left',
    });
  });

  it('says sold out when none are left', () => {
    const soldOut = new Map([[tv.id, { ...tv, stock: 0 }]]);
    expect(priceOrder([line(tv)], soldOut).lines[0]!.problem).toEqual({
      kind: 'insufficient_stock',
      available: 0,
      message: 'Hisense 32" A4 HD is sold out',
    });
    const digitalGone = new Map([[ps5.id, { ...ps5, variants: [ps5.variants[0]!, { ...ps5.variants[1]!, stock: 0 }] }]]);
    expect(priceOrder([line(ps5, 1, 'digital-edition')], digitalGone).lines[0]!.problem).toMatchObject({
      kind: 'insufficient_stock',
      message: 'Sony PlayStation 5 Slim (Digital Edition) is sold out',
    });
    expect(priceOrder([line(ps5, 1, 'disc-edition')], digitalGone).ok).toBe(true);
  });

  it('reports a price that changed, charging only the live price', () => {
    const quote = priceOrder([line(ps5, 1, 'disc-edition', 79_900_000)], catalogue);
    expect(quote.ok).toBe(false);
    expect(quote.lines[0]).toMatchObject({
      unitPrice: 84_900_000,
      problem: {
        kind: 'price_changed',
        price: 84_900_000,
        message: 'Sony PlayStation 5 Slim (Disc Edition) now costs ₦849,000 (was ₦799,000)',
      },
    });
    expect(quote.subtotal).toBe(84_900_000);
  });

  it.each([
    [
      'a variant the product does not come in',
      line(ps5, 1, 'blu-ray-edition', 1),
      'Sony PlayStation 5 Slim does not come in "blu-ray-edition"',
    ],
    ['no variant for a product that needs one', line(ps5, 1, ''), 'Choose an option of Sony PlayStation 5 Slim'],
    ['a variant for a product that has none', line(tv, 1, 'wall-mount'), 'Hisense 32" A4 HD does not come in "wall-mount"'],
  ])('refuses %s', (_, request, message) => {
    expect(priceOrder([request], catalogue).lines[0]!.problem).toEqual({ kind: 'unknown_variant', message });
  });

  it('refuses an unknown product without pricing it', () => {
    const quote = priceOrder([line(tv), { productId: 'nokia-3310', variant: '', quantity: 1, price: 100 }], catalogue);
    expect(quote.ok).toBe(false);
    expect(quote.lines[1]).toMatchObject({
      unitPrice: 0,
      lineTotal: 0,
      problem: { kind: 'unavailable', message: 'This product is no longer sold' },
    });
    expect(quote.subtotal).toBe(tv.price);
  });

  it('puts stock before price: a line that is short and repriced reports the stock', () => {
    const quote = priceOrder([line(ps5, 5, 'disc-edition', 1)], catalogue);
    expect(quote.lines[0]!.problem?.kind).toBe('insufficient_stock');
  });
});
