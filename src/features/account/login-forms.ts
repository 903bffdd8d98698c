import { emailProblem } from '../../lib/email-check.ts';
import { isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from './password-rules.ts';

/**
 * The login page's forms (LoginPage.astro, login.browser.ts), without zod: what each asks for,
 * what it says, and how the browser checks it before sending, with the words and rules the
 * Worker checks the account requests with (account-api.ts; a unit test holds them together),
 * plus what only a form has: the repeated password.
 */

/** The page's forms: a verify link is confirmed with the password chosen at sign-up, or claimed with a new one. */
export type LoginMode = 'signin' | 'signup' | 'forgot' | 'reset' | 'verify' | 'claim';

export const LOGIN_MODES: readonly LoginMode[] = ['signin', 'signup', 'forgot', 'reset', 'verify', 'claim'];

export const isLoginMode = (value: string | undefined): value is LoginMode => LOGIN_MODES.includes(value as LoginMode);

const VERIFY_HEADING = {
  title: 'Confirm your e-mail address',
  intro:
    'To finish, type the password you chose when you created the account. If you did not create it, or forgot the password, choose a new one: anything set up before with this address will stop working.',
};

/** Each form's heading and the sentence under it. */
export const LOGIN_HEADINGS: Record<LoginMode, { title: string; intro: string }> = {
  signin: { title: 'Welcome back!', intro: 'Sign in to follow your orders and check out faster.' },
  signup: { title: 'Create an account', intro: 'Keep your delivery details, follow your orders and rate what you bought.' },
  forgot: {
    title: 'Forgot your password?',
    intro: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
  },
  reset: {
    title: 'Choose a new password',
    intro: 'Pick a new password for your account. It signs you out on every other device.',
  },
  verify: VERIFY_HEADING,
  claim: VERIFY_HEADING,
};

export const PASSWORDS_DIFFER = 'Passwords do not match';
export const CONFIRM_MISSING = 'Please type your password again';

/** The policy as a checklist under a new password, each rule marked met as the user types. */
export const PASSWORD_CHECKLIST: readonly { id: string; label: string; met: (password: string) => boolean }[] = [
  {
    id: 'length',
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    met: (password) => password.length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'common', label: 'Not a commonly used password', met: (password) => password.length > 0 && !isCommonPassword(password) },
];

/** A new password's first problem (newPasswordSchema's order), or undefined. */
export function newPasswordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.short;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.long;
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.common;
  return undefined;
}

/** A password typed to sign in or confirm (currentPasswordSchema): only that there is one. */
export function currentPasswordProblem(password: string): string | undefined {
  if (!password) return PASSWORD_MESSAGES.missingCurrent;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.long;
  return undefined;
}

export type LoginField = 'email' | 'password' | 'confirm';

/** Which fields each form has, in the order they are shown (the first with a problem takes focus). */
export const LOGIN_FIELDS: Record<LoginMode, readonly LoginField[]> = {
  signin: ['email', 'password'],
  signup: ['email', 'password', 'confirm'],
  forgot: ['email'],
  reset: ['password', 'confirm'],
  verify: ['password'],
  claim: ['password', 'confirm'],
};

/** Each field's first problem in a form's values; empty when the form may be sent. */
export function checkLoginForm(
  mode: LoginMode,
  values: Partial<Record<LoginField, string>>,
): Partial<Record<LoginField, string>> {
  const { email = '', password = '', confirm = '' } = values;
  const choosing = LOGIN_FIELDS[mode].includes('confirm');
  const problems: Partial<Record<LoginField, string | undefined>> = {};
  for (const field of LOGIN_FIELDS[mode]) {
    if (field === 'email') problems.email = emailProblem(email);
    if (field === 'password') problems.password = choosing ? newPasswordProblem(password) : currentPasswordProblem(password);
    // Said even while the password itself breaks a rule.
    if (field === 'confirm') problems.confirm = !confirm ? CONFIRM_MISSING : confirm !== password ? PASSWORDS_DIFFER : undefined;
  }
  return Object.fromEntries(Object.entries(problems).filter(([, message]) => message)) as Partial<Record<LoginField, string>>;
}

/** What `/login?error=<code>` (Auth.js, after Google sign-in) means, in the shopper's words. */
export function signInErrorMessage(code: string): string {
  switch (code) {
    case 'GoogleEmailNotVerified':
      return 'Google has not confirmed that e-mail address, so it cannot sign in here. Use a Google account with a confirmed address, or sign in with your e-mail and password.';
    case 'GoogleOtherAddress':
      return 'That Google account has another e-mail address than the account you are signed in to. Sign out first to use it, or use a Google account with the same address.';
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
