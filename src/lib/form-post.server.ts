import { concatBytes } from '../../functions/platform/bytes.ts';
import { drainReader } from '../../functions/platform/drain.ts';

/**
 * A plain form posted to a page the Worker renders (POST /cart/add, POST /track/order): where it
 * came from, and its fields, read only when the body is a small form.
 */

/**
 * The request came from another site. Browsers say so in Sec-Fetch-Site and Origin. A request
 * with neither (a script) is not refused here: it can do no more than the API lets it. (Astro's
 * origin check has already refused a form POST without this site's Origin.)
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.get('origin');
  return origin !== null && origin !== new URL(request.url).origin;
}

/**
 * The posted form's fields, or undefined when the body is not a form (urlencoded or multipart),
 * is larger than `maxBytes` (said in Content-Length, or found while reading a body sent without
 * it) or cannot be read. A form's fields are a few dozen bytes.
 */
export async function readSmallForm(request: Request, maxBytes: number): Promise<FormData | undefined> {
  const type = request.headers.get('content-type') ?? '';
  const length = Number(request.headers.get('content-length') ?? '0');
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type) || !(length <= maxBytes)) return undefined;
  try {
    const body = await readAtMost(request.body, maxBytes);
    return body ? await new Response(body, { headers: { 'content-type': type } }).formData() : undefined;
  } catch {
    return undefined;
  }
}

/** A body's bytes, or undefined past `maxBytes` (the rest is drained, as functions/worker.ts does). */
async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await drainReader(reader, size);
      return undefined;
    }
    chunks.push(value);
  }
}
