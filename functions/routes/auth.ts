import { Auth } from '@auth/core';
import { authConfig } from '../auth/auth-config.ts';
import { standinAuthorize } from '../auth/google-standin.ts';
import { createRouter } from '../lib/app.ts';
import { ApiError } from '../lib/errors.ts';

/**
 * Auth.js's own routes under /api/auth/* (providers, csrf, session, signin/google,
 * callback/google, callback/credentials, signout): its double-submit CSRF token guards its
 * form posts, and the app's csrf() refuses cross-site ones. They are Auth.js's contract,
 * not ours (tests/api/contracts.test.ts leaves them out of the route check).
 */
export const authRoute = createRouter().on(['GET', 'POST'], '/*', async (c) => {
  if (!c.var.config.AUTH_SECRET)
    throw new ApiError(500, 'auth_not_configured', 'Sign-in is not configured on this server (AUTH_SECRET).');
  const response = await Auth(c.req.raw, authConfig(c));
  // Auth.js answers with its own headers; the app's security headers are added on top.
  return new Response(response.body, response);
});

/** TESTS ONLY: the stand-in for Google's authorize page (functions/auth/google-standin.ts); 404 unless AUTH_GOOGLE_STANDIN=true. */
export const googleStandinRoute = createRouter().get('/authorize', standinAuthorize);
