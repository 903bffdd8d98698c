import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../env.ts';
import { sha256Hex } from '../platform/crypto.ts';
import type { Db } from '../platform/db.ts';
import { outboxRowFor } from '../platform/outbox.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { emailOutbox, newsletterSubscribers } from '../platform/schema.ts';
import {
  CONFIRM_LINK_HOURS,
  confirmLink,
  confirmSecret,
  newsletterConfirmEmail,
  signingSecret,
  unsubscribeAddress,
  unsubscribeUrl,
} from './messages.ts';

/*
 * The newsletter, double opt-in (issue 20, finding 6): a sign-up stores the address as waiting,
 * with the SHA-256 of a confirmation link's secret, and e-mails the link; only the link's POST
 * makes it a subscriber. Every e-mail carries an unsubscribe link signed for its address.
 */

const HOUR_MS = 60 * 60 * 1000;

/** The per-client limit on sign-ups, one budget for the API's and the page's (src/features/newsletter/subscribe.server.ts). */
export const SUBSCRIBE_LIMIT = 'newsletter.subscribe';

/**
 * The footer's sign-up: the address waits for its confirmation link, which is e-mailed; asked
 * again while that link works, the same link is e-mailed again. The same three statements
 * whatever the address's state: a read of its waiting link, the upsert that refreshes only a
 * waiting row's link,
 * and the e-mail is queued only for the row that now holds this link (none for a subscriber),
 * so neither the answer nor its timing says which it was. Past the address's e-mail limit its
 * waiting link is left as it was (a new one nobody receives would only break the one it has)
 * and nothing is queued.
 */
export async function askToSubscribe(db: Db, config: Config, email: string, now = new Date()): Promise<void> {
  const row = newsletterSubscribers;
  // Asked again while its link still works: the same link (confirmSecret), so the first e-mail's works too.
  const [waiting] = await db
    .select({ expires: row.confirmExpiresAt })
    .from(row)
    .where(and(eq(row.email, email), isNull(row.confirmedAt), gt(row.confirmExpiresAt, now)))
    .limit(1);
  // Whole seconds: D1 keeps the moment in seconds, and the secret is made from it again.
  const expires = waiting?.expires ?? new Date(Math.floor((now.getTime() + CONFIRM_LINK_HOURS * HOUR_MS) / 1000) * 1000);
  const secret = await confirmSecret(signingSecret(config), email, expires);
  const tokenHash = await sha256Hex(secret);
  const message = newsletterConfirmEmail(email, confirmLink(config.SITE_URL, secret), await unsubscribeUrl(config, email));
  const mayEmail = await allowEmailTo(db, config, email, 'newsletter');
  await db.batch([
    db
      .insert(row)
      .values({ email, confirmTokenHash: tokenHash, confirmExpiresAt: expires })
      .onConflictDoUpdate({
        target: row.email,
        set: { confirmTokenHash: tokenHash, confirmExpiresAt: expires },
        setWhere: mayEmail ? isNull(row.confirmedAt) : sql`0`,
      }),
    db.insert(emailOutbox).select(
      db
        .select(outboxRowFor(message, null))
        .from(row)
        .where(and(eq(row.email, email), eq(row.confirmTokenHash, tokenHash), mayEmail ? undefined : sql`0`)),
    ),
  ]);
}

/** Makes the address whose waiting link this is a subscriber; false for a link unknown, used or expired. */
export async function confirmSubscriber(db: Db, secret: string, now = new Date()): Promise<boolean> {
  const row = newsletterSubscribers;
  // Read and spent in one statement: of two presses, one confirms.
  const confirmed = await db
    .update(row)
    .set({ confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null })
    .where(and(eq(row.confirmTokenHash, await sha256Hex(secret)), isNull(row.confirmedAt), gt(row.confirmExpiresAt, now)))
    .returning({ id: row.id });
  return confirmed.length > 0;
}

/**
 * Removes the address an unsubscribe token was signed for and answers it, or null for a token
 * not made with this secret. Whether or not it was subscribed, pressing twice is harmless.
 */
export async function unsubscribe(db: Db, config: Config, token: string): Promise<string | null> {
  const email = await unsubscribeAddress(signingSecret(config), token);
  if (email) await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  return email;
}

/** Deletes addresses whose confirmation link ran out (they never became subscribers). Run by the cron. */
export async function prunePendingSubscribers(db: Db, now = new Date()): Promise<number> {
  const row = newsletterSubscribers;
  const deleted = await db
    .delete(row)
    .where(and(isNull(row.confirmedAt), or(isNull(row.confirmExpiresAt), lt(row.confirmExpiresAt, now))))
    .returning({ id: row.id });
  return deleted.length;
}
