import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { compose, type EmailMessage } from '../platform/email.ts';

/** The newsletter's e-mails (issue 20), queued through the outbox like the order e-mails. */
export type NewsletterEmailKind = 'newsletter_confirm';

/** How long a confirmation link works; the cron deletes addresses still waiting after that. */
export const CONFIRM_LINK_HOURS = 48;

/** `${SITE_URL}/newsletter/confirm?token=…`: the page posts the token back to the API (never confirmed on GET). */
export function confirmLink(siteUrl: string, secret: string): string {
  const url = new URL('/newsletter/confirm', siteUrl);
  url.searchParams.set('token', secret);
  return url.href;
}

/** `${SITE_URL}/newsletter/unsubscribe?token=…`, the token from unsubscribeToken(). */
export function unsubscribeLink(siteUrl: string, token: string): string {
  const url = new URL('/newsletter/unsubscribe', siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}

export function newsletterConfirmEmail(to: string, link: string, unsubscribe: string): EmailMessage<NewsletterEmailKind> {
  return compose('newsletter_confirm', to, 'Confirm your GTS newsletter subscription', [
    'Hello,',
    'Someone (we hope you) asked for GTS Electronics deals and new arrivals at this address. To start receiving them, open this link and press "Confirm":',
    link,
    `The link works once, for ${CONFIRM_LINK_HOURS} hours. If you did not ask, ignore this e-mail: without your confirmation we send nothing more.`,
    `Every newsletter carries an unsubscribe link. To leave at any time, open this one and press "Unsubscribe": ${unsubscribe}`,
  ]);
}

/*
 * Unsubscribe tokens: the address and an HMAC-SHA-256 of it keyed with AUTH_SECRET, so any
 * newsletter e-mail can carry a link that works for as long as the secret does, with nothing
 * stored, and that names only the address it was made for (changing the address breaks the
 * signature). `<base64url(address)>.<base64url(hmac)>`.
 */

const encoder = new TextEncoder();
/** Binds the signature to this use, so an HMAC the same secret makes for anything else is no unsubscribe token. */
const PURPOSE = 'gts-newsletter-unsubscribe\u0000';

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

function signingKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

export async function unsubscribeToken(secret: string, email: string): Promise<string> {
  const address = email.trim().toLowerCase();
  const signature = await crypto.subtle.sign('HMAC', await signingKey(secret), encoder.encode(PURPOSE + address));
  return `${base64Url(encoder.encode(address))}.${base64Url(new Uint8Array(signature))}`;
}

/** The address a token was made for, or null when it was not made with this secret (verified in constant time). */
export async function unsubscribeAddress(secret: string, token: string): Promise<string | null> {
  const [addressPart = '', signaturePart = '', ...rest] = token.split('.');
  if (rest.length) return null;
  const address = fromBase64Url(addressPart);
  const signature = fromBase64Url(signaturePart);
  if (!address || !signature || signature.length !== 32) return null;
  const email = new TextDecoder().decode(address);
  const genuine = await crypto.subtle.verify('HMAC', await signingKey(secret), signature, encoder.encode(PURPOSE + email));
  return genuine ? email : null;
}

/** Binds a confirmation link's secret to its use (see confirmSecret). */
const CONFIRM_PURPOSE = 'gts-newsletter-confirm\u0000';

/**
 * A waiting address's confirmation link secret: an HMAC of the address and the moment its link
 * runs out, keyed with AUTH_SECRET. Nothing but its SHA-256 is stored, as for a random secret,
 * and nobody without the key can make one; but asked again while the link still works, the store
 * makes the same link, so the e-mail sent first keeps working (it said "expired or already used"
 * once a second sign-up had replaced it).
 */
export async function confirmSecret(secret: string, email: string, expiresAt: Date): Promise<string> {
  const message = `${CONFIRM_PURPOSE}${email.trim().toLowerCase()}\u0000${expiresAt.getTime()}`;
  return base64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await signingKey(secret), encoder.encode(message))));
}

/** The key unsubscribe tokens are signed with (AUTH_SECRET: already a production secret, see README). */
export function signingSecret(config: Config): string {
  if (!config.AUTH_SECRET)
    throw new ApiError(500, 'newsletter_not_configured', 'The newsletter is not configured on this server (AUTH_SECRET).');
  return config.AUTH_SECRET;
}

/** The link every newsletter e-mail to `email` carries (and the admin's export lists), signed for that address. */
export async function unsubscribeUrl(config: Config, email: string): Promise<string> {
  return unsubscribeLink(config.SITE_URL, await unsubscribeToken(signingSecret(config), email));
}

/**
 * The headers mailbox providers read to show their own "Unsubscribe" button (RFC 2369, and RFC
 * 8058's one-click POST to the API, which needs no page and no JavaScript): sent with every
 * newsletter e-mail by the outbox.
 */
export async function unsubscribeHeaders(config: Config, email: string): Promise<Record<string, string>> {
  const url = new URL('/api/newsletter/unsubscribe', config.SITE_URL);
  url.searchParams.set('token', await unsubscribeToken(signingSecret(config), email));
  return { 'List-Unsubscribe': `<${url.href}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
