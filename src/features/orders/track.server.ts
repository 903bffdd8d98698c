import { env } from 'cloudflare:workers';
import { readConfig } from '../../../functions/env.ts';
import { LOOKUP_LIMIT, lookUpGuestOrder, TooManyLookups } from '../../../functions/orders/find.ts';
import { openDb } from '../../../functions/platform/db.ts';
import { ApiError } from '../../../functions/platform/errors.ts';
import { limitClient } from '../../../functions/platform/rate-limit.ts';
import { isCrossSite, readSmallForm } from '../../lib/form-post.server.ts';
import { orderLookupSchema } from './checkout.ts';
import type { OrderView } from './order-view.ts';

/**
 * POST /track/order (src/pages/track/order.astro): a guest's lookup as a plain form, rendered by
 * the Worker. It is the API's lookup (POST /api/orders/lookup) with a page for an answer: the same
 * per-client limit, counted under the same name (one budget, whichever way a client asks), the same
 * schema and the same search (functions/orders/find.ts: a wrong pair reveals nothing, also not by
 * its timing). /track's plain script posts the form here and puts the answer's order into the page.
 */

/** What the shopper typed, shown back in the form. */
export interface TrackLookup {
  number: string;
  email: string;
}

export type TrackField = keyof TrackLookup;

export type TrackOutcome =
  | { found: true; lookup: TrackLookup; order: OrderView }
  | {
      found: false;
      /** 403 cross-site, 400 a form we cannot read or a field to correct, 404 no such order for that e-mail, 429 too many lookups. */
      status: 400 | 403 | 404 | 429;
      lookup: TrackLookup;
      /** About the form as a whole (empty when only fields are at fault). */
      message: string;
      /** Each field's first problem. */
      fields: Partial<Record<TrackField, string>>;
      retryAfterSeconds?: number;
    };

/** The form's two fields are a few dozen bytes. */
const MAX_FORM_BYTES = 2_048;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** `bindings`: the Worker's env (a test passes its own, with other limits). */
export async function trackOrder(request: Request, bindings: Env = env): Promise<TrackOutcome> {
  const none: TrackLookup = { number: '', email: '' };
  const refuse = (status: 400 | 403 | 404 | 429, lookup: TrackLookup, message: string, fields = {}) =>
    ({ found: false, status, lookup, message, fields }) as const;
  if (isCrossSite(request)) return refuse(403, none, 'This form was sent from another site. Please look your order up here.');
  const form = await readSmallForm(request, MAX_FORM_BYTES);
  if (!form) return refuse(400, none, 'We could not read the form. Please enter your order number and e-mail again.');
  const lookup = { number: text(form.get('number')), email: text(form.get('email')) };

  const db = openDb(bindings.DB);
  const config = readConfig(bindings);
  // Counted before the form is checked, as the API counts a malformed request.
  const limit = await limitClient(db, LOOKUP_LIMIT, request.headers.get('cf-connecting-ip'), config.RATE_LIMIT_LOOKUP);
  if (!limit.allowed) return { ...refuse(429, lookup, limit.message), retryAfterSeconds: limit.retryAfterSeconds };

  const parsed = orderLookupSchema.safeParse(lookup);
  if (!parsed.success) {
    const fields: Partial<Record<TrackField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'number' || field === 'email') && !fields[field]) fields[field] = issue.message;
    }
    return refuse(400, lookup, '', fields);
  }
  try {
    return { found: true, lookup, order: await lookUpGuestOrder(db, config, parsed.data) };
  } catch (error) {
    if (error instanceof TooManyLookups)
      return { ...refuse(429, lookup, error.message), retryAfterSeconds: error.retryAfterSeconds };
    if (error instanceof ApiError && error.status === 404) return refuse(404, lookup, error.message);
    throw error;
  }
}
