/**
 * An e-mail address as every form of the store checks it, without zod: the words and the
 * pattern `emailSchema` (src/lib/fields.ts) checks with in the Worker and the islands, for the
 * plain scripts (the login page). A unit test holds the two to the same answers.
 */

export const EMAIL_MESSAGES = {
  missing: 'Please enter your email address',
  long: 'That email address is too long',
  invalid: 'Please enter a valid email address',
} as const;

export const EMAIL_MAX_LENGTH = 254;

/** zod's own e-mail pattern (zod/v4/core regexes.email), which `z.email()` checks with. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** What is wrong with a typed address (trimmed and lower-cased first, as the schema does), or undefined. */
export function emailProblem(typed: string): string | undefined {
  const email = typed.trim().toLowerCase();
  if (!email) return EMAIL_MESSAGES.missing;
  if (email.length > EMAIL_MAX_LENGTH) return EMAIL_MESSAGES.long;
  if (!EMAIL_PATTERN.test(email)) return EMAIL_MESSAGES.invalid;
  return undefined;
}

/** The mailboxes most of the store's shoppers use: a domain a letter or two from one of these is likely a slip. */
const COMMON_DOMAINS = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'ymail.com', 'live.com', 'aol.com'];
/** Real mailboxes that sit near a common one ("mail.com" is a letter from "gmail.com"): never "corrected". */
const KNOWN_DOMAINS = [
  ...COMMON_DOMAINS,
  'mail.com',
  'gmx.com',
  'msn.com',
  'yahoo.co.uk',
  'proton.me',
  'protonmail.com',
  'zoho.com',
];

/** Letters to change, add or remove to turn `a` into `b` (Levenshtein), up to `most` + 1. */
function editDistance(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The address the shopper most likely meant when its domain is one or two letters from a common
 * one ("ngozi@gmial.com" → "ngozi@gmail.com", "@yahoo.con" → "@yahoo.com"); undefined when it is
 * one of them, or near none. Only offered: an unusual domain may be right.
 */
export function emailSuggestion(typed: string): string | undefined {
  const email = typed.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 1 || emailProblem(email)) return undefined;
  const domain = email.slice(at + 1);
  if (KNOWN_DOMAINS.includes(domain)) return undefined;
  const near = COMMON_DOMAINS.find((common) => editDistance(domain, common, 2) <= 2);
  return near ? `${email.slice(0, at)}@${near}` : undefined;
}
