import { compose, greeting, type EmailMessage } from '../platform/email.ts';

/** The accounts' e-mails (issue 11), queued through the outbox like the order e-mails. */
export type AccountEmailKind =
  | 'account_verify'
  | 'account_signup_existing'
  | 'account_password_reset'
  | 'account_password_changed'
  | 'account_address_confirmed'
  | 'account_signup_unclaimed';

/** How long a verify link works. */
export const VERIFY_LINK_HOURS = 24;
/** How long a reset link works. */
export const RESET_LINK_HOURS = 1;

/** `${SITE_URL}/login?<param>=<token>`: the login page posts the token back to the API. */
export function accountLink(siteUrl: string, param: 'verify' | 'reset', token: string): string {
  const url = new URL('/login', siteUrl);
  url.searchParams.set(param, token);
  return url.href;
}

const hello = (name: string | null | undefined) => (name ? greeting(name) : 'Hello,');

export function verifyEmail(to: string, name: string | null | undefined, link: string): EmailMessage<AccountEmailKind> {
  return compose('account_verify', to, 'Confirm your GTS account e-mail address', [
    hello(name),
    'Welcome to GTS Electronics. Please confirm this is your e-mail address by opening this link:',
    link,
    `The link works once, for ${VERIFY_LINK_HOURS} hours. Orders you placed earlier as a guest with this address will then show in your account.`,
    'If you did not create an account, ignore this e-mail.',
  ]);
}

/** Sign-up with an address that already has an account: its owner hears about it, the form says the same as for a new one. */
export function signUpExistingEmail(
  to: string,
  name: string | null | undefined,
  siteUrl: string,
): EmailMessage<AccountEmailKind> {
  return compose('account_signup_existing', to, 'Someone tried to create a GTS account with your e-mail', [
    hello(name),
    'Someone (perhaps you) tried to create a new GTS Electronics account with this e-mail address. You already have an account, so nothing was changed.',
    `If it was you, sign in at ${new URL('/login', siteUrl).href}; if you forgot your password, choose "Forgot password?" there.`,
    'If it was not you, you can ignore this e-mail: your account is safe.',
  ]);
}

export function passwordResetEmail(to: string, name: string | null | undefined, link: string): EmailMessage<AccountEmailKind> {
  return compose('account_password_reset', to, 'Reset your GTS password', [
    hello(name),
    'We received a request to reset the password of your GTS Electronics account. To choose a new one, open this link:',
    link,
    `The link works once, for ${RESET_LINK_HOURS} hour. Setting a new password signs you out on every device.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ]);
}

export function passwordChangedEmail(
  to: string,
  name: string | null | undefined,
  siteUrl: string,
): EmailMessage<AccountEmailKind> {
  return compose('account_password_changed', to, 'Your GTS password was changed', [
    hello(name),
    'The password of your GTS Electronics account was just changed, and every other device was signed out.',
    `If this was not you, reset your password at once: ${new URL('/login', siteUrl).href} ("Forgot password?").`,
  ]);
}

/**
 * The address's first proof (verify link, reset link or Google) ended every sign-in set up
 * before it: the owner hears it, with what to do if the proof was not theirs.
 */
export function addressConfirmedEmail(
  to: string,
  name: string | null | undefined,
  siteUrl: string,
): EmailMessage<AccountEmailKind> {
  const login = new URL('/login', siteUrl).href;
  return compose('account_address_confirmed', to, 'Your GTS e-mail address is confirmed', [
    hello(name),
    'Your e-mail address is now confirmed for your GTS Electronics account. Any sign-in set up before now (a password nobody had confirmed, other devices, a linked Google account) was ended, so only whoever confirmed the address can use the account.',
    'Orders you placed as a guest with this address now show in your account.',
    `If this was not you, someone who can read this mailbox confirmed the address: choose "Forgot password?" at ${login} to take the account back, and secure your e-mail.`,
  ]);
}

/**
 * Sign-up with an address whose account nobody has confirmed: the address's owner may be the
 * one signing up now, and someone else may have started the account with their address. The
 * reset link claims it (the password is theirs, everything set up before ends).
 */
export function signUpUnclaimedEmail(to: string, link: string): EmailMessage<AccountEmailKind> {
  return compose('account_signup_unclaimed', to, 'Claim your GTS account', [
    'Hello,',
    'Someone (perhaps you) tried to create a GTS Electronics account with this e-mail address. An account with this address was already started, but the address was never confirmed.',
    'If this is your e-mail address, claim the account by choosing your password with this link:',
    link,
    `The link works once, for ${RESET_LINK_HOURS} hour. Claiming it ends every sign-in set up before, and orders you placed as a guest with this address then show in your account.`,
    'If you did not try to sign up, you can ignore this e-mail.',
  ]);
}
