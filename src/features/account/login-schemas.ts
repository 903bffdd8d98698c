import { z } from 'zod';
import { emailSchema } from '../../lib/fields.ts';
import { currentPasswordSchema, isCommonPassword, newPasswordSchema, PASSWORD_MIN_LENGTH } from './password-policy.ts';

/**
 * The login page's forms (src/features/account/LoginForm.tsx), checked in the browser with
 * the same field schemas the Worker validates the account requests with
 * (account-api.ts), plus what only the form has: the repeated password.
 */

export const PASSWORDS_DIFFER = 'Passwords do not match';

/** The password policy as a checklist under a new password, each rule marked met as the user types. */
export const PASSWORD_CHECKLIST: readonly { id: string; label: string; met: (password: string) => boolean }[] = [
  {
    id: 'length',
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    met: (password) => password.length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'common', label: 'Not a commonly used password', met: (password) => password.length > 0 && !isCommonPassword(password) },
];

const confirmSchema = z.string({ error: 'Please type your password again' }).min(1, 'Please type your password again');

/** The repeated password must equal the password; said even while the password itself breaks a rule. */
function withConfirmation<S extends z.ZodType<{ password: string; confirm: string }>>(schema: S): S {
  return schema.refine((values) => values.password === values.confirm, {
    message: PASSWORDS_DIFFER,
    path: ['confirm'],
    when: ({ value }) => {
      const { password, confirm } = (value ?? {}) as Partial<Record<'password' | 'confirm', unknown>>;
      return typeof password === 'string' && typeof confirm === 'string' && confirm !== '';
    },
  });
}

export const signInFormSchema = z.object({ email: emailSchema, password: currentPasswordSchema });
export type SignInForm = z.input<typeof signInFormSchema>;

export const signUpFormSchema = withConfirmation(
  z.object({ email: emailSchema, password: newPasswordSchema, confirm: confirmSchema }),
);
export type SignUpForm = z.input<typeof signUpFormSchema>;

export const forgotFormSchema = z.object({ email: emailSchema });
export type ForgotForm = z.input<typeof forgotFormSchema>;

/** The verify link opened without a session: the password chosen at sign-up proves who signed up. */
export const verifyFormSchema = z.object({ password: currentPasswordSchema });
export type VerifyForm = z.input<typeof verifyFormSchema>;

export const resetFormSchema = withConfirmation(z.object({ password: newPasswordSchema, confirm: confirmSchema }));
export type ResetForm = z.input<typeof resetFormSchema>;

/** What `/login?error=<code>` (Auth.js, after Google sign-in) means, in the shopper's words. */
export function signInErrorMessage(code: string): string {
  switch (code) {
    case 'GoogleEmailNotVerified':
      return 'Google has not confirmed that e-mail address, so it cannot sign in here. Use a Google account with a confirmed address, or sign in with your e-mail and password.';
    case 'OAuthAccountNotLinked':
      return 'An account with this e-mail uses a password. Sign in with your password instead.';
    case 'AccessDenied':
      return 'Google sign-in was cancelled or not allowed. Please try again, or sign in with your e-mail and password.';
    case 'Configuration':
      return 'Sign-in is not set up correctly on our side. Please try again later, or sign in with your e-mail and password.';
    case 'Verification':
      return 'That sign-in link has expired or was already used. Please sign in again.';
    case 'CredentialsSignin':
      return 'That e-mail address and password do not match an account. Check them and try again.';
    default:
      return 'Google sign-in did not complete. Please try again, or sign in with your e-mail and password.';
  }
}
