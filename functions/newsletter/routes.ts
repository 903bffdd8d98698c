import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { SUBSCRIBE_MESSAGE } from '../../src/features/newsletter/newsletter-answers.ts';
import { newsletterApi, newsletterTokenSchema, subscribeApi } from '../../src/features/newsletter/subscribe.ts';
import { newLinkSecret } from '../accounts/links.ts';
import type { Db } from '../platform/db.ts';
import { emailOutbox, newsletterSubscribers } from '../platform/schema.ts';
import {
  CONFIRM_LINK_HOURS,
  confirmLink,
  newsletterConfirmEmail,
  signingSecret,
  unsubscribeAddress,
  unsubscribeLink,
  unsubscribeToken,
} from './messages.ts';
import { deliverEmailsLater, outboxRowFor } from '../platform/outbox.ts';
import type { Config } from '../env.ts';
import { type AppEnv, createRouter } from '../platform/app.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { ApiError, invalidRequest } from '../platform/errors.ts';
import { allowEmailTo, rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';

/*
 * The newsletter, double opt-in (issue 20, finding 6): a sign-up stores the address as waiting,
 * with the SHA-256 of a confirmation link's secret, and e-mails the link; only the link's POST
 * makes it a subscriber. Every e-mail carries an unsubscribe link signed for its address.
 */

const PRIVATE = { 'cache-control': 'no-store' };
const HOUR_MS = 60 * 60 * 1000;

const CONFIRMED_MESSAGE = 'You are subscribed. Thank you! Watch your inbox for deals and new arrivals.';
const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed: we will send no more newsletters to this address.';

const invalidToken = (message: string) =>
  new ApiError(400, 'invalid_token', message, [{ field: 'token', message: 'This link has expired or is not valid' }]);
const expiredConfirmation = () =>
  invalidToken('This confirmation link has expired or was already used. Subscribe again for a new one.');
const forgedUnsubscribe = () => invalidToken('This unsubscribe link is not valid. Use the link from one of our e-mails.');

/** The link every newsletter e-mail to `email` carries (and the admin's export lists). */
export async function unsubscribeUrl(config: Config, email: string): Promise<string> {
  return unsubscribeLink(config.SITE_URL, await unsubscribeToken(signingSecret(config), email));
}

/**
 * Where a token came from decides the answer: JSON from a script; the pages' plain forms
 * (no JavaScript needed), sent back to their page with the outcome; and a mailbox provider's
 * RFC 8058 one-click post (`List-Unsubscribe=One-Click` in the body, the token in the URL).
 */
type Caller = 'script' | 'page' | 'one-click';

async function readToken(c: Context<AppEnv>): Promise<{ token: string | null; caller: Caller; problem?: ApiError }> {
  const form = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header('content-type') ?? '');
  let input: unknown;
  let caller: Caller = 'script';
  if (form) {
    let fields: Record<string, unknown>;
    try {
      fields = await c.req.parseBody();
    } catch {
      // A multipart body that does not match its boundary: the client's mistake, not a 500.
      throw new ApiError(400, 'bad_request', 'The form could not be read.', [
        { field: '(body)', message: 'The form could not be read.' },
      ]);
    }
    caller = fields['List-Unsubscribe'] === 'One-Click' ? 'one-click' : 'page';
    input = { token: fields.token ?? c.req.query('token') };
  } else {
    try {
      input = await c.req.json();
    } catch {
      throw new ApiError(400, 'bad_request', 'The request body is not valid JSON.', [
        { field: '(body)', message: 'The request body is not valid JSON.' },
      ]);
    }
  }
  const parsed = newsletterTokenSchema.safeParse(input);
  return parsed.success
    ? { token: parsed.data.token, caller }
    : { token: null, caller, problem: invalidRequest(parsed.error, 'request') };
}

/** POST /api/subscribe: the footer's sign-up. */
export const subscribe = createRouter().post(
  '/',
  // Before validation, so malformed floods count too (decision 010).
  rateLimit({ name: 'newsletter.subscribe', rule: (config) => config.RATE_LIMIT_NEWSLETTER }),
  validate('json', subscribeApi.body),
  async (c) => {
    const { db, config } = c.var;
    const { email } = c.req.valid('json');
    const secret = newLinkSecret();
    const tokenHash = await sha256Hex(secret);
    const expires = new Date(Date.now() + CONFIRM_LINK_HOURS * HOUR_MS);
    const message = newsletterConfirmEmail(email, confirmLink(config.SITE_URL, secret), await unsubscribeUrl(config, email));
    // Past the address's e-mail limit its waiting link is left as it was (a new one nobody
    // receives would only break the one it has) and nothing is queued; the answer is the same.
    const mayEmail = await allowEmailTo(db, config, email, 'newsletter');
    const row = newsletterSubscribers;
    // The same two statements whatever the address's state: the upsert refreshes only a waiting
    // row's link, and the e-mail is queued only for the row that now holds this link (none for a
    // subscriber), so neither the answer nor its timing says which it was.
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
    deliverEmailsLater(c);
    return reply(c, subscribeApi, { message: SUBSCRIBE_MESSAGE }, 202, PRIVATE);
  },
);

/** Makes the address whose waiting link this is a subscriber; false for a link unknown, used or expired. */
async function confirmSubscriber(db: Db, secret: string, now = new Date()): Promise<boolean> {
  const row = newsletterSubscribers;
  // Read and spent in one statement: of two presses, one confirms.
  const confirmed = await db
    .update(row)
    .set({ confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null })
    .where(and(eq(row.confirmTokenHash, await sha256Hex(secret)), isNull(row.confirmedAt), gt(row.confirmExpiresAt, now)))
    .returning({ id: row.id });
  return confirmed.length > 0;
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

/** /api/newsletter/*: the e-mailed links' endpoints. */
export const newsletterRoute = createRouter()
  .post('/confirm', async (c) => {
    const { token, caller, problem } = await readToken(c);
    const confirmed = token !== null && (await confirmSubscriber(c.var.db, token));
    if (caller !== 'script') return c.redirect(`/newsletter/confirm?result=${confirmed ? 'confirmed' : 'invalid'}`, 303);
    if (problem) throw problem;
    if (!confirmed) throw expiredConfirmation();
    return reply(c, newsletterApi.confirm, { message: CONFIRMED_MESSAGE }, 200, PRIVATE);
  })
  // Reached from other sites on purpose (RFC 8058): functions/platform/app.ts lets this one path past
  // its cross-site refusal. A forged request can do no harm: it removes only the address the
  // token was signed for, which is what the token's holder (that address's inbox) asked for.
  .post('/unsubscribe', async (c) => {
    const { db, config } = c.var;
    const { token, caller, problem } = await readToken(c);
    const email = token === null ? null : await unsubscribeAddress(signingSecret(config), token);
    // Whether or not it was subscribed: the answer is the same, and pressing twice is harmless.
    if (email) await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    if (caller === 'page') return c.redirect(`/newsletter/unsubscribe?result=${email ? 'unsubscribed' : 'invalid'}`, 303);
    if (problem) throw problem;
    if (!email) throw forgedUnsubscribe();
    return reply(c, newsletterApi.unsubscribe, { message: UNSUBSCRIBED_MESSAGE }, 200, PRIVATE);
  });
