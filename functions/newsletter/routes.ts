import type { Context } from 'hono';
import { SUBSCRIBE_MESSAGE } from '../../src/features/newsletter/newsletter-answers.ts';
import { newsletterApi, newsletterTokenSchema, subscribeApi } from '../../src/features/newsletter/subscribe.ts';
import { type AppEnv, createRouter } from '../platform/app.ts';
import { ApiError, invalidRequest } from '../platform/errors.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { validate } from '../platform/validate.ts';
import { askToSubscribe, confirmSubscriber, SUBSCRIBE_LIMIT, unsubscribe } from './subscriptions.ts';

const PRIVATE = { 'cache-control': 'no-store' };

const CONFIRMED_MESSAGE = 'You are subscribed. Thank you! Watch your inbox for deals and new arrivals.';
const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed: we will send no more newsletters to this address.';

const invalidToken = (message: string) =>
  new ApiError(400, 'invalid_token', message, [{ field: 'token', message: 'This link has expired or is not valid' }]);
const expiredConfirmation = () =>
  invalidToken('This confirmation link has expired or was already used. Subscribe again for a new one.');
const forgedUnsubscribe = () => invalidToken('This unsubscribe link is not valid. Use the link from one of our e-mails.');

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

/** Where the footer's sign-up is mounted (functions/index.ts); its path is its contract's (src/features/newsletter/subscribe.ts). */
export const SUBSCRIBE_BASE = '/api/subscribe';

/** POST /api/subscribe: the footer's sign-up (double opt-in: functions/newsletter/subscriptions.ts). */
export const subscribe = createRouter().post(
  at(SUBSCRIBE_BASE, subscribeApi),
  // Before validation, so malformed floods count too (decision 010).
  rateLimit({ name: SUBSCRIBE_LIMIT, rule: (config) => config.RATE_LIMIT_NEWSLETTER }),
  validate('json', subscribeApi.body),
  async (c) => {
    await askToSubscribe(c.var.db, c.var.config, c.req.valid('json').email);
    deliverEmailsLater(c);
    return reply(c, subscribeApi, { message: SUBSCRIBE_MESSAGE }, 202, PRIVATE);
  },
);

/** Where the e-mailed links' endpoints are mounted (functions/index.ts); each path is its contract's. */
export const NEWSLETTER_BASE = '/api/newsletter';

/** /api/newsletter/*: the e-mailed links' endpoints. */
export const newsletterRoute = createRouter()
  .post(at(NEWSLETTER_BASE, newsletterApi.confirm), async (c) => {
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
  .post(at(NEWSLETTER_BASE, newsletterApi.unsubscribe), async (c) => {
    const { token, caller, problem } = await readToken(c);
    // Whether or not it was subscribed: the answer is the same, and pressing twice is harmless.
    const email = token === null ? null : await unsubscribe(c.var.db, c.var.config, token);
    if (caller === 'page') return c.redirect(`/newsletter/unsubscribe?result=${email ? 'unsubscribed' : 'invalid'}`, 303);
    if (problem) throw problem;
    if (!email) throw forgedUnsubscribe();
    return reply(c, newsletterApi.unsubscribe, { message: UNSUBSCRIBED_MESSAGE }, 200, PRIVATE);
  });
