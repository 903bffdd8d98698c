/**
 * Password hashes from WebCrypto PBKDF2-SHA256, in a self-describing format:
 * `pbkdf2-sha256$<iterations>$<salt>$<hash>` (salt and hash base64url, 16 and 32 bytes).
 * The iterations are stored with each hash, so the cost can be raised later: a hash made
 * with fewer than PASSWORD_ITERATIONS verifies as before and `needsRehash` says to replace
 * it at the next sign-in. 100,000 is the most Cloudflare's production Workers accept
 * (local workerd takes more, cloudflare/workerd#1346): never go above it while on Workers.
 */
export const PASSWORD_ITERATIONS = 100_000;
const SCHEME = 'pbkdf2-sha256';
const SALT_BYTES = 16;
const HASH_BITS = 256;
const MAX_ITERATIONS = 100_000;

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

interface ParsedHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

function parse(stored: string): ParsedHash | undefined {
  const [scheme, iterationsText, saltText, hashText, ...rest] = stored.split('$');
  if (scheme !== SCHEME || rest.length || !saltText || !hashText || !/^\d+$/.test(iterationsText ?? '')) return undefined;
  const iterations = Number(iterationsText);
  if (iterations < 1 || iterations > MAX_ITERATIONS) return undefined;
  try {
    return { iterations, salt: fromBase64Url(saltText), hash: fromBase64Url(hashText) };
  } catch {
    return undefined;
  }
}

/** Compares without stopping at the first difference. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * A hash of a random password: checked when there is no account (or no password) for an
 * address, so that answer takes as long as a wrong password (no account enumeration by timing).
 */
const DECOY = `${SCHEME}$${PASSWORD_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

/** True when `password` matches `stored`. A missing or unreadable hash costs the same and is false. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored ?? '') ?? parse(DECOY)!;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return Boolean(stored) && parse(stored ?? '') !== undefined && sameBytes(candidate, parsed.hash);
}

/** True when the hash was made with an older, cheaper setting and should be replaced. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.iterations < PASSWORD_ITERATIONS;
}
