import { Auth } from '@auth/core';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { AUTH_BASE_PATH, authConfig, type SignInOutcome } from './auth-config.ts';
import { INVALID_CREDENTIALS_MESSAGE, trustDevice } from './credentials.ts';
import { sessionCookieName, isSecureRequest } from './session.ts';

/** Calls Auth.js's handler inside this request (same origin, so the same cookie names and flags). */
function callAuth<E extends AppEnv>(c: Context<E>, path: string, init: RequestInit, outcome?: SignInOutcome) {
  const url = new URL(`${AUTH_BASE_PATH}${path}`, c.req.url);
  return Auth(new Request(url, init), authConfig(c, outcome));
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
 * statuses. It runs Auth.js's own flow inside this request (its CSRF token, then its
 * credentials callback with `X-Auth-Return-Redirect: 1`), so the session cookie is exactly
 * the one Auth.js issues, and turns its answer into 200 (the Set-Cookie passed on), 401
 * `invalid_credentials` or 429 `rate_limited` with Retry-After, and on success sets the
 * device cookie (functions/accounts/device.ts). Cross-site requests never get here
 * (sameOriginOnly on the route).
 */
export async function signInWithPassword<E extends AppEnv>(c: Context<E>, email: string, password: string): Promise<string> {
  if (!c.var.config.AUTH_SECRET)
    throw new ApiError(500, 'auth_not_configured', 'Sign-in is not configured on this server (AUTH_SECRET).');
  const csrfResponse = await callAuth(c, '/csrf', { method: 'GET' });
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const csrfCookies = [...cookiesOf(csrfResponse)].map(([name, value]) => `${name}=${value}`).join('; ');

  const outcome: SignInOutcome = {};
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
    outcome,
  );
  const check = outcome.check;
  if (check?.kind === 'rate_limited') {
    c.header('Retry-After', String(check.retryAfterSeconds));
    throw new ApiError(429, 'rate_limited', check.message);
  }
  const sessionCookie = cookiesOf(response).get(sessionCookieName(isSecureRequest(c)));
  if (check?.kind !== 'ok' || !sessionCookie) {
    throw new ApiError(401, 'invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
  }
  // Pass on Auth.js's session cookie as it set it (name, value and flags).
  for (const header of response.headers.getSetCookie()) {
    if (header.startsWith(`${sessionCookieName(isSecureRequest(c))}=`)) c.header('set-cookie', header, { append: true });
  }
  // This browser proved the address: its later sign-ins are counted apart from strangers'.
  await trustDevice(c, check.user.email);
  return check.user.id;
}
