import type { AnswerOf, Endpoint } from '../../lib/api-contract.ts';
import { ApiRequestError, type CallOptions, callApi } from '../../lib/api-client.browser.ts';
import { $adminDenied } from './admin-access.browser.ts';

/**
 * The admin island's calls: every one through the contract (callApi). A permission refusal
 * from any of them turns the whole page into the Access Denied message; any other refusal is
 * the screen's to show (adminErrorMessage).
 */
export { $adminDenied };

/**
 * Whether a refusal says the admin may not be here at all: a 401 (the session ended) or the
 * Worker's 403 `forbidden` (the role was taken away, or a request that did not come from the
 * store's pages). A refused move (409) or any other 403 is about one action, not about access.
 */
export function deniedAccess(error: unknown): 401 | 403 | null {
  return error instanceof ApiRequestError ? refusedAccess(error.status, error.code) : null;
}

/** deniedAccess for an answer read by hand (the image upload sends a file, not JSON). */
export function refusedAccess(status: number, code: string): 401 | 403 | null {
  if (status === 401) return 401;
  if (status === 403 && code === 'forbidden') return 403;
  return null;
}

/** Calls an admin endpoint; a permission refusal (deniedAccess) also shows Access Denied before it throws. */
export async function adminCall<E extends Endpoint>(endpoint: E, options: CallOptions<E> = {}): Promise<AnswerOf<E>> {
  try {
    return await callApi(endpoint, options);
  } catch (error) {
    const denied = deniedAccess(error);
    if (denied) $adminDenied.set(denied);
    throw error;
  }
}

/** What a failed admin call means to the admin. */
export function adminErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiRequestError) {
    if (error.code === 'network') return 'We could not reach the store. Check your connection and try again.';
    if (error.status === 404 && error.code === 'http_error')
      return 'The admin API could not find this. Reload the page and try again.';
    if (error.status >= 500) return fallback;
    return error.message;
  }
  return fallback;
}

/** What a screen that could not load its data says (useLoaded's `errorMessage` for every admin screen). */
export function adminLoadFailed(error: unknown): string {
  return adminErrorMessage(error, 'We could not load this. Please try again.');
}
