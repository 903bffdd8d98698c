import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Auth } from '@auth/core';
import { authConfig } from './auth-config.ts';
import { standinAuthorize } from './google-standin.ts';
import { isSecureRequest, sessionCookieName, sessionUser } from './session.ts';
import { type AppEnv, createRouter } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';

/**
 * Auth.js's own routes under /api/auth/* (providers, csrf, session, signin/google,
 * callback/google, callback/credentials, signout): its double-submit CSRF token guards its
 * form posts, and the app's csrf() refuses cross-site ones. They are Auth.js's contract,
 * not ours (tests/api/contracts.test.ts leaves them out of the route check).
 */
export const authRoute = createRouter().on(['GET', 'POST'], '/*', async (c) => {
  if (!c.var.config.AUTH_SECRET)
    throw new ApiError(500, 'auth_not_configured', 'Sign-in is not configured on this server (AUTH_SECRET).');
  const response = await Auth(await withoutEndedSession(c), authConfig(c));
  // A request Auth.js refuses gets its own body ("Bad request.", `null`): answered in the API's
  // shape instead, as every other refusal is. Its redirects (sign-in errors included) pass.
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel();
    throw new ApiError(
      response.status as ContentfulStatusCode,
      'auth_request_refused',
      'Sign-in could not use this request. Please start again from the sign-in page.',
    );
  }
  // Auth.js's own HTML pages (GET signout, verify-request) are not the store's: its pages are
  // /login, and everything under /api answers JSON.
  if ((response.headers.get('content-type') ?? '').startsWith('text/html')) {
    await response.body?.cancel();
    throw new ApiError(404, 'not_found', 'No such API route. Sign in and out from the sign-in page.');
  }
  // Auth.js answers with its own headers; the app's security headers are added on top.
  return new Response(response.body, response);
});

/**
 * Auth.js trusts any session cookie it can decrypt: at a Google callback it would link the
 * Google identity to that cookie's user even after the session was ended (signed out, or
 * ended by the address's first proof, a reset), letting a stale cookie re-enter the account. A
 * cookie that is not a current session, under any name Auth.js would read as one, is taken out
 * of the request before Auth.js sees it.
 */
async function withoutEndedSession(c: Context<AppEnv>): Promise<Request> {
  const name = sessionCookieName(isSecureRequest(c));
  const cookies = (c.req.header('cookie') ?? '').split(';').map((pair) => pair.trim());
  // As loosely as Auth.js reads them (it trims names and takes any name that starts with the
  // session cookie's as a chunk of it: `authjs.session-token =`, `authjs.session-tokenX=`), with
  // the other scheme's name too; only the exact name (or its `.0`, `.1` chunks) of a current
  // session is kept.
  const nameOf = (pair: string) => pair.split('=', 1)[0]!.trim();
  const isSession = (pair: string) => SESSION_NAMES.some((n) => nameOf(pair).startsWith(n));
  const exact = new RegExp(`^${name.replaceAll('.', '\\.')}(\\.\\d+)?=`);
  if (!cookies.some(isSession)) return c.req.raw;
  const current = Boolean(await sessionUser(c));
  const kept = cookies.filter((pair) => pair && (!isSession(pair) || (current && exact.test(pair))));
  if (kept.length === cookies.filter(Boolean).length) return c.req.raw;
  const headers = new Headers(c.req.raw.headers);
  headers.set('cookie', kept.join('; '));
  return new Request(c.req.raw, { headers });
}

/** Both schemes' session cookie names (`__Secure-` over https). */
const SESSION_NAMES = [sessionCookieName(true), sessionCookieName(false)];

/** TESTS ONLY: the stand-in for Google's authorize page (functions/accounts/google-standin.ts); 404 unless AUTH_GOOGLE_STANDIN=true. */
export const googleStandinRoute = createRouter().get('/authorize', standinAuthorize);
