import { describe, expect, it } from 'vitest';
import { emailSuggestion } from './email-check.ts';

describe('emailSuggestion', () => {
  it.each([
    ['ngozi@gmial.com', 'ngozi@gmail.com'],
    ['Ngozi@GMAI.com ', 'ngozi@gmail.com'],
    ['ngozi@yahoo.con', 'ngozi@yahoo.com'],
    ['ngozi@yaho.com', 'ngozi@yahoo.com'],
    ['ngozi@hotmial.com', 'ngozi@hotmail.com'],
    ['ngozi@outlok.com', 'ngozi@outlook.com'],
    ['ngozi@gmail.co', 'ngozi@gmail.com'],
  ])('offers %s → %s', (typed, meant) => {
    expect(emailSuggestion(typed)).toBe(meant);
  });

  it.each(['ngozi@gmail.com', 'ngozi@mail.com', 'ngozi@gtbank.com', 'ngozi@yahoo.co.uk', 'ngozi@', 'not an address', ''])(
    'offers nothing for %j',
    (typed) => {
      expect(emailSuggestion(typed)).toBeUndefined();
    },
  );
});
