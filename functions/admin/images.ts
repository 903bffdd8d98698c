import { ApiError } from '../lib/errors.ts';
import { IMAGE_TYPES, type ImageExtension, UPLOADS_PREFIX } from '../images.ts';
import { drainReader } from '../lib/drain.ts';

/**
 * An admin's image upload (POST /api/admin/images, the raw bytes as the body): at most
 * MAX_IMAGE_BYTES, a JPEG, PNG, WebP or SVG by its content, the declared type the same, an SVG
 * with nothing active in it. Stored in R2 under the SHA-256 of its bytes, so the same file
 * uploaded twice is one object and its URL never serves anything else (functions/images.ts).
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** Past the limit, up to this much more is read and discarded (see readLimited). */

/** The declared types each kind of image may come with. */
const DECLARED: Record<ImageExtension, readonly string[]> = {
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  png: ['image/png'],
  webp: ['image/webp'],
  svg: ['image/svg+xml'],
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
  if (bytes.byteLength === 0)
    throw new ApiError(400, 'invalid_request', 'No image was sent.', fileIssue("Send the image's bytes as the request body"));

  const extension = detectImageType(bytes);
  if (!extension)
    throw new ApiError(
      415,
      'unsupported_image',
      'The file is not a JPEG, PNG, WebP or SVG image.',
      fileIssue('Upload a JPEG, PNG, WebP or SVG image'),
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
  if (extension === 'svg') {
    const problem = unsafeSvg(bytes);
    if (problem) throw new ApiError(400, 'unsafe_image', `This SVG cannot be used: ${problem}.`, fileIssue(problem));
  }

  const key = `${await sha256HexOfBytes(bytes)}.${extension}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType } });
  return { url: `${UPLOADS_PREFIX}${key}`, contentType, bytes: bytes.byteLength };
}

/**
 * The body's bytes, or 'too_large' as soon as they pass `max`. Past the limit the rest is
 * read and discarded (drainReader: up to 16 MB, then cancelled), as functions/worker.ts does for
 * bodies nobody read: answering while a client is still sending breaks `wrangler dev`'s proxy.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | 'too_large'> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await drainReader(reader, size);
      return 'too_large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.byteLength >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image's kind by its first bytes (and, for SVG, its text's root element); undefined for anything else. */
export function detectImageType(bytes: Uint8Array): ImageExtension | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  const text = utf8(bytes);
  if (text !== undefined && svgRootAt(text) !== undefined) return 'svg';
  return undefined;
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

/**
 * Why an SVG is refused, or undefined when it is a plain drawing. Defence in depth: the
 * pages show uploads with <img> (no script runs there) and the Worker serves them under a
 * sandboxing CSP, but a file with active content has no business in the catalogue anyway.
 */
export function unsafeSvg(bytes: Uint8Array): string | undefined {
  const text = utf8(bytes);
  if (text === undefined) return 'it is not UTF-8 text';
  if (/<\s*([\w.-]+:)?script[\s>/]/i.test(text)) return 'it contains a <script> element';
  if (/<\s*([\w.-]+:)?foreignObject[\s>/]/i.test(text)) return 'it contains a <foreignObject> element';
  if (/<\s*([\w.-]+:)?(iframe|embed|object|handler|listener)[\s>/]/i.test(text)) return 'it embeds other content';
  if (/[\s"'/]on[a-z]+\s*=/i.test(text)) return 'it has an event-handler attribute (on…=)';
  if (/javascript\s*:/i.test(text)) return 'it contains a javascript: link';
  if (/<!ENTITY/i.test(text)) return 'it declares XML entities';
  if (/<\?xml-stylesheet/i.test(text)) return 'it links a stylesheet';
  if (/@import/i.test(text)) return 'its style imports another file';
  for (const match of text.matchAll(/\bhref\s*=\s*(["'])([\s\S]*?)\1/gi)) {
    if (!match[2]!.trim().startsWith('#')) return 'it links to something outside the file (href)';
  }
  for (const match of text.matchAll(/\burl\(\s*(["']?)([\s\S]*?)\1\s*\)/gi)) {
    if (!match[2]!.trim().startsWith('#')) return 'it loads something outside the file (url())';
  }
  return undefined;
}

async function sha256HexOfBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
