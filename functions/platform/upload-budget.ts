import type { Context } from 'hono';
import { ApiError } from './errors.ts';

/**
 * How many bytes of uploads this isolate may hold in memory at once. A Worker's isolate has
 * 128 MB and serves many requests at the same time; a trade-in is read whole before its photos
 * go to R2 (functions/trade-ins/photos.ts), so a handful of strangers sending the largest forms
 * at once, slowly, could otherwise run the isolate out of memory and fail every request it
 * holds, checkouts included. Past the budget, an upload is answered 503 with Retry-After at
 * once, before its body is read; the rest of the store is not touched.
 *
 * The count is per isolate (module state), which is what runs out: Cloudflare starts more
 * isolates for more traffic, and each has its own 128 MB and its own budget.
 */
export const UPLOAD_BUDGET_BYTES = 32 * 1024 * 1024;

/** Seconds a refused upload is told to wait: uploads in flight end within seconds. */
export const UPLOAD_RETRY_AFTER_SECONDS = 10;

let held = 0;

/** Bytes reserved by uploads in flight in this isolate (for tests and logs). */
export const uploadBytesHeld = () => held;

/**
 * Reserves `bytes` for one upload: a function that gives them back (call it once the upload's
 * bytes are no longer needed; a second call does nothing), or null when they do not fit.
 */
export function reserveUpload(bytes: number): (() => void) | null {
  if (held + bytes > UPLOAD_BUDGET_BYTES) return null;
  held += bytes;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held -= bytes;
  };
}

/**
 * Reserves `bytes` for the request's upload, or refuses it: 503 `busy` with Retry-After, a
 * message the form shows as it is. Answers the function that gives the bytes back.
 */
export function holdUploadBytes(c: Context, bytes: number): () => void {
  const release = reserveUpload(bytes);
  if (release) return release;
  c.header('Retry-After', String(UPLOAD_RETRY_AFTER_SECONDS));
  throw new ApiError(
    503,
    'busy',
    `Many photos are being sent to us right now. Please wait ${UPLOAD_RETRY_AFTER_SECONDS} seconds and send the form again; nothing was saved.`,
  );
}
