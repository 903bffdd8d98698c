import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../platform/app.ts';
import { sameDigest, sha256Hex } from '../platform/crypto.ts';
import type { UserRow } from '../platform/schema.ts';
import { isSecureRequest } from './session.ts';

/**
 * Device cookies (OWASP "Slow brute force and lockout with device cookies",
 * https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies): a
 * browser that once proved it owns an address (the right password, a reset or verify link)
 * keeps a cookie saying so, and its sign-ins for that address are counted under its own
 * device id, apart from the bucket all unknown browsers share. A stranger's failures then
 * slow down unknown devices only, never the owner's own.
 *
 * The cookie is `<device id>.<tag>[.<tag>…]`: a random id and, for each address this browser
 * proved (newest first, a few at most, for a shared family computer), an HMAC-SHA256 under
 * AUTH_SECRET of the id, the address's hash, the account's id and its session version. It names
 * no address, and a tag cannot be made or moved to another address or device without the secret.
 *
 * The session version is raised by everything that ends the account's other sessions: the
 * address's first proof (which takes the account from whoever set it up unproven), a reset, a
 * password change, "sign out other devices" and "sign out everywhere". Each of them so ends the
 * trust of every browser that earned it before, as it ends their sessions; the browser that did it
 * is trusted again under the new version, except after "sign out everywhere", which signs it out
 * too. An account deleted and made again is a new id.
 */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const MAX_ADDRESSES_PER_DEVICE = 5;

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+$/);
const deviceCookieSchema = z
  .string()
  .max(1024)
  .transform((value) => value.split('.'))
  .pipe(z.tuple([base64Url.length(22)], base64Url.length(64)))
  .transform(([deviceId, ...tags]) => ({ deviceId, tags: tags.slice(0, MAX_ADDRESSES_PER_DEVICE) }));

/** `__Host-` over https: Secure, path /, and no Domain, so no sibling site can plant one. */
export function deviceCookieName(secure: boolean): string {
  return secure ? '__Host-gts-device' : 'gts-device';
}

const encoder = new TextEncoder();

/** What a device's trust is bound to: the account, at its present session version. */
export type TrustedAccount = Pick<UserRow, 'id' | 'email' | 'sessionVersion'>;

async function deviceTag(secret: string, deviceId: string, account: TrustedAccount): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const addressHash = await sha256Hex(account.email.trim().toLowerCase());
  const bound = ['gts-device-trust', deviceId, addressHash, account.id, String(account.sessionVersion)].join('\u0000');
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(bound));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function readDeviceCookie<E extends AppEnv>(c: Context<E>) {
  const parsed = deviceCookieSchema.safeParse(getCookie(c, deviceCookieName(isSecureRequest(c))));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The id of this browser when its device cookie vouches for `account` (a tag made under our
 * secret for this id, this address and the account as it is now), else undefined: a forged
 * cookie, one earned for another address, or one earned before the account's sessions were last
 * ended, is an unknown device. An address with no account has no trusted device.
 */
export async function trustedDeviceId<E extends AppEnv>(
  c: Context<E>,
  account: TrustedAccount | undefined,
): Promise<string | undefined> {
  const secret = c.var.config.AUTH_SECRET;
  const cookie = readDeviceCookie(c);
  if (!secret || !cookie || !account) return undefined;
  const expected = await deviceTag(secret, cookie.deviceId, account);
  return cookie.tags.some((tag) => sameDigest(tag, expected)) ? cookie.deviceId : undefined;
}

function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/**
 * Marks this browser as one that proved it owns `account`'s address (after a successful sign-in,
 * reset or verification), at the account's present session version: sets the device cookie for
 * a year (HttpOnly, SameSite=Lax, Secure over https), keeping this browser's id and the other
 * addresses it proved before.
 */
export async function trustDevice<E extends AppEnv>(c: Context<E>, account: TrustedAccount): Promise<void> {
  const secret = c.var.config.AUTH_SECRET;
  if (!secret) return;
  const cookie = readDeviceCookie(c);
  const deviceId = cookie?.deviceId ?? newDeviceId();
  const tag = await deviceTag(secret, deviceId, account);
  const tags = [tag, ...(cookie?.tags ?? []).filter((t) => t !== tag)].slice(0, MAX_ADDRESSES_PER_DEVICE);
  const secure = isSecureRequest(c);
  setCookie(c, deviceCookieName(secure), [deviceId, ...tags].join('.'), {
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    path: '/',
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
