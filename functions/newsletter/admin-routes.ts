import { Hono } from 'hono';
import { z } from 'zod';
import { adminSubscriberApi, subscriberQuerySchema } from '../../src/features/newsletter/admin/admin-subscriber-api.ts';
import { exportFileName, listSubscribers, removeSubscriber, subscribersCsv } from './admin.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { auditStatement } from '../platform/audit.ts';
import { validate } from '../platform/validate.ts';

const idParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "A subscriber's id is a whole number")
    .transform(Number),
});

/** Where the admin router mounts this one (functions/admin/routes.ts): each route's path is its contract's (src/features/newsletter/admin/admin-subscriber-api.ts). */
export const ADMIN_SUBSCRIBERS_BASE = '/api/admin/subscribers';

/** /api/admin/subscribers (behind requireAdmin): the list, the CSV export, and removing one. */
export const adminSubscribersRoute = new Hono<SignedInEnv>()
  .get(at(ADMIN_SUBSCRIBERS_BASE, adminSubscriberApi.subscribers), validate('query', subscriberQuerySchema), async (c) =>
    reply(c, adminSubscriberApi.subscribers, await listSubscribers(c.var.db, c.req.valid('query'))),
  )
  .get(at(ADMIN_SUBSCRIBERS_BASE, adminSubscriberApi.exportSubscribers), async (c) => {
    const { csv, people } = await subscribersCsv(c.var.db, c.var.config);
    const file = exportFileName();
    // Personal data leaving the store: who took which file, with how many people in it.
    await auditStatement(c.var.db, c.var.user, 'subscriber', file, 'export', { people: { from: null, to: people } });
    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${file}"`,
    });
  })
  .delete(at(ADMIN_SUBSCRIBERS_BASE, adminSubscriberApi.removeSubscriber), validate('param', idParam), async (c) => {
    await removeSubscriber(c.var.db, c.var.user, c.req.valid('param').id);
    return reply(c, adminSubscriberApi.removeSubscriber, { removed: true });
  });
