import { z } from 'zod/mini';

/**
 * The newsletter API's answers, in zod/mini: the footer's plain script parses them on every
 * page without loading the full zod (the bodies it sends are checked by the Worker).
 */
export const newsletterAnswerSchema = z.object({ message: z.string() });

/**
 * What every sign-up hears, whether the address is new, waiting for its confirmation or
 * already subscribed: only the inbox learns which (issue 20, finding 6).
 */
export const SUBSCRIBE_MESSAGE = 'Check your inbox to confirm your subscription.';
