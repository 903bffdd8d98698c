import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { z } from 'zod';
import { PASSWORD_REQUIRED, type verifyEmailSchema } from '../../src/features/account/account-api.ts';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { users } from '../platform/schema.ts';
import { clearSignInFailures, confirmPassword } from './credentials.ts';
import { trustDevice } from './device.ts';
import { consumeLink, firstProofStatements, invalidToken, peekLink, verifyLinkStatements } from './links.ts';
import { hashPassword } from './password.ts';
import { issueSessionCookie, sessionUser, type SignedInEnv } from './session.ts';

const passwordRequired = () => {
  const message = 'Type the password you chose when you created the account, or choose a new password for it.';
  return new ApiError(400, PASSWORD_REQUIRED, `To confirm this address: ${message[0]!.toLowerCase()}${message.slice(1)}`, [
    { field: 'password', message },
  ]);
};

const wrongSignUpPassword = () =>
  new ApiError(400, 'invalid_request', 'That is not the password this account was created with.', [
    { field: 'password', message: 'That is not the password this account was created with. Try again, or choose a new one.' },
  ]);

/**
 * The verify link, opened: `already_verified` for an address proven before (the link is used
 * up); otherwise the address's first proof. The link proves the inbox, and who signed up must
 * be proven too, or whoever typed the address first (perhaps not its owner) would keep a
 * password to the owner's account: this browser's session of the account, or its password
 * (counted like a sign-in), or a new password that replaces it. Without proof 400
 * `password_required`; the link is checked first and used last, so a refused attempt leaves
 * it working. Then the first proof's batch (functions/accounts/links.ts) ends whatever was
 * set up before, and this browser is signed in and trusted. The owner's e-mail is queued.
 */
export async function verifyEmailAddress(
  c: Context<AppEnv>,
  { token, password, newPassword }: z.output<typeof verifyEmailSchema>,
): Promise<'verified' | 'already_verified'> {
  const { db, config } = c.var;
  const userId = await peekLink(db, 'verify', token);
  const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
  if (!user) throw invalidToken();
  if (user.emailVerified) {
    await consumeLink(db, 'verify', token);
    return 'already_verified';
  }
  let passwordHash: string | undefined;
  if (newPassword !== undefined) {
    passwordHash = await hashPassword(newPassword);
  } else if ((await sessionUser(c))?.id !== user.id) {
    if (password === undefined) throw passwordRequired();
    await confirmPassword(c, user, password, wrongSignUpPassword);
  }
  if ((await consumeLink(db, 'verify', token)) !== user.id) throw invalidToken();
  await db.batch(firstProofStatements(db, user, config.SITE_URL, { passwordHash }));
  const [proven] = await db.select().from(users).where(eq(users.id, user.id));
  if (!proven) throw invalidToken();
  // This browser just proved the inbox: it is signed in, and counted apart from strangers.
  await issueSessionCookie(c, proven);
  await trustDevice(c, proven);
  if (passwordHash) await clearSignInFailures(c, user.email);
  return 'verified';
}

/**
 * A new verify link for the signed-in user: `already_verified` when there is nothing to prove.
 * The account holder asks, but an unproven account may be a stranger's who typed this address,
 * so the per-recipient e-mail limit applies: past it 429 `rate_limited`.
 */
export async function resendVerification(c: Context<SignedInEnv>): Promise<'sent' | 'already_verified'> {
  const { db, config, user } = c.var;
  if (user.emailVerified) return 'already_verified';
  if (!(await allowEmailTo(db, config, user.email, 'account'))) {
    throw new ApiError(
      429,
      'rate_limited',
      `We have already sent several links to ${user.email} in the last hour. Use the newest one, or try again later.`,
    );
  }
  await db.batch(await verifyLinkStatements(db, config.SITE_URL, user.email, user.name, eq(users.id, user.id)));
  return 'sent';
}
