import { useCallback, useEffect, useRef, useState } from 'react';

/** What a screen's data is: on its way, there, or refused with a message the page shows. */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; message: string };

export interface LoadOptions {
  /** What names the data (a route, a filter): a new key shows "loading" and loads again. */
  key?: string;
  /** Wait until this is true (the account pages wait for the session). */
  enabled?: boolean;
  /** What a failure means to the reader (each island words its own: a 401 means something else to each). */
  errorMessage: (error: unknown) => string;
}

/**
 * The one loader the islands share (account pages, admin screens, the shopper's trade-ins).
 * Loads once `enabled`, again when `key` changes or `reload()` is called; an answer to an older
 * request is dropped (its AbortSignal fires). A reload of the same key keeps what shows until
 * the answer. `set` replaces the data and `update` changes it (a save answered with the newer
 * version).
 */
export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, { key = '', enabled = true, errorMessage }: LoadOptions) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const messageRef = useRef(errorMessage);
  messageRef.current = errorMessage;
  const lastKey = useRef(key);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and attempt force a new load; load is read through its ref
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const sameKey = lastKey.current === key;
    lastKey.current = key;
    setLoaded((current) => (sameKey && current.state === 'ready' ? current : { state: 'loading' }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setLoaded({ state: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', message: messageRef.current(error) });
      },
    );
    return () => controller.abort();
  }, [enabled, key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const set = useCallback((data: T) => setLoaded({ state: 'ready', data }), []);
  const update = useCallback((change: (data: T) => T) => {
    setLoaded((current) => (current.state === 'ready' ? { state: 'ready', data: change(current.data) } : current));
  }, []);
  return { loaded, reload, set, update };
}
