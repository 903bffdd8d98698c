/**
 * What the login page needs only once the shopper acts: the accounts API's contract (with the
 * full zod). The page ships without it; login.browser.ts fetches it when the shopper first
 * touches the page (or a link from an e-mail asks the API at once), and every action awaits it.
 */
const importAll = () => import('./account-api.ts').then(({ accountApi, GOOGLE_SIGN_IN }) => ({ accountApi, GOOGLE_SIGN_IN }));

export type LoginModules = Awaited<ReturnType<typeof importAll>>;

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
