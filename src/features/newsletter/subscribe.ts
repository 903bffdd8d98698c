import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { emailSchema } from '../../lib/fields.ts';
import { newsletterAnswerSchema } from './newsletter-answers.ts';

/** POST /api/subscribe's body. */
export const subscribeSchema = z.object({ email: emailSchema });

/**
 * The secret of an e-mailed newsletter link (confirm, unsubscribe). Bounded: an unsubscribe
 * token carries the address (at most 254 characters, base64url) and its signature.
 */
export const newsletterTokenSchema = z.object({
  token: z
    .string({ error: 'This link is not complete' })
    .trim()
    .min(1, 'This link is not complete')
    .max(600, 'This link is not one of ours'),
});

/**
 * The newsletter API's contract (see src/lib/api-contract.ts). The footer form posts to it
 * from a plain script that parses the answers with zod/mini (newsletter-answers.ts), to keep
 * the full zod off every page.
 */
export const subscribeApi = endpoint({
  method: 'POST',
  path: '/api/subscribe',
  body: subscribeSchema,
  response: newsletterAnswerSchema,
});

export const newsletterApi = {
  subscribe: subscribeApi,
  /**
   * The confirmation link's page posts its token here (never confirmed on GET: mail scanners
   * open links). JSON, or the page's plain form (answered with a redirect to the page).
   */
  confirm: endpoint({
    method: 'POST',
    path: '/api/newsletter/confirm',
    body: newsletterTokenSchema,
    response: newsletterAnswerSchema,
  }),
  /**
   * Removes the address the token was made for. Also takes RFC 8058 one-click posts from
   * mailbox providers (`List-Unsubscribe=One-Click`, the token in the query), which come from
   * another site on purpose: functions/platform/app.ts lets this one path past its cross-site refusal.
   */
  unsubscribe: endpoint({
    method: 'POST',
    path: '/api/newsletter/unsubscribe',
    body: newsletterTokenSchema,
    response: newsletterAnswerSchema,
  }),
};
