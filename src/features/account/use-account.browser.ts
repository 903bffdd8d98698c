import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { $auth, type AuthState, loadSession, refreshSession, SESSION_NOT_KNOWN } from './session.browser.ts';

/**
 * Hooks the account pages share: who is signed in (asked once per page, see
 * session.browser.ts), and the signed-in user's data from the accounts API with its
 * loading and error states.
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

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; message: string };

/**
 * Loads the signed-in user's data once `enabled` (the session said who is signed in).
 * Answers the state, a setter for the data (after a save answers with a newer version),
 * and `retry`.
 */
export function useAccountData<T>(load: (signal: AbortSignal) => Promise<T>, enabled: boolean) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt forces a new load; load is read through its ref
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setLoaded({ state: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setLoaded({ state: 'failed', message: accountErrorMessage(error, 'We could not load this page. Please try again.') });
      },
    );
    return () => controller.abort();
  }, [enabled, attempt]);

  const update = useCallback((change: (data: T) => T) => {
    setLoaded((current) => (current.state === 'ready' ? { state: 'ready', data: change(current.data) } : current));
  }, []);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { loaded, update, retry };
}
