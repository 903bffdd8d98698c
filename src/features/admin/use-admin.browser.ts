import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerOf, Endpoint } from '../../lib/api-contract.ts';
import { ApiRequestError, type CallOptions, callApi } from '../../lib/api-client.browser.ts';
import { $adminDenied } from './admin-access.browser.ts';

/**
 * The admin island's calls: every one through the contract (callApi), and a 401 or 403 from
 * any of them (the session ended, or the role was taken away) turns the whole page into the
 * Access Denied message.
 */
export { $adminDenied };

export async function adminCall<E extends Endpoint>(endpoint: E, options: CallOptions<E> = {}): Promise<AnswerOf<E>> {
  try {
    return await callApi(endpoint, options);
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 403)) $adminDenied.set(error.status);
    throw error;
  }
}

/** What a failed admin call means to the admin. */
export function adminErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiRequestError) {
    if (error.code === 'network') return 'We could not reach the store. Check your connection and try again.';
    if (error.status === 404 && error.code === 'http_error') return 'This part of the admin API is not available yet.';
    if (error.status >= 500) return fallback;
    return error.message;
  }
  return fallback;
}

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; message: string };

/**
 * Loads what a screen shows, again whenever `key` changes (its route) or `reload()` is called;
 * an answer to an older request is dropped. `set` replaces the data (a move answered with the
 * order as it now is).
 */
export function useAdminData<T>(load: (signal: AbortSignal) => Promise<T>, key: string) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const lastKey = useRef(key);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and attempt force a new load; load is read through its ref
  useEffect(() => {
    const controller = new AbortController();
    // Another page or filter: show it loading. The same one again (reload): keep what shows until the answer.
    const sameKey = lastKey.current === key;
    lastKey.current = key;
    setLoaded((current) => (sameKey && current.state === 'ready' ? current : { state: 'loading' }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setLoaded({ state: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setLoaded({ state: 'failed', message: adminErrorMessage(error, 'We could not load this. Please try again.') });
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const set = useCallback((data: T) => setLoaded({ state: 'ready', data }), []);
  return { loaded, reload, set };
}
