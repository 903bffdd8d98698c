import { describe, expect, it } from 'vitest';
import { priceLabel } from './FilterChips.tsx';
import { DEFAULT_QUERY } from './search.ts';

describe('the price chip', () => {
  it('names only the bounds the shopper set, never the form’s own limits', () => {
    expect(priceLabel({ minPrice: 1_000_000, maxPrice: DEFAULT_QUERY.maxPrice })).toBe('From ₦1,000,000');
    expect(priceLabel({ minPrice: DEFAULT_QUERY.minPrice, maxPrice: 50_000 })).toBe('Up to ₦50,000');
    expect(priceLabel({ minPrice: 100_000, maxPrice: 250_000 })).toBe('₦100,000 – ₦250,000');
  });
});
