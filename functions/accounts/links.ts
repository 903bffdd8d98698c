import { and, eq, gt, isNull, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../platform/db.ts';
import {
  accounts,
  emailOutbox,
  orders,
  sessions,
  tradeIns,
  users,
  verificationTokens,
  type UserRow,
} from '../platform/schema.ts';
import { accountLink, addressConfirmedEmail, RESET_LINK_HOURS, VERIFY_LINK_HOURS, verifyEmail } from './messages.ts';
import type { EmailMessage } from '../platform/email.ts';
import { outboxRowFor } from '../platform/outbox.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';

/**
 * Single-use secrets for the e-mailed links (verify the address, reset the password). The
 * link carries 32 random bytes; D1 keeps only their SHA-256 (verification_tokens.token),
 * with what it is for and whom (`verify:<user id>`, `reset:<user id>`) and when it expires.
 * Using one deletes it, in the same statement that reads it.
 */
type LinkPurpose = 'verify' | 'reset';

/** A verify or reset link that is unknown, used or expired. */
export const invalidToken = () =>
  new ApiError(400, 'invalid_token', 'This link has expired or was already used. Ask for a new one.', [
    { field: 'token', message: 'This link has expired or was already used' },
  ]);

export function newLinkSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/**
 * Stores the secret's hash for the user `who` selects (none selected: nothing is written),
 * after deleting the user's earlier links of the same purpose, so only the newest works.
 * Built as INSERT … SELECT so the statements are the same whether or not the user exists.
 */
async function storeLinkStatements(db: Db, purpose: LinkPurpose, secret: string, expires: Date, who: SQL) {
  const hash = await sha256Hex(secret);
  return [
    db
      .delete(verificationTokens)
      .where(sql`${verificationTokens.identifier} in (select ${`${purpose}:`} || ${users.id} from ${users} where ${who})`),
    db.insert(verificationTokens).select(
      db
        .select({
          identifier: sql<string>`${`${purpose}:`} || ${users.id}`.as('identifier'),
          token: sql<string>`${hash}`.as('token'),
          expires: sql<number>`${expires.getTime()}`.as('expires'),
        })
        .from(users)
        .where(who),
    ),
  ] as const;
}

/**
 * Uses a link's secret: deletes its row and answers the user id it was for, or null when
 * it is unknown, already used, for another purpose or expired (an expired row is deleted too).
 */
export async function consumeLink(db: Db, purpose: LinkPurpose, secret: string, now = new Date()): Promise<string | null> {
  const hash = await sha256Hex(secret);
  const [row] = await db
    .delete(verificationTokens)
    .where(and(eq(verificationTokens.token, hash), like(verificationTokens.identifier, `${purpose}:%`)))
    .returning();
  if (!row || row.expires.getTime() <= now.getTime()) return null;
  return row.identifier.slice(purpose.length + 1);
}

/**
 * Reads a link's secret without using it: the user id it is for, or null (unknown, another
 * purpose, expired). For a link that needs more proof than itself (the verify link asks who
 * signed up), so a refused attempt leaves it working; `consumeLink` then uses it.
 */
export async function peekLink(db: Db, purpose: LinkPurpose, secret: string, now = new Date()): Promise<string | null> {
  const hash = await sha256Hex(secret);
  const [row] = await db
    .select({ identifier: verificationTokens.identifier })
    .from(verificationTokens)
    .where(
      and(
        eq(verificationTokens.token, hash),
        like(verificationTokens.identifier, `${purpose}:%`),
        gt(verificationTokens.expires, now),
      ),
    );
  return row ? row.identifier.slice(purpose.length + 1) : null;
}

/** Queues `message` only if `who` selects a user: INSERT … SELECT, the same statement either way. */
export function queueEmailForUser(db: Db, message: EmailMessage, who: SQL) {
  return db.insert(emailOutbox).select(db.select(outboxRowFor(message, null)).from(users).where(who));
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * A new verify link for the user `who` selects (none: nothing is written or sent), for a batch:
 * stored (only the newest works) and e-mailed to `to`, VERIFY_LINK_HOURS long.
 */
export async function verifyLinkStatements(db: Db, siteUrl: string, to: string, name: string | null | undefined, who: SQL) {
  const secret = newLinkSecret();
  return [
    ...(await storeLinkStatements(db, 'verify', secret, new Date(Date.now() + VERIFY_LINK_HOURS * HOUR_MS), who)),
    queueEmailForUser(db, verifyEmail(to, name, accountLink(siteUrl, 'verify', secret)), who),
  ] as const;
}

/**
 * A new reset link for the user `who` selects, for a batch: stored (only the newest works) and
 * e-mailed as `message(link)` (the 'Forgot password?' e-mail, or a sign-up's claim link),
 * RESET_LINK_HOURS long.
 */
export async function resetLinkStatements(db: Db, siteUrl: string, who: SQL, message: (link: string) => EmailMessage) {
  const secret = newLinkSecret();
  return [
    ...(await storeLinkStatements(db, 'reset', secret, new Date(Date.now() + RESET_LINK_HOURS * HOUR_MS), who)),
    queueEmailForUser(db, message(accountLink(siteUrl, 'reset', secret)), who),
  ] as const;
}

/**
 * The statements that record a proven address: the user's e-mail is verified (if it was
 * not yet), and the guest orders and trade-in requests made with that address (no account yet)
 * join the account.
 */
export function markVerifiedStatements(db: Db, userId: string, email: string, now = new Date()) {
  return [
    db
      .update(users)
      .set({ emailVerified: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerified))),
    db
      .update(orders)
      .set({ userId })
      .where(and(eq(orders.email, email), isNull(orders.userId))),
    db
      .update(tradeIns)
      .set({ userId })
      .where(and(eq(tradeIns.email, email), isNull(tradeIns.userId))),
  ] as const;
}

/**
 * The address's first proof (verify link, reset link, or Google vouching for it), as one batch:
 * the address is verified and what it brings in joins the account, and every credential and
 * session set up before the proof ends (docs/decisions/011, issue 20): sessions and the
 * session version, Google identities linked before, and the password unless the prover showed
 * it (`passwordHash` undefined keeps it; a string replaces it; null clears it). The owner is
 * told by e-mail.
 */
export function firstProofStatements(
  db: Db,
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
  siteUrl: string,
  { passwordHash, now = new Date() }: { passwordHash?: string | null; now?: Date } = {},
) {
  const [, joinOrders, joinTradeIns] = markVerifiedStatements(db, user.id, user.email, now);
  // A prover who did not show the sign-up password (a new one, or Google's word) claims an
  // account someone else may have set up in their name: what that someone typed into the profile
  // (name, phone, delivery address, e-mail preferences) goes with their password and sessions,
  // or the checkout would offer to deliver to it (an attacker's review, 2026-11-29).
  const claimed = passwordHash !== undefined;
  return [
    db
      .update(users)
      .set({
        emailVerified: now,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        ...(claimed ? { passwordHash, ...UNCLAIMED_PROFILE } : {}),
      })
      .where(eq(users.id, user.id)),
    joinOrders,
    joinTradeIns,
    db.delete(accounts).where(eq(accounts.userId, user.id)),
    db.delete(sessions).where(eq(sessions.userId, user.id)),
    db.delete(verificationTokens).where(eq(verificationTokens.identifier, `verify:${user.id}`)),
    queueEmailForUser(db, addressConfirmedEmail(user.email, claimed ? null : user.name, siteUrl), eq(users.id, user.id)),
  ] as const;
}

/** A profile as sign-up leaves it: what firstProofStatements() puts back when an address is claimed. */
const UNCLAIMED_PROFILE = {
  name: null,
  phone: null,
  address: null,
  city: null,
  state: null,
  notifyOrderUpdates: true,
  notifyPromotions: false,
} as const;
