import { newsletterSubscribers } from '../db/schema.ts';
import { createRouter } from '../lib/app.ts';
import { reply } from '../lib/reply.ts';
import { validate } from '../lib/validate.ts';
import { subscribeApi } from '../../src/features/newsletter/subscribe.ts';

export const subscribe = createRouter().post('/', validate('json', subscribeApi.body), async (c) => {
  const { email } = c.req.valid('json');
  const inserted = await c.var.db
    .insert(newsletterSubscribers)
    .values({ email })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning({ id: newsletterSubscribers.id });
  // A repeat is not the shopper's mistake: same thanks, nothing stored twice.
  const added = inserted.length > 0;
  return reply(c, subscribeApi, { message: 'Thank you for subscribing!', alreadySubscribed: !added }, added ? 201 : 200);
});
