import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/v4/core';
import { EMAIL_PATTERN, emailProblem } from '../../lib/email-check.ts';
import { emailSchema } from '../../lib/fields.ts';
import {
  CONFIRM_MISSING,
  checkLoginForm,
  currentPasswordProblem,
  newPasswordProblem,
  PASSWORD_CHECKLIST,
  PASSWORDS_DIFFER,
  signInErrorMessage,
} from './login-forms.ts';
import { COMMON_PASSWORDS, currentPasswordSchema, newPasswordSchema } from './password-policy.ts';

/** The first message zod gives, as a form shows it, or undefined when the value passes. */
const zodSays = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: string,
) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error?.issues[0]?.message;
};

/** Addresses near the edges of the pattern, and random text around an @. */
const emails = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom(
    '',
    ' ',
    'ada@',
    '@example.com',
    'ada@example',
    'a.@example.com',
    '.a@example.com',
    'a..b@example.com',
    "o'brien@example.ng",
    'ADA@EXAMPLE.COM ',
    'ada@-example.com',
    'ada@example.c',
    `${'a'.repeat(250)}@example.com`,
    'ada+shop@sub.example.com.ng',
    'ada@exa_mple.com',
    'ada @example.com',
  ),
  fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })).map(([a, b]) => `${a}@${b}`),
);

const passwords = fc.oneof(
  fc.string({ maxLength: 140 }),
  fc.constantFrom(
    '',
    'pass',
    'Password123!',
    'Ikeja-Mango-2026',
    'aaaaaaaa',
    'x'.repeat(129),
    ...[...COMMON_PASSWORDS].slice(0, 20),
  ),
);

describe('the login forms, checked without zod', () => {
  it('say of an e-mail address what emailSchema says (the Worker’s check), with zod’s own pattern', () => {
    fc.assert(
      fc.property(emails, (email) => {
        expect(emailProblem(email)).toBe(zodSays(emailSchema, email));
        expect(EMAIL_PATTERN.test(email)).toBe(regexes.email.test(email));
      }),
      { numRuns: 2_000 },
    );
  });

  it('say of a password what the policy’s schemas say', () => {
    fc.assert(
      fc.property(passwords, (password) => {
        expect(newPasswordProblem(password)).toBe(zodSays(newPasswordSchema, password));
        expect(currentPasswordProblem(password)).toBe(zodSays(currentPasswordSchema, password));
      }),
      { numRuns: 2_000 },
    );
  });

  it('want the password twice, the same, said also while the password breaks the policy', () => {
    const good = { email: 'Ada@Example.com ', password: 'Ikeja-Mango-2026', confirm: 'Ikeja-Mango-2026' };
    expect(checkLoginForm('signup', good)).toEqual({});
    expect(checkLoginForm('signup', { ...good, confirm: 'Ikeja-Mango-2027' })).toEqual({ confirm: PASSWORDS_DIFFER });
    expect(checkLoginForm('signup', { ...good, confirm: '' })).toEqual({ confirm: CONFIRM_MISSING });
    expect(checkLoginForm('reset', { password: 'password1', confirm: 'password2' })).toEqual({
      password: 'That password is too common. Please choose one that is harder to guess',
      confirm: PASSWORDS_DIFFER,
    });
  });

  it('check only the fields each form has', () => {
    expect(checkLoginForm('signin', {})).toEqual({
      email: 'Please enter your email address',
      password: 'Please enter your password',
    });
    // Signing in takes a password the policy would refuse now (the policy may have changed since it was set).
    expect(checkLoginForm('signin', { email: 'ada@example.com', password: 'pass' })).toEqual({});
    expect(checkLoginForm('forgot', { password: '' })).toEqual({ email: 'Please enter your email address' });
    expect(checkLoginForm('verify', { email: '' })).toEqual({ password: 'Please enter your password' });
    expect(Object.keys(checkLoginForm('claim', {}))).toEqual(['password', 'confirm']);
  });

  it('list the policy as rules met as the user types', () => {
    const met = (password: string) => PASSWORD_CHECKLIST.map((rule) => rule.met(password));
    expect(met('')).toEqual([false, false]);
    expect(met('abc')).toEqual([false, true]);
    expect(met('Password123!')).toEqual([true, false]);
    expect(met('Ikeja-Mango-2026')).toEqual([true, true]);
  });

  it("put Google's error codes in words", () => {
    expect(signInErrorMessage('OAuthAccountNotLinked')).toBe(
      'An account with this e-mail uses a password. Sign in with your password instead.',
    );
    expect(signInErrorMessage('GoogleOtherAddress')).toMatch(/^That Google account has another e-mail address/);
    expect(signInErrorMessage('whatever')).toMatch(/^Google sign-in did not complete/);
  });
});
