import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGES } from './email-check.ts';

/**
 * Form fields that mean the same thing wherever they appear (newsletter, checkout,
 * order lookup, and the account forms to come), validated by the same schema in the
 * browser and in the Worker.
 */

/** An e-mail address, trimmed and lower-cased (addresses are compared that way). */
export const emailSchema = z
  .string({ error: EMAIL_MESSAGES.missing })
  .trim()
  .toLowerCase()
  .min(1, EMAIL_MESSAGES.missing)
  .max(EMAIL_MAX_LENGTH, EMAIL_MESSAGES.long)
  .pipe(z.email({ error: EMAIL_MESSAGES.invalid }));

/**
 * What no single-line field may hold: line breaks and other control characters (C0, DEL,
 * C1, which includes NEL), the Unicode line and paragraph separators, and the
 * text-direction overrides and isolates that make text display in another order than
 * it is stored. Such text could start a paragraph of its own in an e-mail or a log line.
 */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;

/** The field message for text that is not a single line, in words a shopper knows. */
export const oneLineMessage = (label: string) =>
  `Please write your ${label} on one line, without line breaks or hidden characters`;

/**
 * A required single-line text field (a name, a city): trimmed, runs of spaces folded into
 * one, accents composed (NFC, so "ọ̀" typed either way is stored one way), at most `max`
 * characters, and no line breaks or control characters (see NOT_ONE_LINE). Letters of any
 * script are welcome. `allowed`, when given, is the only characters the field takes,
 * with the message the shopper sees otherwise.
 */
export function singleLineText(label: string, max: number, allowed?: { pattern: RegExp; message: string }) {
  return z
    .string({ error: `Please enter your ${label}` })
    .trim()
    .overwrite((value) => value.replace(/\p{Zs}+/gu, ' '))
    .normalize('NFC')
    .min(1, `Please enter your ${label}`)
    .max(max, `Your ${label} must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      // One message per field: a line break is named as such, not as a character addresses do not take.
      if (NOT_ONE_LINE.test(value)) ctx.addIssue({ code: 'custom', input: value, message: oneLineMessage(label) });
      else if (allowed && !allowed.pattern.test(value)) ctx.addIssue({ code: 'custom', input: value, message: allowed.message });
    });
}

/**
 * What addresses use: letters of any script with their accents, digits, spaces and
 * , . - / # ' ( ) & (with the curly apostrophe phone keyboards type), and nothing else:
 * no markup, links, e-mail addresses or line breaks.
 */
export const ADDRESS_CHARACTERS = /^[\p{L}\p{M}\p{Nd} ,.\-/#'’()&]*$/u;
export const ADDRESS_MESSAGE = "Use only letters, numbers, spaces and , . - / # ' ( ) & in your address";
export const CITY_MESSAGE = "Use only letters, numbers, spaces and , . - / # ' ( ) & in your city";

/** A one-line delivery address (see ADDRESS_CHARACTERS). */
export const addressText = (label: string, max: number) =>
  singleLineText(label, max, { pattern: ADDRESS_CHARACTERS, message: ADDRESS_MESSAGE });
