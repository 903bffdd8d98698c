import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { ApiError } from '../platform/errors.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { users } from '../platform/schema.ts';
import { clearSignInFailures, confirmPassword } from './credentials.ts';
import { queueEmailForUser } from './links.ts';
import { passwordChangedEmail } from './messages.ts';
import { hashPassword } from './password.ts';
import type { SignedInEnv } from './session.ts';
import { endOtherSessions } from './sign-out.ts';

const wrongCurrentPassword = () =>
  new ApiError(400, 'invalid_request', 'Your current password is not right.', [
    { field: 'currentPassword', message: 'Your current password is not right' },
  ]);

/**
 * The signed-in user changes their password. An account that signs in with Google only has
 * none to change (400 `no_password`: "Forgot password?" adds one). The current password is
 * required, and wrong ones count like failed sign-ins, so a stolen session cannot guess on.
 * Every other session ends, this browser's stays; the failures so far are forgiven and the
 * owner is told by e-mail (up to the address's hourly e-mails). Made only at the version the
 * session was checked at: a reset or claim landing meanwhile wins, and this change is a 401.
 */
export async function changePassword(c: Context<SignedInEnv>, currentPassword: string, newPassword: string): Promise<void> {
  const { db, config, user } = c.var;
  if (!user.passwordHash) {
    throw new ApiError(400, 'no_password', 'Your account signs in with Google. Use "Forgot password?" to add a password.');
  }
  await confirmPassword(c, user, currentPassword, wrongCurrentPassword);
  await endOtherSessions(c, { passwordHash: await hashPassword(newPassword) });
  await clearSignInFailures(c, user.email);
  // Told each time, up to the hourly limit of security notices: a session could change it in a
  // loop; strangers' sign-ups and reset requests fill other counts, so they cannot silence it.
  if (await allowEmailTo(db, config, user.email, 'security'))
    await queueEmailForUser(db, passwordChangedEmail(user.email, user.name, config.SITE_URL), eq(users.id, user.id));
}
