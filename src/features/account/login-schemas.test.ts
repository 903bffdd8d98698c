import { describe, expect, it } from 'vitest';
import { PASSWORD_CHECKLIST, PASSWORDS_DIFFER, resetFormSchema, signInErrorMessage, signUpFormSchema } from './login-schemas.ts';

const messagesAt = (
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
) => (result.error?.issues ?? []).filter((issue) => issue.path.join('.') === field).map((issue) => issue.message);

describe('the login forms', () => {
  it('want the password twice, the same', () => {
    const good = { email: 'Ada@Example.com ', password: 'Ikeja-Mango-2026', confirm: 'Ikeja-Mango-2026' };
    expect(signUpFormSchema.parse(good)).toEqual({ ...good, email: 'ada@example.com' });
    expect(messagesAt(signUpFormSchema.safeParse({ ...good, confirm: 'Ikeja-Mango-2027' }), 'confirm')).toEqual([
      PASSWORDS_DIFFER,
    ]);
    expect(messagesAt(signUpFormSchema.safeParse({ ...good, confirm: '' }), 'confirm')).toEqual([
      'Please type your password again',
    ]);
  });

  it('say the passwords differ also while the password breaks the policy', () => {
    const result = resetFormSchema.safeParse({ password: 'password1', confirm: 'password2' });
    expect(messagesAt(result, 'password')).toEqual(['That password is too common. Please choose one that is harder to guess']);
    expect(messagesAt(result, 'confirm')).toEqual([PASSWORDS_DIFFER]);
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
    expect(signInErrorMessage('whatever')).toMatch(/^Google sign-in did not complete/);
  });
});
