import { ApiError } from '../platform/errors.ts';
import { IMAGE_TYPES, type RasterExtension, UPLOADS_PREFIX } from './uploads.ts';
import { drainReader } from '../platform/drain.ts';
import { concatBytes } from '../platform/bytes.ts';

/**
 * An admin's image upload (POST /api/admin/images, the raw bytes as the body): at most
 * MAX_IMAGE_BYTES, a JPEG, PNG or WebP by its content, the declared type the same. SVG is
 * refused, whatever it holds (decision 018, amended 2026-11-24): it is a document that can
 * carry script, and a filter over its text was bypassed (issue 20, finding 9). Stored in R2
 * under the SHA-256 of its bytes, so the same file uploaded twice is one object and its URL
 * never serves anything else (functions/catalogue/uploads.ts).
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The declared types each kind of image may come with. */
const DECLARED: Record<RasterExtension, readonly string[]> = {
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  png: ['image/png'],
  webp: ['image/webp'],
};

export interface UploadedImage {
  url: string;
  contentType: string;
  bytes: number;
}

const fileIssue = (message: string) => [{ field: 'file', message }];

function tooLarge(): ApiError {
  return new ApiError(413, 'payload_too_large', 'An image is at most 2 MB.', fileIssue('At most 2 MB'));
}

/** Checks and stores one upload; throws the ApiError to answer with when it is refused. */
export async function uploadImage(bucket: R2Bucket, request: Request): Promise<UploadedImage> {
  // A declared length over the limit is refused before reading; the body is counted as it
  // streams in any case, since a length header need not be there (chunked) or true.
  const declaredLength = Number(request.headers.get('content-length') ?? '0');
  if (declaredLength > MAX_IMAGE_BYTES) throw tooLarge();
  const bytes = await readLimited(request.body, MAX_IMAGE_BYTES);
  if (bytes === 'too_large') throw tooLarge();
  if (bytes === 'interrupted')
    // Nobody may be left to read the answer; it is the sender's, not logged as ours.
    throw new ApiError(
      400,
      'upload_interrupted',
      'The image stopped arriving before its end: send it again.',
      fileIssue('Send it again'),
    );
  if (bytes.byteLength === 0)
    throw new ApiError(400, 'invalid_request', 'No image was sent.', fileIssue("Send the image's bytes as the request body"));

  if (looksLikeSvg(bytes))
    throw new ApiError(
      400,
      'unsafe_image',
      'SVG images are not taken (they can carry script): upload a JPEG, PNG or WebP, such as the drawing exported as PNG.',
      fileIssue('SVG is not taken: upload a JPEG, PNG or WebP'),
    );
  const extension = detectImageType(bytes);
  if (!extension)
    throw new ApiError(
      415,
      'unsupported_image',
      'The file is not a JPEG, PNG or WebP image.',
      fileIssue('Upload a JPEG, PNG or WebP image'),
    );
  const contentType = IMAGE_TYPES[extension];
  const declared = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!DECLARED[extension].includes(declared))
    throw new ApiError(
      415,
      'unsupported_image',
      `The file is ${contentType}, but it was sent as ${declared || 'no type'}.`,
      fileIssue(`The file's content is ${contentType}: send it with that content-type`),
    );
  const key = `${await sha256HexOfBytes(bytes)}.${extension}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType } });
  return { url: `${UPLOADS_PREFIX}${key}`, contentType, bytes: bytes.byteLength };
}

/**
 * The body's bytes, or 'too_large' as soon as they pass `max`, or 'interrupted' when the body
 * stops arriving (the sender lost its connection). Past the limit the rest is read and
 * discarded (drainReader: up to 16 MB, then cancelled), as functions/worker.ts does for bodies
 * nobody read: answering while a client is still sending breaks `wrangler dev`'s proxy.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | 'too_large' | 'interrupted'> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read().catch(() => null);
    if (chunk === null) return 'interrupted';
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await drainReader(reader, size);
      return 'too_large';
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.byteLength >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The raster image's kind by its first bytes; undefined for anything else (SVG included). */
export function detectImageType(bytes: Uint8Array): RasterExtension | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return undefined;
}

/** Whether the bytes are an SVG drawing (text whose first element is <svg>), to refuse it by name. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const text = utf8(bytes);
  return text !== undefined && svgRootAt(text) !== undefined;
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Where the root <svg> element starts, after an optional XML declaration, comments and a
 * doctype (and whitespace); undefined when the text's first element is not <svg>.
 */
function svgRootAt(text: string): number | undefined {
  let at = 0;
  const skip = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return false;
    at = pattern.lastIndex;
    return true;
  };
  skip(/\s*/y);
  if (skip(/<\?xml[\s\S]*?\?>/y)) skip(/\s*/y);
  for (;;) {
    if (skip(/<!--[\s\S]*?-->/y) || skip(/<!DOCTYPE\s[^>[]*(?:\[[\s\S]*?\])?\s*>/iy)) {
      skip(/\s*/y);
      continue;
    }
    break;
  }
  return /^<svg[\s>/]/.test(text.slice(at, at + 5)) ? at : undefined;
}

async function sha256HexOfBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
