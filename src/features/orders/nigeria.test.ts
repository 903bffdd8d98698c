import { describe, expect, it } from 'vitest';
import { formatNigerianPhone, NIGERIAN_STATES, normalizeNigerianPhone } from './nigeria.ts';

describe('normalizeNigerianPhone', () => {
  it.each([
    ['0803 123 4567', '+2348031234567'],
    ['08031234567', '+2348031234567'],
    ['+234 803 123 4567', '+2348031234567'],
    ['2348031234567', '+2348031234567'],
    ['(0803)-123-4567', '+2348031234567'],
    ['0803.123.4567', '+2348031234567'],
    ['  0701 234 5678 ', '+2347012345678'],
    ['0810 000 0000', '+2348100000000'],
    ['+234 905 555 1212', '+2349055551212'],
    ['0915 555 1212', '+2349155551212'],
    ['+234 0803 123 4567', '+2348031234567'],
    ['+234 (0) 803 123 4567', '+2348031234567'],
    ['234 0803 123 4567', '+2348031234567'],
    ['00234 803 123 4567', '+2348031234567'],
  ])('reads %j as %s', (input, e164) => {
    expect(normalizeNigerianPhone(input)).toBe(e164);
  });

  it.each([
    ['12345', 'too short'],
    ['0803 123 456', 'one digit short'],
    ['0803 123 45678', 'one digit long'],
    ['0603 123 4567', 'not a mobile prefix'],
    ['0823 123 4567', 'second digit not 0 or 1'],
    ['01 234 5678', 'a Lagos landline'],
    ['+44 20 7946 0958', 'another country'],
    ['+233 24 123 4567', 'Ghana'],
    ['+234 00803 123 4567', 'two trunk zeros'],
    ['0 0803 123 4567', 'a zero too many'],
    ['+234 0 0803 123 4567', 'country code and two zeros'],
    ['0803 123 456a', 'a letter'],
    ['', 'empty'],
  ])('rejects %j (%s)', (input) => {
    expect(normalizeNigerianPhone(input)).toBeUndefined();
  });
});

describe('formatNigerianPhone', () => {
  it('reads a stored number back the local way', () => {
    expect(formatNigerianPhone('+2348031234567')).toBe('0803 123 4567');
    expect(formatNigerianPhone(normalizeNigerianPhone('+234 701 234 5678')!)).toBe('0701 234 5678');
  });
});

describe('NIGERIAN_STATES', () => {
  it('lists the 36 states and the FCT, once each, in alphabetical order', () => {
    expect(NIGERIAN_STATES).toHaveLength(37);
    expect(new Set(NIGERIAN_STATES).size).toBe(37);
    expect([...NIGERIAN_STATES]).toEqual([...NIGERIAN_STATES].sort((a, b) => a.localeCompare(b)));
    expect(NIGERIAN_STATES).toContain('Federal Capital Territory');
    for (const state of ['Lagos', 'Kano', 'Rivers', 'Akwa Ibom', 'Cross River', 'Nasarawa', 'Zamfara'])
      expect(NIGERIAN_STATES).toContain(state);
    expect(NIGERIAN_STATES).not.toContain('Abuja');
  });
});
