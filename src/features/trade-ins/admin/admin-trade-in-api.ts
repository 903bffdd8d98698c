import { z } from 'zod';
import { hasAtMostTwoDecimals } from '../../../lib/money.ts';
import { endpoint } from '../../../lib/api-contract.ts';
import { auditEntrySchema, count, instant, kobo, page, paging, search } from '../../admin/admin-contract.ts';
import { tradeInViewSchema } from '../trade-in.ts';
import { TRADE_IN_ACTORS, TRADE_IN_STATUSES } from '../trade-in-status.ts';

/** The admin's side of trade-ins: the list, one request with its photos, and the admin's moves. */

/** GET /api/admin/trade-ins: filtered by status, searched by reference, e-mail, phone, name or model; newest first. */
export const adminTradeInQuerySchema = z.object({
  status: z.enum(TRADE_IN_STATUSES, { error: `Must be one of: ${TRADE_IN_STATUSES.join(', ')}` }).optional(),
  q: search,
  page,
});

export const adminTradeInSummarySchema = z.object({
  reference: z.string(),
  status: z.enum(TRADE_IN_STATUSES),
  createdAt: instant,
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  /** "Apple iPhone 12 128GB". */
  device: z.string(),
  want: z.enum(['cash', 'swap']),
  /** The swap's product name, when it is a swap. */
  swapFor: z.string().nullable(),
  photos: count,
  offer: kobo.nullable(),
});
export type AdminTradeInSummary = z.infer<typeof adminTradeInSummarySchema>;

export const adminTradeInListSchema = z.object({
  tradeIns: z.array(adminTradeInSummarySchema),
  ...paging,
  counts: z.record(z.enum(TRADE_IN_STATUSES), count),
});

export const adminTradeInDetailSchema = z.object({
  tradeIn: tradeInViewSchema,
  /** What the next move must name (409 `trade_in_changed` when someone moved it meanwhile). */
  version: z.string(),
  /** The photos, served to admins only (GET …/photos/:index). */
  photos: z.array(z.object({ url: z.string(), contentType: z.string(), bytes: count })),
  history: z.array(
    z.object({
      from: z.enum(TRADE_IN_STATUSES).nullable(),
      to: z.enum(TRADE_IN_STATUSES),
      actor: z.enum(TRADE_IN_ACTORS),
      by: z.string().nullable(),
      note: z.string().nullable(),
      at: instant,
    }),
  ),
  audit: z.array(auditEntrySchema),
});
export type AdminTradeInDetail = z.infer<typeof adminTradeInDetailSchema>;

const tradeInVersion = z.string({ error: 'Reload the request and try again' }).min(1).max(100);
const moveNote = z.string().trim().max(300, 'At most 300 characters').optional();

/** POST /api/admin/trade-ins/:reference/move: one of the admin's moves, on the version the admin loaded. */
export const moveTradeInSchema = z.discriminatedUnion(
  'move',
  [
    /** The admin called or messaged the shopper; the note is for the history (what was said). */
    z.object({ move: z.literal('contact'), version: tradeInVersion, note: moveNote }),
    /** An offer in naira (a swap's must be below the product's price), with a note the shopper sees. */
    z.object({
      move: z.literal('offer'),
      version: tradeInVersion,
      offerNaira: z
        .number({ error: 'Enter the offer in naira (for example 250000)' })
        .positive('The offer must be more than 0')
        .max(100_000_000, 'The offer must be at most ₦100,000,000')
        .refine(hasAtMostTwoDecimals, 'At most two decimal places (kobo)'),
      note: moveNote,
    }),
    /** The device was received and paid for (or swapped). */
    z.object({ move: z.literal('complete'), version: tradeInVersion, note: moveNote }),
    /** The request ends without a deal; the reason goes to the shopper. */
    z.object({
      move: z.literal('close'),
      version: tradeInVersion,
      note: z
        .string({ error: 'Say why the request is closed' })
        .trim()
        .min(3, 'Say why the request is closed (at least 3 characters)')
        .max(300, 'At most 300 characters'),
    }),
  ],
  { error: 'Choose a move: contact, offer, complete or close' },
);

/** The admin's trade-in endpoints (functions/trade-ins/admin-routes.ts). Query strings are validated with adminTradeInQuerySchema. */
export const adminTradeInApi = {
  tradeIns: endpoint({ method: 'GET', path: '/api/admin/trade-ins', response: adminTradeInListSchema }),
  tradeIn: endpoint({ method: 'GET', path: '/api/admin/trade-ins/:reference', response: adminTradeInDetailSchema }),
  moveTradeIn: endpoint({
    method: 'POST',
    path: '/api/admin/trade-ins/:reference/move',
    body: moveTradeInSchema,
    response: adminTradeInDetailSchema,
  }),
  /** The photo's bytes (JPEG, PNG or WebP), not JSON: the contract's response is unused. */
  tradeInPhoto: endpoint({ method: 'GET', path: '/api/admin/trade-ins/:reference/photos/:index', response: z.unknown() }),
};
