import { Auth } from '@auth/core';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { users, type UserRow } from '../platform/schema.ts';
import { AUTH_BASE_PATH, authConfig } from './auth-config.ts';
import { checkPassword, INVALID_CREDENTIALS_MESSAGE, throwIfRateLimited } from './credentials.ts';
import { trustDevice } from './device.ts';
import { sessionCookieName, isSecureRequest } from './session.ts';

/** Calls Auth.js's handler inside this request (same origin, so the same cookie names and flags). */
function callAuth<E extends AppEnv>(c: Context<E>, path: string, init: RequestInit, checkedUser?: UserRow) {
  const url = new URL(`${AUTH_BASE_PATH}${path}`, c.req.url);
  return Auth(new Request(url, init), authConfig(c, { checkedUser }));
}

/** `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(response: Response): Map<string, string> {
  const jar = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return jar;
}

/**
 * POST /api/account/sign-in: Auth.js's credentials sign-in for the login island, with real
 * statuses. The password is checked first, with the sign-in limits (functions/accounts/credentials.ts):
 * 429 `rate_limited` with Retry-After, or 401 `invalid_credentials`. Then Auth.js's own flow
 * runs inside this request (its CSRF token, then its credentials callback with
 * `X-Auth-Return-Redirect: 1`, handed the proven user so the attempt counts once), so the
 * session cookie is exactly the one Auth.js issues; it is passed on, the device cookie is set
 * (functions/accounts/device.ts), and the signed-in user answered. Cross-site requests never
 * get here (sameOriginOnly on the route).
 */
export async function signInWithPassword<E extends AppEnv>(c: Context<E>, email: string, password: string): Promise<UserRow> {
  if (!c.var.config.AUTH_SECRET)
    throw new ApiError(500, 'auth_not_configured', 'Sign-in is not configured on this server (AUTH_SECRET).');
  const check = await checkPassword(c, email, password);
  throwIfRateLimited(c, check);
  if (check.kind !== 'ok') throw new ApiError(401, 'invalid_credentials', INVALID_CREDENTIALS_MESSAGE);

  const csrfResponse = await callAuth(c, '/csrf', { method: 'GET' });
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const csrfCookies = [...cookiesOf(csrfResponse)].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await callAuth(
    c,
    '/callback/credentials',
    {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-auth-return-redirect': '1',
        cookie: csrfCookies,
        origin: new URL(c.req.url).origin,
      },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: '/' }).toString(),
    },
    check.user,
  );
  const cookieName = sessionCookieName(isSecureRequest(c));
  if (!cookiesOf(response).get(cookieName)) throw new ApiError(401, 'invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
  const [user] = await c.var.db.select().from(users).where(eq(users.id, check.user.id));
  // A reset, a claim or a sign-out-everywhere landed while the password was being checked: the
  // session just made is not current (startSession), and neither a 200 nor this browser's trust
  // is due to a password that may no longer be the account's.
  if (!user || user.sessionVersion !== check.user.sessionVersion)
    throw new ApiError(401, 'invalid_credentials', 'Please sign in again.');
  // Pass on Auth.js's session cookie as it set it (name, value and flags).
  for (const header of response.headers.getSetCookie()) {
    if (header.startsWith(`${cookieName}=`)) c.header('set-cookie', header, { append: true });
  }
  // This browser proved the address: its later sign-ins are counted apart from strangers'.
  await trustDevice(c, user);
  return user;
}
