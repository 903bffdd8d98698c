import { newsletterSubscribers } from '../db/schema.ts';
import { createRouter } from '../lib/app.ts';
import { validate } from '../lib/validate.ts';
import { subscribeSchema } from '../../src/features/newsletter/subscribe.ts';

export const subscribe = createRouter().post('/', validate('json', subscribeSchema), async (c) => {
  const { email } = c.req.valid('json');
  const inserted = await c.var.db
    .insert(newsletterSubscribers)
    .values({ email })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning({ id: newsletterSubscribers.id });
  // A repeat is not the shopper's mistake: same thanks, nothing stored twice.
  return c.json({ message: 'Thank you for subscribing!', alreadySubscribed: inserted.length === 0 }, inserted.length ? 201 : 200);
});
