import { describe, expect, it } from 'vitest';
import {
  forShoppers,
  initialVariant,
  parseQuantity,
  perOrderText,
  productSale,
  productSaleSchema,
  SHOPPER_STOCK_CAP,
  stockClass,
  stockText,
  variantOptionText,
} from './product-choice.ts';
import { hasPriceRange, priceRange, sellingUnit } from './product.ts';

const v = (id: string, price: number, stock: number) => ({
  id,
  label: id.toUpperCase(),
  price,
  stock,
  inStock: stock > 0,
  image: null,
});
const iphone = {
  price: 134_900_000,
  stock: 14,
  image: '/images/products/apple-iphone-17.svg',
  variants: [v('256gb', 134_900_000, 0), v('512gb', 174_900_000, 14)],
};

describe('the product page choice', () => {
  it('opens on the variant the address names, else the first in stock', () => {
    expect(initialVariant(iphone, '512gb')).toBe('512gb');
    expect(initialVariant(iphone, null)).toBe('512gb');
    expect(initialVariant(iphone, 'nope')).toBe('512gb');
    expect(initialVariant({ variants: [v('a', 1, 0), v('b', 1, 0)] }, null)).toBe('a');
    expect(initialVariant({ variants: [] }, '512gb')).toBe('');
  });

  it.each([
    ['3', 3, ''],
    ['', 1, ''],
    ['0', 1, 'At least 1'],
    ['2.5', 2, 'A whole number of units'],
    ['12', 5, 'At most 5 per order'],
    ['abc', 1, 'Type a whole number of units'],
  ])('reads the typed quantity %j as %i', (text, quantity, note) => {
    expect(parseQuantity(text, 5)).toEqual({ quantity, note });
  });

  it('offers each variant with its price when the prices differ, and says which are sold out', () => {
    const sale = {
      variants: [
        { label: '256GB', price: 134_900_000, stock: 4 },
        { label: '512GB', price: 174_900_000, stock: 0 },
      ],
    };
    expect(sale.variants.map((v) => variantOptionText(sale, v))).toEqual(['256GB · ₦1,349,000', '512GB · ₦1,749,000 (sold out)']);
    const samePrice = {
      variants: [
        { label: 'Black', price: 5_000_000, stock: 1 },
        { label: 'White', price: 5_000_000, stock: 0 },
      ],
    };
    expect(samePrice.variants.map((v) => variantOptionText(samePrice, v))).toEqual(['Black', 'White (sold out)']);
  });

  it('says how much is left', () => {
    expect([stockText(0), stockText(3), stockText(6)]).toEqual(['Out of stock', 'Only 3 left in stock', 'In stock']);
    expect([stockClass(0), stockClass(3), stockClass(6)]).toEqual(['stock-out', 'stock-low', 'muted']);
  });
});

describe("what the product page sells (its form's data-sale, and the API's answer)", () => {
  const product = {
    ...iphone,
    id: 'apple-iphone-17',
    name: 'Apple iPhone 17',
    brand: 'Apple',
    category: 'phones',
    description: 'A phone.',
    variantLabel: 'Storage',
    inStock: true,
    rating: 4.5,
    reviews: 10,
    featured: false,
  };

  it('reads back what the page writes, without the fields it does not use', () => {
    const sale = productSale(product);
    expect(productSaleSchema.parse(JSON.parse(JSON.stringify(sale)))).toEqual(sale);
    // The API's whole product answer (stock as shoppers are told it) reads as the same sale (extra fields are dropped).
    expect(productSaleSchema.parse(forShoppers(product))).toEqual(sale);
    expect(Object.keys(sale).sort()).toEqual(['id', 'image', 'name', 'price', 'stock', 'variants']);
    // The page says "10 or more", never the count (this product has more of a variant than that).
    expect(sale.stock).toBe(Math.min(product.stock, SHOPPER_STOCK_CAP));
    expect(sale.variants.map((v) => v.stock)).toEqual(product.variants.map((v) => Math.min(v.stock, SHOPPER_STOCK_CAP)));
    expect(Math.max(...product.variants.map((v) => v.stock))).toBeGreaterThan(SHOPPER_STOCK_CAP);
  });

  it('refuses a sale it could not sell from', () => {
    const broken = productSaleSchema.safeParse({
      ...productSale(product),
      variants: [{ id: '512gb', label: '512GB', price: '1' }],
    });
    expect(broken.success).toBe(false);
    expect(productSaleSchema.safeParse({ ...productSale(product), price: 1.5 }).success).toBe(false);
    expect(productSaleSchema.safeParse({ ...productSale(product), name: '' }).success).toBe(false);
    expect(productSaleSchema.safeParse(null).success).toBe(false);
  });
});

describe('variant prices', () => {
  it('sells each variant at its price and stock, and shows "from" only when prices differ', () => {
    expect(sellingUnit(iphone, '512gb')).toEqual({ price: 174_900_000, stock: 14, image: iphone.image });
    expect(sellingUnit(iphone, '')).toBeUndefined();
    expect(priceRange(iphone)).toEqual({ from: 134_900_000, to: 174_900_000 });
    expect(hasPriceRange(iphone)).toBe(true);
    expect(hasPriceRange({ price: 5, variants: [v('black', 5, 1), v('white', 5, 1)] })).toBe(false);
    expect(sellingUnit({ ...iphone, variants: [] }, '')).toEqual({ price: 134_900_000, stock: 14, image: iphone.image });
  });
});

describe("the product page's per-order line", () => {
  it('says why beside "Only N left" when the share, not the stock or the per-order limit, is what limits an order', () => {
    expect(perOrderText(1)).toBe('Up to 1 per order');
    expect(perOrderText(3)).toBe('Up to 1 per order while so few are left');
    expect(perOrderText(5)).toBe('Up to 2 per order while so few are left');
    // Beside "In stock" no "so few": 9 units, of which 4 may wait unpaid in one order.
    expect(stockText(9)).toBe('In stock');
    expect(perOrderText(9)).toBe('Up to 4 per order');
    expect(perOrderText(10)).toBe('Up to 5 per order');
    expect(perOrderText(0)).toBe('Up to 1 per order');
  });
});
