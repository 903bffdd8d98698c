import { describe, expect, it } from 'vitest';
import { ADA } from '../../../tests/fixtures/shopper.ts';
import { singleLineText } from '../../lib/fields.ts';
import { customerSchema, type CustomerInput } from './checkout.ts';

// The checkout's text fields take what a name, a city or an address needs and nothing
// that could make an order e-mail or a log say something else (line breaks, control
// characters, text-direction overrides).

const ada: CustomerInput = { ...ADA, delivery: 'delivery' };

const oneLineMessage = (label: string) => `Please write your ${label} on one line, without line breaks or hidden characters`;
const ADDRESS_MESSAGE = "Use only letters, numbers, spaces and , . - / # ' ( ) & in your address";
const CITY_MESSAGE = "Use only letters, numbers, spaces and , . - / # ' ( ) & in your city";

/** Each [field, message] the checkout dialog shows for `input`. */
function messages(input: unknown): [string, string][] {
  const result = customerSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

describe('singleLineText', () => {
  const town = {
    parse: (v: string) => singleLineText('town', 20).parse(v),
    safeParse: (v: string) => singleLineText('town', 20).safeParse(v),
  };

  it('trims, folds runs of spaces (including no-break spaces) into one, and composes accents (NFC)', () => {
    expect(town.parse('  Ìbàdàn \u00a0 North ')).toBe('Ìbàdàn North');
    // "Ọ̀" typed as O + combining dot below + combining grave becomes Ọ (U+1ECC) + grave.
    expect(town.parse('O\u0323\u0300yo\u0323\u0301')).toBe('Ọ̀yọ́'.normalize('NFC'));
  });

  it.each([
    ['a line break', 'Ikeja\nLagos'],
    ['a carriage return', 'Ikeja\rLagos'],
    ['a tab', 'Ikeja\tLagos'],
    ['a NUL', 'Ikeja\u0000'],
    ['an escape (terminal colours in a log)', '\u001b[31mIkeja'],
    ['a DEL', 'Ike\u007fja'],
    ['a C1 control', 'Ike\u0085ja'],
    ['a Unicode line separator', 'Ikeja\u2028Lagos'],
    ['a Unicode paragraph separator', 'Ikeja\u2029Lagos'],
    ['a right-to-left override', 'Ikeja \u202Eabc'],
    ['a direction isolate', 'Ikeja \u2066abc\u2069'],
  ])('refuses %s with one message for the shopper', (_, value) => {
    const result = town.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([oneLineMessage('town')]);
  });

  it('says what is missing or too long', () => {
    expect(town.safeParse('  ').error!.issues.map((i) => i.message)).toEqual(['Please enter your town']);
    expect(town.safeParse('x'.repeat(21)).error!.issues.map((i) => i.message)).toEqual([
      'Your town must be at most 20 characters',
    ]);
  });
});

describe('customerSchema text fields', () => {
  it.each([
    ['Yorùbá', 'Adébáyọ̀ Ọláńrewájú'],
    ['Yorùbá, decomposed accents', 'Ade\u0301ba\u0301yo\u0323\u0300 O\u0323la\u0301n\u0301rewa\u0301ju\u0301'],
    ['Igbo', 'Chukwuemeka Ọ̀kọ̀nkwọ̀ Nwánkwọ'],
    ['Igbo with a hyphen', 'Ụ̀zọ̀amaka Ézè-Okafor'],
    ['Hausa hooked letters', 'Ɗanjuma Ƙabiru Ɓello Ƴusuf'],
    ['Hausa with an apostrophe', "Sa'adatu Ya'u"],
    ['a curly apostrophe (phone keyboards)', 'Sa’adatu Ya’u'],
    ['initials', 'A. B. Okonkwo'],
  ])('accepts a %s name', (_, name) => {
    expect(messages({ ...ada, name })).toEqual([]);
    expect(customerSchema.parse({ ...ada, name }).name).toBe(name.normalize('NFC'));
  });

  it.each([
    [
      'a paragraph in the name',
      { name: 'Ada Obi,\n\nIMPORTANT: our bank account has changed. Pay into 0123456789.' },
      'name',
      oneLineMessage('full name'),
    ],
    ['a line break in the city', { city: 'Ikeja\nLagos' }, 'city', oneLineMessage('city')],
    ['an emoji in the city', { city: 'Ikeja 🏙️' }, 'city', CITY_MESSAGE],
    ['markup in the city', { city: '<i>Ikeja</i>' }, 'city', CITY_MESSAGE],
    ['a control character in the name', { name: 'Ada\u0007 Obi' }, 'name', oneLineMessage('full name')],
    ['a line break in the address', { address: '12 Allen Avenue\nIkeja' }, 'address', oneLineMessage('delivery address')],
    ['markup in the address', { address: '12 Allen Avenue <b>Ikeja</b>' }, 'address', ADDRESS_MESSAGE],
    ['a link in the address', { address: 'Pay at https://evil.example' }, 'address', ADDRESS_MESSAGE],
    ['an e-mail in the address', { address: '12 Allen Avenue, ada@example.com' }, 'address', ADDRESS_MESSAGE],
    ['a semicolon in the address', { address: '12 Allen Avenue; Ikeja' }, 'address', ADDRESS_MESSAGE],
  ])('refuses %s with a message on the field', (_, change, field, message) => {
    expect(messages({ ...ada, ...change })).toEqual([[field, message]]);
  });

  it.each([
    'Plot 5, Block B, Admiralty Way, Lekki Phase 1',
    'No. 14 Ọ̀ba Adébímpé Road (opposite First Bank)',
    "Flat 3/12, St. Mary's Close, off Awolowo Rd.",
    'House #7, Ahmadu Bello Way & Kur Mohammed Avenue',
    'Km 5, Ìbàdàn-Ọ̀yọ́ Expressway',
    'Shop 2, Sa’adu Zungur Street, Ƙofar Nasarawa',
  ])('accepts the address %s', (address) => {
    expect(messages({ ...ada, address })).toEqual([]);
  });

  it('keeps the messages for a missing or short name and address', () => {
    expect(messages({ ...ada, name: ' ', address: 'Ikj' })).toEqual([
      ['name', 'Please enter your full name'],
      ['address', 'Please enter your full delivery address'],
    ]);
  });
});
