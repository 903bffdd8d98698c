import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatNaira,
  hasAtMostTwoDecimals,
  nairaToKobo,
  plainNaira,
  typedAmount,
  typedNaira,
  wholeNairaToKobo,
} from './money.ts';

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

  it("writes every amount exactly as Intl's en-NG naira format does", () => {
    const exact = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
    const whole = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', maximumFractionDigits: 0 });
    const kobo = fc.oneof(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -(10 ** 13), max: 10 ** 13 }));
    fc.assert(
      fc.property(kobo, (amount) => {
        expect(formatNaira(amount, { compact: false })).toBe(exact.format(amount / 100));
        expect(formatNaira(amount)).toBe(amount % 100 === 0 ? whole.format(amount / 100) : exact.format(amount / 100));
      }),
      { numRuns: 2000, examples: [[0], [1], [99], [100], [100_000], [-1], [-150_000], [124_900_050]] },
    );
  });

  it('knows a valid naira amount has at most two decimals', () => {
    expect(hasAtMostTwoDecimals(10.25)).toBe(true);
    expect(hasAtMostTwoDecimals(10.255)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    // Within a millionth of a kobo is still not two decimals: it would round to another amount.
    expect(hasAtMostTwoDecimals(850_499.999999999)).toBe(false);
    expect(hasAtMostTwoDecimals(1299.99)).toBe(true);
    expect(hasAtMostTwoDecimals(1e-7)).toBe(false);
    // Every kobo amount, as naira, passes.
    fc.assert(fc.property(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), (k) => hasAtMostTwoDecimals(k / 100)));
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

describe('typed naira', () => {
  it('takes separators and the naira sign, as amounts are written', () => {
    expect(typedNaira('2,000,000')).toBe(2_000_000);
    expect(typedNaira('₦ 1 250 000.50')).toBe(1_250_000.5);
    expect(typedNaira('64500')).toBe(64_500);
    expect(typedNaira('  ')).toBeUndefined();
    for (const junk of ['1e3', '0x10', '12a', '-5', '1.2.3', 'Infinity']) expect(typedNaira(junk), junk).toBeNaN();
  });

  it('gives a form field a number: a number stays, an empty box is NaN for the schema to name', () => {
    expect(typedAmount(5)).toBe(5);
    expect(typedAmount('2,000,000')).toBe(2_000_000);
    expect(typedAmount('')).toBeNaN();
  });
});
