import { categoryLabel } from '../../src/features/catalogue/categories.ts';
import type { TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import type { TradeInStatus } from '../../src/features/trade-ins/trade-in-status.ts';
import { formatNaira } from '../../src/lib/money.ts';
import { compose, greeting, type EmailMessage } from '../platform/email.ts';

/**
 * The trade-in e-mails (issue 14), queued through the outbox in the batch of the change they
 * report. As with orders, the only text a shopper typed that they repeat is the name in the
 * greeting: the device is named by its category and brand (chosen from lists), never by the
 * model typed into the form, so a request made with someone else's address cannot make the
 * store send them a message of the requester's choosing. Notes and offers are the store's.
 */
export type TradeInEmailKind = 'trade_in_received' | `trade_in_${Exclude<TradeInStatus, 'new'>}`;

/** The status page with the reference filled in (the shopper adds the e-mail). */
export function tradeInStatusUrl(siteUrl: string, reference: string): string {
  return new URL(`/sell-or-swap/status?ref=${encodeURIComponent(reference)}`, siteUrl).href;
}

/** "your Apple device (Phones)": brand and category only (see above). */
const device = (t: TradeInView) =>
  `your ${t.device.brand === 'Other' ? '' : `${t.device.brand} `}device (${categoryLabel(t.device.category)})`;

const wants = (t: TradeInView) =>
  t.want.kind === 'cash'
    ? 'You asked to sell it for cash.'
    : `You asked to swap it for ${t.want.name}${t.want.variantLabel ? ` (${t.want.variantLabel})` : ''}.`;

export function tradeInReceivedEmail(t: TradeInView, siteUrl: string): EmailMessage<TradeInEmailKind> {
  return compose('trade_in_received', t.contact.email, `We received your trade-in request ${t.reference}`, [
    greeting(t.contact.name),
    `Thank you: we received your request to trade in ${device(t)}. ${wants(t)}`,
    `Your reference is ${t.reference}. We usually call or message you within one working day, then send you an offer by e-mail.`,
    `See where it stands at any time, with this reference and your e-mail address: ${tradeInStatusUrl(siteUrl, t.reference)}`,
  ]);
}

/** The e-mail for a move (an admin's, or the shopper's own answer, which it confirms). */
export function tradeInStatusEmail(t: TradeInView, note: string | null, siteUrl: string): EmailMessage<TradeInEmailKind> {
  const status = t.status as Exclude<TradeInStatus, 'new'>;
  const link = `Your request: ${tradeInStatusUrl(siteUrl, t.reference)}`;
  const noteLine = note ? [`Our note: ${note}`] : [];
  const paragraphs: Record<Exclude<TradeInStatus, 'new'>, { subject: string; body: string[] }> = {
    contacted: {
      subject: `We are looking at your trade-in ${t.reference}`,
      body: [`We have been in touch about ${device(t)} and are preparing an offer.`, ...noteLine, link],
    },
    offer_made: {
      subject: `Our offer for your trade-in ${t.reference}: ${formatNaira(t.offer?.amount ?? 0)}`,
      body: [
        `We can offer ${formatNaira(t.offer?.amount ?? 0)} for ${device(t)}.`,
        ...(t.want.kind === 'swap' && t.difference !== null
          ? [
              t.difference > 0
                ? `Swapped for ${t.want.name}, you would pay the difference of ${formatNaira(t.difference)} at today's price.`
                : `Swapped for ${t.want.name}, nothing more is to pay at today's price.`,
            ]
          : []),
        ...(t.offer?.note ? [`Our note: ${t.offer.note}`] : []),
        `Accept or decline the offer here: ${tradeInStatusUrl(siteUrl, t.reference)}`,
      ],
    },
    accepted: {
      subject: `You accepted our offer for ${t.reference}`,
      body: [
        `Thank you for accepting our offer of ${formatNaira(t.offer?.amount ?? 0)}.`,
        t.want.kind === 'swap'
          ? `Place the order for ${t.want.name} from your request's page: the offer is taken off its price, and you pay the difference by bank transfer. Then bring your device to our Ikeja store when you collect it, or hand it to our rider.`
          : 'Bring the device to our Ikeja store, or we arrange a pick-up: we check it and pay you by bank transfer.',
        link,
      ],
    },
    declined: {
      subject: `You declined our offer for ${t.reference}`,
      body: ['You declined our offer. If something changes, we may send you a new one; you can also reply to this e-mail.', link],
    },
    completed: {
      subject: `Your trade-in ${t.reference} is complete`,
      body: ['Your trade-in is complete. Thank you for trading with GTS Electronics.', ...noteLine, link],
    },
    closed: {
      subject: `Your trade-in request ${t.reference} is closed`,
      body: ['We closed your trade-in request.', ...(note ? [`Why: ${note}`] : []), link],
    },
  };
  const { subject, body } = paragraphs[status];
  return compose(`trade_in_${status}`, t.contact.email, subject, [greeting(t.contact.name), ...body]);
}
