import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * What the login island needs only once the user acts: the accounts API's contract and the
 * forms' schemas (both with the full zod) and react-hook-form's zod resolver. The page
 * ships without them; the island fetches them right after it hydrates, and every action
 * awaits them.
 */
const importAll = () =>
  Promise.all([import('./account-api.ts'), import('./login-schemas.ts'), import('@hookform/resolvers/zod')]).then(
    ([{ accountApi, GOOGLE_SIGN_IN }, schemas, { zodResolver }]) => ({ accountApi, GOOGLE_SIGN_IN, schemas, zodResolver }),
  );

export type LoginModules = Awaited<ReturnType<typeof importAll>>;
export type LoginSchemas = LoginModules['schemas'];

let loading: Promise<LoginModules> | undefined;

/** Loads the modules once; after a failure (the connection dropped) the next call tries again. */
export function loadLoginModules(): Promise<LoginModules> {
  if (!loading) {
    loading = importAll();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/**
 * One of the forms' schemas as react-hook-form's resolver, once loaded. If it cannot load,
 * the values go on as they are and the request that follows says what went wrong.
 */
export function lazyResolver<T extends FieldValues>(schemaOf: (schemas: LoginSchemas) => z.ZodType<unknown, T>): Resolver<T> {
  return async (values, context, options) => {
    const modules = await loadLoginModules().catch(() => null);
    if (!modules) return { values, errors: {} };
    const resolve = modules.zodResolver(schemaOf(modules.schemas) as z.ZodType<T, T>) as unknown as Resolver<T>;
    return resolve(values, context, options);
  };
}

/**
 * Starts Google sign-in, Auth.js's redirect flow (account-api.ts, GOOGLE_SIGN_IN): its CSRF
 * token, then the POST to its Google sign-in route, then the browser goes where that answer
 * says: Google, which sends it on to `callbackPath` (or back to /login?error=<code>).
 *
 * The POST is a fetch with Auth.js's `X-Auth-Return-Redirect: 1` (it then answers
 * `{ url }` instead of a 302, with the same state and PKCE cookies), not a form: the pages'
 * CSP has `form-action 'self'`, and Chromium applies it to a form's redirects too, so a
 * form POST that Auth.js redirects to accounts.google.com is blocked. A navigation by
 * script is not subject to form-action.
 */
export async function startGoogleSignIn(callbackPath: string): Promise<void> {
  const { GOOGLE_SIGN_IN } = await loadLoginModules();
  const csrf = await fetch(GOOGLE_SIGN_IN.csrfPath, { headers: { accept: 'application/json' } });
  const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown };
  if (!csrf.ok || typeof csrfToken !== 'string') throw new Error('No CSRF token from Auth.js');
  const response = await fetch(GOOGLE_SIGN_IN.signInPath, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'x-auth-return-redirect': '1' },
    body: new URLSearchParams({ csrfToken, callbackUrl: callbackPath }),
  });
  const { url } = (await response.json()) as { url?: unknown };
  if (typeof url !== 'string') throw new Error('No redirect from Auth.js');
  window.location.assign(url);
}
