import { customFetch } from '@auth/core';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';

/**
 * TESTS ONLY (AUTH_GOOGLE_STANDIN=true): an offline stand-in for Google's authorize, token
 * and userinfo endpoints, so the API tests run Auth.js's real Google callback (state and
 * PKCE cookies, the code exchange, the ID token's claims, account creation and linking)
 * without the network. Never enabled by default; production never sets the flag.
 *
 * Who signs in is chosen by the sign-in request's query, which Auth.js forwards to the
 * authorize URL: `login_hint` (the e-mail), `standin_verified` ("false": Google does not
 * vouch for it), `standin_sub` (Google's user id; default derived from the e-mail) and
 * `standin_name`. The stand-in's authorize route packs them into the code; its token
 * endpoint (answered in-process through Auth.js's `customFetch`) turns the code into an ID
 * token with those claims.
 */
export const STANDIN_CLIENT_ID = 'standin-client-id';
const STANDIN_PATH = '/api/test/google';

interface StandinIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

const b64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const fromB64url = (text: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (ch) => ch.charCodeAt(0)));

/** The Google provider's options pointing at the stand-in on this origin. */
export function googleStandin(origin: string) {
  const issuer = `${origin}${STANDIN_PATH}`;
  return {
    clientId: STANDIN_CLIENT_ID,
    clientSecret: 'standin-client-secret',
    issuer,
    authorization: { url: `${issuer}/authorize`, params: { scope: 'openid email profile' } },
    token: `${issuer}/token`,
    userinfo: `${issuer}/userinfo`,
    [customFetch]: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      if (url.pathname === `${STANDIN_PATH}/token`) {
        const body = new URLSearchParams(init?.body instanceof URLSearchParams ? init.body : String(init?.body ?? ''));
        const identity = JSON.parse(fromB64url(body.get('code') ?? '')) as StandinIdentity;
        const now = Math.floor(Date.now() / 1000);
        const idToken = [
          b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' })),
          b64url(JSON.stringify({ iss: issuer, aud: STANDIN_CLIENT_ID, iat: now, exp: now + 3600, ...identity })),
          b64url('standin-signature'),
        ].join('.');
        return Response.json({
          access_token: `standin-${identity.sub}`,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'openid email profile',
          id_token: idToken,
        });
      }
      return Response.json({ error: 'not_found' }, { status: 404 });
    },
  };
}

/** GET /api/test/google/authorize: "the user agreed", back to Auth.js's callback with a code and the state. 404 without the flag. */
export function standinAuthorize(c: Context<AppEnv>) {
  if (!c.var.config.AUTH_GOOGLE_STANDIN) throw new ApiError(404, 'not_found', `There is no API route for GET ${c.req.path}.`);
  const q = (name: string) => c.req.query(name);
  const email = (q('login_hint') ?? 'standin@example.com').trim().toLowerCase();
  const identity: StandinIdentity = {
    sub: q('standin_sub') ?? `google-${email}`,
    email,
    email_verified: q('standin_verified') !== 'false',
    name: q('standin_name') ?? 'Google User',
  };
  const back = URL.parse(q('redirect_uri') ?? '/', c.req.url);
  if (back?.origin !== new URL(c.req.url).origin) throw new ApiError(400, 'bad_request', 'redirect_uri must be on this origin.');
  back.searchParams.set('code', b64url(JSON.stringify(identity)));
  const state = q('state');
  if (state) back.searchParams.set('state', state);
  return c.redirect(back.href, 302);
}
