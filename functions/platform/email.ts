/*
 * What every feature's e-mails are made of (functions/<feature>/messages.ts): a message the
 * outbox (functions/platform/outbox.ts) can queue, the greeting, and the text-and-HTML bodies.
 *
 * What shoppers type reaches these e-mails in one place only: the name in the greeting.
 * Addresses, phone numbers and cities are not repeated (the tracking page shows them to
 * whoever has the order number and e-mail); subjects, amounts, bank details and product
 * names come from D1 and the store's config. E-mails go to whatever address the order was
 * placed with, so the greeting must not be able to carry a message of its own.
 */
import { oneLine } from './text.ts';

/**
 * An e-mail ready for the outbox: plain text first, with an HTML twin. `kind` says which
 * message it is; it is stored with it, so logs can say what was sent or held without the
 * recipient, the name or the text. Each feature names its own kinds (OrderEmailKind,
 * AccountEmailKind, TradeInEmailKind, NewsletterEmailKind) and types its messages with them.
 */
export interface EmailMessage<Kind extends string = string> {
  kind: Kind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The longest name a greeting repeats. */
const GREETING_NAME_MAX = 60;
/** A name as names are written: letters of any script with their accents, spaces, . ' ’ and -. */
const NAME_LIKE = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;

/**
 * "Hello Ada Obi," — or just "Hello," when the name is not something a greeting should
 * repeat: longer than GREETING_NAME_MAX, or holding digits, links, markup or anything
 * else names do not (the checkout already refuses line breaks and control characters;
 * this also covers orders stored before it did). So an order placed for someone else's
 * address cannot make the store's e-mail say "pay into account 0123456789" or "call …".
 */
export function greeting(name: string): string {
  const shown = (oneLine(name) ?? '').normalize('NFC');
  return shown.length <= GREETING_NAME_MAX && NAME_LIKE.test(shown) ? `Hello ${shown},` : 'Hello,';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Paragraphs of text become the text body and, escaped, the HTML body: no text reaches the HTML unescaped. */
export function compose<const Kind extends string>(
  kind: Kind,
  to: string,
  subject: string,
  paragraphs: string[],
): EmailMessage<Kind> {
  const html = paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`).join('\n');
  return { kind, to, subject, text: paragraphs.join('\n\n'), html: `<!doctype html><html><body>${html}</body></html>` };
}
