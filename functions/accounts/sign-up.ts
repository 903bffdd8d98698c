import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { signUpSchema } from '../../src/features/account/account-api.ts';
import type { Config } from '../env.ts';
import type { Db } from '../platform/db.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { users } from '../platform/schema.ts';
import { queueEmailForUser, resetLinkStatements, verifyLinkStatements } from './links.ts';
import { signUpExistingEmail, signUpUnclaimedEmail } from './messages.ts';
import { hashPassword } from './password.ts';

/**
 * A sign-up, in one batch that takes the same work whether or not the address has an account,
 * so neither the answer nor its timing tells: the password is hashed, then INSERT … SELECTs
 * write the new account with its verify link and e-mail, or tell the owner of the address.
 * Its owner hears "someone tried to sign up"; if nobody ever proved the address, the message
 * carries a reset link instead, which claims the account (issue 20). Those e-mails a stranger
 * could send the owner over and over: past the per-recipient limit they are left out, and so
 * is the new claim link (the last one sent keeps working). So is a new account's own verify
 * link: once per address, but "a+1@", "a+2@" (and Gmail's "a.b@") are new addresses to the
 * same mailbox (mailboxKey); its owner asks for another link later (/account/verify-email/resend).
 * Does not sign in.
 */
export async function signUp(db: Db, config: Config, { email, password, name }: z.output<typeof signUpSchema>): Promise<void> {
  const passwordHash = await hashPassword(password);
  const id = crypto.randomUUID();
  const isNew = eq(users.id, id);
  const someoneElse = and(eq(users.email, email), ne(users.id, id))!;
  const unclaimed = and(someoneElse, isNull(users.emailVerified))!;
  const mayEmail = await allowEmailTo(db, config, email, 'account');
  await db.batch([
    db
      .insert(users)
      .values({ id, email, name: name ?? null, passwordHash })
      .onConflictDoNothing({ target: users.email }),
    ...(mayEmail
      ? [
          ...(await verifyLinkStatements(db, config.SITE_URL, email, name, isNew)),
          queueEmailForUser(
            db,
            signUpExistingEmail(email, null, config.SITE_URL),
            and(someoneElse, isNotNull(users.emailVerified))!,
          ),
          ...(await resetLinkStatements(db, config.SITE_URL, unclaimed, (link) => signUpUnclaimedEmail(email, link))),
        ]
      : []),
  ]);
}
