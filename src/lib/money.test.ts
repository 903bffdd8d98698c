import { describe, expect, it } from 'vitest';
import { formatNaira, hasAtMostTwoDecimals, nairaToKobo, plainNaira, wholeNairaToKobo } from './money.ts';

describe('money', () => {
  it('converts naira to integer kobo without floating-point drift', () => {
    expect(nairaToKobo(0.29)).toBe(29);
    expect(nairaToKobo(1_249_000)).toBe(124_900_000);
    expect(nairaToKobo(19.99)).toBe(1999);
  });

  it('formats kobo as en-NG naira', () => {
    expect(formatNaira(150_000)).toBe('₦1,500');
    expect(formatNaira(124_900_050)).toBe('₦1,249,000.50');
    expect(formatNaira(150_000, { compact: false })).toBe('₦1,500.00');
  });

  it('knows a valid naira amount has at most two decimals', () => {
    expect(hasAtMostTwoDecimals(10.25)).toBe(true);
    expect(hasAtMostTwoDecimals(10.255)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
  });

  it('writes plain digits for banking apps and schema.org prices', () => {
    expect(plainNaira(13_050_000)).toBe('130500');
    expect(plainNaira(129_950)).toBe('1299.50');
    expect(plainNaira(5)).toBe('0.05');
    expect(plainNaira(0)).toBe('0');
  });

  it('turns whole naira from the price filter into kobo', () => {
    expect(wholeNairaToKobo(500_000)).toBe(50_000_000);
    expect(wholeNairaToKobo(0)).toBe(0);
  });
});
