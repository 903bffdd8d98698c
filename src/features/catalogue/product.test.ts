import { describe, expect, it } from 'vitest';
import { productInputSchema } from './product.ts';

/** A product as the admin form sends it, with one field changed. */
const form = (change: Record<string, unknown>) => ({
  name: 'Test Phone',
  brand: 'Samsung',
  category: 'phones',
  description: 'A phone the admin adds from the product form.',
  priceNaira: 250_000,
  stock: 3,
  image: '/images/products/samsung-galaxy-a56.svg',
  ...change,
});

const messageFor = (change: Record<string, unknown>, field: string) =>
  productInputSchema.safeParse(form(change)).error?.issues.find((i) => i.path.join('.') === field)?.message;

describe('the admin product form’s messages', () => {
  it('says what is wrong with a price: not a number, nothing, too much', () => {
    expect(messageFor({ priceNaira: 'abc' }, 'priceNaira')).toBe('Must be an amount in naira, for example 1,250,000 or 1299.50');
    expect(messageFor({ priceNaira: 0 }, 'priceNaira')).toBe('Must be more than ₦0');
    expect(messageFor({ priceNaira: 200_000_000 }, 'priceNaira')).toBe('At most ₦100,000,000');
  });

  it('keeps a name on one line', () => {
    expect(messageFor({ name: 'Test\nPhone' }, 'name')).toBe('A name is one line: no line breaks or tabs');
    expect(productInputSchema.safeParse(form({})).success).toBe(true);
  });
});
