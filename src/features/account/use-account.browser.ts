import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { $auth, type AuthState, loadSession, refreshSession, SESSION_NOT_KNOWN } from './session.browser.ts';

/**
 * What the account pages share: who is signed in (asked once per page, see
 * session.browser.ts), and what a refusal from the accounts API says to the reader (the
 * pages load their data with useLoaded, src/features/loaded).
 */

/**
 * The session as the account islands see it; asks the Worker on first use (later calls share
 * the answer). Hydration renders what the page was built with (not known yet) even when the
 * header's early check has already answered, so React's first render matches the HTML.
 */
export function useAuth(): AuthState {
  const auth = useStore($auth, { ssr: () => SESSION_NOT_KNOWN });
  useEffect(() => {
    void loadSession();
  }, []);
  return auth;
}

/** What an account API refusal means to the page; a 401 (the session ended elsewhere) shows the sign-in prompt again. */
export function accountErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 401) {
      void refreshSession();
      return 'Your session has ended. Please sign in again.';
    }
    if (error.code === 'network') return 'We could not reach the store. Check your connection and try again.';
    if (error.status >= 500) return fallback;
    return error.message;
  }
  return fallback;
}

/** What an account page that could not load its data says (useLoaded's `errorMessage` for every account page). */
export function accountLoadFailed(error: unknown): string {
  return accountErrorMessage(error, 'We could not load this page. Please try again.');
}
