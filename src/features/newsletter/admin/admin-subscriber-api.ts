import { z } from 'zod';
import { endpoint } from '../../../lib/api-contract.ts';
import { instant, page, paging, search } from '../../admin/admin-contract.ts';

/** The admin's side of the newsletter: subscribers, their export, and removing one. */

export const subscriberQuerySchema = z.object({ q: search, page });
export const subscriberListSchema = z.object({
  subscribers: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      createdAt: instant,
      /** When the address confirmed through the e-mailed link; null: still waiting, not a subscriber yet. */
      confirmedAt: instant.nullable(),
    }),
  ),
  ...paging,
  /** Of `total`, how many confirmed: the subscribers (and the export's rows); the rest wait for their link. */
  confirmed: z.number().int(),
});

/** The admin's subscriber endpoints (functions/newsletter/admin-routes.ts). Query strings are validated with subscriberQuerySchema. */
export const adminSubscriberApi = {
  subscribers: endpoint({ method: 'GET', path: '/api/admin/subscribers', response: subscriberListSchema }),
  /** text/csv, not JSON: every confirmed subscriber with their unsubscribe link (the contract's response is the file's text). */
  exportSubscribers: endpoint({ method: 'GET', path: '/api/admin/subscribers/export', response: z.string() }),
  removeSubscriber: endpoint({
    method: 'DELETE',
    path: '/api/admin/subscribers/:id',
    response: z.object({ removed: z.literal(true) }),
  }),
};
