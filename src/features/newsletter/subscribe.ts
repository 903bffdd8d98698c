import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { emailSchema } from '../../lib/fields.ts';

/** POST /api/subscribe's body. */
export const subscribeSchema = z.object({ email: emailSchema });

/**
 * The newsletter API's contract (see src/lib/api-contract.ts). The footer form posts to it
 * from a plain script that parses only the error shape (src/lib/api-error.ts), to keep
 * the full zod off every page.
 */
export const subscribeApi = endpoint({
  method: 'POST',
  path: '/api/subscribe',
  body: subscribeSchema,
  response: z.object({ message: z.string(), alreadySubscribed: z.boolean() }),
});
