import { atom } from 'nanostores';
import { callApi } from '../../lib/api-client.browser.ts';
import { sessionApi, type SessionUser, signOutApi } from './session.ts';

/**
 * Who is signed in, shared by the header script and every island through one store
 * (the spec's auth context). `loading` is true until the first check of the page
 * completes; until then `user` is null and nothing should be shown as signed in or out.
 */
export interface AuthState {
  loading: boolean;
  user: SessionUser | null;
  /** Whether Google sign-in is configured on the server. */
  google: boolean;
}

/** Before the Worker has answered: what the pages are built with. */
export const SESSION_NOT_KNOWN: AuthState = { loading: true, user: null, google: false };

export const $auth = atom<AuthState>(SESSION_NOT_KNOWN);

let check: Promise<AuthState> | undefined;

/** Asks the Worker who is signed in, once per page: later calls share the first answer. */
export function loadSession(): Promise<AuthState> {
  check ??= callApi(sessionApi).then(
    ({ user, google }) => settle({ loading: false, user, google }),
    // Offline or the API failed: show the page as a guest would see it; the next page asks again.
    () => settle({ loading: false, user: null, google: false }),
  );
  return check;
}

/** Asks again (after signing in or out, or changing the profile's name). */
export function refreshSession(): Promise<AuthState> {
  check = undefined;
  return loadSession();
}

function settle(state: AuthState): AuthState {
  $auth.set(state);
  return state;
}

/** Signs this browser out (the Worker clears the session cookie), then asks who is signed in again. */
export async function signOut(): Promise<AuthState> {
  await callApi(signOutApi);
  return refreshSession();
}
