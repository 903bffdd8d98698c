import { describe, expect, it } from 'vitest';
import { tradeInRequestSchema } from './trade-in.ts';
import { EMPTY_TRADE_IN_FORM, TRADE_IN_FIELD_ORDER, tradeInFieldOf } from './trade-in-form.ts';
import { conditionSummary, deviceTitle, wantText } from './trade-in-text.ts';

describe('the trade-in form', () => {
  it('names, in its own order, every field the schema refuses in an empty form', () => {
    const result = tradeInRequestSchema.safeParse(EMPTY_TRADE_IN_FORM);
    expect(result.success).toBe(false);
    const refused = result.error!.issues.map((issue) => tradeInFieldOf(issue.path.join('.')));
    expect(refused).not.toContain(null);
    const order = refused.map((field) => TRADE_IN_FIELD_ORDER.indexOf(field!));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('puts the API’s issues on the form’s fields', () => {
    expect(tradeInFieldOf('device.model')).toBe('device.model');
    expect(tradeInFieldOf('photos')).toBe('photos');
    expect(tradeInFieldOf('photos.2')).toBe('photos');
    expect(tradeInFieldOf('want')).toBe('want.kind');
    expect(tradeInFieldOf('(body)')).toBeNull();
  });
});

describe('a trade-in as the shopper reads it', () => {
  it('says what the device is, its condition and what they want', () => {
    expect(deviceTitle({ category: 'phones', brand: 'Apple', model: 'iPhone 12', storage: '128GB' })).toBe(
      'Apple iPhone 12 128GB',
    );
    expect(deviceTitle({ category: 'tvs', brand: 'Other', model: 'Old TV', storage: '' })).toBe('Old TV');
    const summary = conditionSummary({
      turnsOn: true,
      screenCracked: false,
      bodyDents: false,
      batteryHealth: 'unknown',
      accountRemoved: true,
      originalBox: false,
      notes: '',
    });
    expect(summary[0]).toEqual({ label: 'Turns on and works', value: 'Yes' });
    expect(summary.at(-1)).toEqual({ label: 'Battery health', value: 'I don’t know' });
    expect(wantText({ kind: 'cash' })).toBe('Cash');
    expect(
      wantText({ kind: 'swap', productId: 'x', variant: '512gb', name: 'Apple iPhone 17', variantLabel: '512GB', price: 1 }),
    ).toBe('A swap for Apple iPhone 17 (512GB)');
  });
});
