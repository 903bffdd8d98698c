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
