/** Hashes, tokens and order numbers from WebCrypto (the same in workerd and browsers). */

const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A Content-Security-Policy source for an inline script or style, `sha256-…` (standard base64 of
 * the text's SHA-256): what a page's policy lists for each of its inline texts.
 */
export async function cspHash(text: string): Promise<`sha256-${string}`> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

async function sha256Base64Url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/**
 * The bearer token that lets the browser which placed an order act on it (report
 * its payment). Derived from the browser's own idempotency key so a retried
 * request gets the same token back, while the database keeps only hashes of the
 * key and of the token, from which neither can be recovered. See docs/decisions/005.
 */
export function orderAccessToken(idempotencyKey: string): Promise<string> {
  return sha256Base64Url(`gts-order-access-token\u0000${idempotencyKey}`);
}

/** Compares two equal-length hex digests without stopping at the first difference. */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// Crockford's base32: no I, L, O or U, so a number read out over the phone is not misheard.
const ORDER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * GTS- and 10 random base32 characters (50 bits): unique in practice (a collision is
 * retried by the unique index) and no order's number tells anything about another's.
 */
export function newOrderNumber(): string {
  return newReference('GTS');
}

/** A trade-in request's reference: TRD- and 10 random base32 characters, like an order number. */
export function newTradeInReference(): string {
  return newReference('TRD');
}

function newReference(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `${prefix}-${[...bytes].map((b) => ORDER_ALPHABET[b & 31]).join('')}`;
}
