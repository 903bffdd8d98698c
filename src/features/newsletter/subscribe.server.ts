import { env } from 'cloudflare:workers';
import { readConfig } from '../../../functions/env.ts';
import { askToSubscribe, SUBSCRIBE_LIMIT } from '../../../functions/newsletter/subscriptions.ts';
import { openDb } from '../../../functions/platform/db.ts';
import { deliverEmailsLater } from '../../../functions/platform/outbox.ts';
import { limitClient } from '../../../functions/platform/rate-limit.ts';
import { isCrossSite, readSmallForm } from '../../lib/form-post.server.ts';
import { SUBSCRIBE_MESSAGE } from './newsletter-answers.ts';
import { subscribeSchema } from './subscribe.ts';

/**
 * POST /newsletter/subscribe (src/pages/newsletter/subscribe.astro): the footer sign-up as a plain
 * form, for a press before the frame's script has started or without JavaScript. Without it the
 * form would go nowhere, or reload the page with the address in its URL (history, logs). It is the
 * API's sign-up (POST /api/subscribe) with a page for an answer: the same per-client limit, counted
 * under the same name (one budget, whichever way a client asks), the same schema, the same
 * double opt-in and the same answer whether or not the address was subscribed.
 */
export type SubscribeOutcome =
  | { ok: true; message: string }
  | {
      ok: false;
      /** 403 cross-site, 400 a form we cannot read or an address to correct, 429 too many sign-ups. */
      status: 400 | 403 | 429;
      /** What was typed, shown back in the field (never in a URL). */
      email: string;
      message: string;
      /** Set when the address is what to correct. */
      field?: 'email';
      retryAfterSeconds?: number;
    };

/** One field of a few dozen bytes. */
const MAX_FORM_BYTES = 1_024;

/**
 * `executionCtx`: the request's, to send the confirmation e-mail after the answer, as the API does.
 * `bindings`: the Worker's env (a test passes its own, with other limits).
 */
export async function subscribeFromPage(
  request: Request,
  executionCtx: { waitUntil(promise: Promise<unknown>): void },
  bindings: Env = env,
): Promise<SubscribeOutcome> {
  if (isCrossSite(request))
    return { ok: false, status: 403, email: '', message: 'This form was sent from another site. Please subscribe here.' };
  const form = await readSmallForm(request, MAX_FORM_BYTES);
  if (!form) return { ok: false, status: 400, email: '', message: 'We could not read the form. Please enter your e-mail again.' };
  const typed = form.get('email');
  const email = typeof typed === 'string' ? typed : '';

  const db = openDb(bindings.DB);
  const config = readConfig(bindings);
  // Counted before the address is checked, as the API counts a malformed request (decision 010).
  const limit = await limitClient(db, SUBSCRIBE_LIMIT, request.headers.get('cf-connecting-ip'), config.RATE_LIMIT_NEWSLETTER);
  if (!limit.allowed)
    return { ok: false, status: 429, email, message: limit.message, retryAfterSeconds: limit.retryAfterSeconds };

  const parsed = subscribeSchema.safeParse({ email });
  if (!parsed.success)
    return {
      ok: false,
      status: 400,
      email,
      field: 'email',
      message: parsed.error.issues[0]?.message ?? 'Please check your e-mail',
    };
  await askToSubscribe(db, config, parsed.data.email);
  deliverEmailsLater({ executionCtx, var: { db, config } });
  return { ok: true, message: SUBSCRIBE_MESSAGE };
}
