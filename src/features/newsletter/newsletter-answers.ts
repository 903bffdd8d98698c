import { object, string } from '../../lib/light-schema.ts';

/**
 * The newsletter API's answers, as a light check: the footer's plain script reads them on every
 * page without loading zod (src/lib/light-schema.ts; the bodies it sends are checked by the Worker).
 */
export const newsletterAnswerSchema = object({ message: string() });

/**
 * What every sign-up hears, whether the address is new, waiting for its confirmation or
 * already subscribed: only the inbox learns which (issue 20, finding 6).
 */
export const SUBSCRIBE_MESSAGE = 'Check your inbox to confirm your subscription.';
