import { inArray } from 'drizzle-orm';
import { MAX_PHOTO_BYTES, MAX_TRADE_IN_PHOTOS } from '../../src/features/trade-ins/trade-in.ts';
import { detectImageType, readLimited } from '../catalogue/admin-images.ts';
import type { Db } from '../platform/db.ts';
import { tradeInPhotos } from '../platform/schema.ts';
import { IMAGE_TYPES, UPLOADED_IMAGE_CSP } from '../catalogue/uploads.ts';
import { drainReader } from '../platform/drain.ts';
import { ApiError } from '../platform/errors.ts';
import { type MultipartPart, type MultipartProblem, MultipartRefused, multipartBoundary, readMultipart } from './multipart.ts';

/**
 * A trade-in's photos: read from the request with the form's fields, checked (at most
 * MAX_TRADE_IN_PHOTOS, each at most MAX_PHOTO_BYTES, a JPEG, PNG or WebP by its content),
 * stored in R2 (IMAGES) under `trade-ins/<request id>/…` and served to admins only.
 * The request's row is written after its photos; when that fails the photos are deleted, and
 * photos a crashed request left behind are swept by the cron (sweepOrphanPhotos).
 */

export const PHOTOS_PREFIX = 'trade-ins/';

/** What a submission may weigh: the photos and some room for the fields and the multipart framing. */
export const MAX_SUBMISSION_BYTES = MAX_TRADE_IN_PHOTOS * MAX_PHOTO_BYTES + 256 * 1024;

/**
 * The form's fields as JSON (the `request` part, or the whole body without photos). The schema
 * caps every field (a 500-character note is the longest); this leaves room for JSON's escapes.
 */
export const MAX_FIELDS_BYTES = 16 * 1024;

/**
 * Parts of a multipart submission: the `request`, MAX_TRADE_IN_PHOTOS photos and one more, so
 * that a fifth photo is told "at most 4 photos" rather than "too many parts".
 */
export const MAX_SUBMISSION_PARTS = MAX_TRADE_IN_PHOTOS + 2;

/** A part's header block: its name, file name and type (a browser writes a few hundred bytes). */
const MAX_PART_HEADER_BYTES = 8 * 1024;

/** Photos nobody's row names are deleted once they are this old (a submission takes seconds). */
export const ORPHAN_PHOTO_AGE_MS = 60 * 60 * 1000;

const PHOTO_EXTENSIONS = ['jpg', 'png', 'webp'] as const;
type PhotoExtension = (typeof PHOTO_EXTENSIONS)[number];

export interface Photo {
  bytes: Uint8Array<ArrayBuffer>;
  extension: PhotoExtension;
  contentType: string;
}

export interface Submission {
  /** The form's fields, unvalidated (the route validates them with the shared schema). */
  fields: unknown;
  photos: Photo[];
}

const MB = MAX_PHOTO_BYTES / (1024 * 1024);
const tooLarge = () =>
  new ApiError(413, 'payload_too_large', `The photos are too large: at most ${MAX_TRADE_IN_PHOTOS} photos of ${MB} MB each.`, [
    { field: 'photos', message: `At most ${MAX_TRADE_IN_PHOTOS} photos of ${MB} MB each` },
  ]);
const unreadable = (message: string, field = '(body)') => new ApiError(400, 'invalid_request', message, [{ field, message }]);
const photoName = (index: number, filename: string | undefined) =>
  `Photo ${index + 1}${filename ? ` (${filename.slice(0, 60)})` : ''}`;

/**
 * Reads a submission: multipart/form-data with a `request` part (the fields as JSON) and up to
 * MAX_TRADE_IN_PHOTOS `photos` parts, or plain JSON (the fields, no photos). The body is read
 * as it streams and refused at the first part past a limit (their number, a field's or a
 * photo's size, the whole body), before anything more is kept; the rest is drained unread.
 */
export async function readSubmission(request: Request): Promise<Submission> {
  const contentType = request.headers.get('content-type') ?? '';
  const type = contentType.toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  if (!multipart && !type.startsWith('application/json')) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Send the trade-in as multipart/form-data (a `request` part and `photos`) or as JSON without photos.',
    );
  }
  const declaredLength = declaredLengthOf(request);

  if (!multipart) {
    if (declaredLength > MAX_FIELDS_BYTES) throw fieldsTooLarge('(body)');
    const bytes = await readLimited(request.body, MAX_FIELDS_BYTES);
    if (bytes === 'too_large') throw fieldsTooLarge('(body)');
    if (bytes === 'interrupted') throw refusalFor({ kind: 'interrupted' }, 0);
    return { fields: parseJson(new TextDecoder().decode(bytes)), photos: [] };
  }

  if (declaredLength > MAX_SUBMISSION_BYTES) throw tooLarge();
  const boundary = multipartBoundary(contentType);
  if (!boundary || !request.body) throw unreadable('The form could not be read: send it as multipart/form-data.');
  const reader = request.body.getReader();
  const progress = { bytesRead: 0 };
  let photoCount = 0;
  let fieldParts = 0;
  let parts: MultipartPart[];
  try {
    parts = await readMultipart(
      reader,
      boundary,
      { maxParts: MAX_SUBMISSION_PARTS, maxBodyBytes: submissionBytes(request), maxHeaderBytes: MAX_PART_HEADER_BYTES },
      ({ name }) => {
        if (name === 'request' && ++fieldParts > 1) {
          throw unreadable('The form’s fields came twice: send them once, in one `request` part.', 'request');
        }
        if (name !== 'photos') return MAX_FIELDS_BYTES;
        if (++photoCount > MAX_TRADE_IN_PHOTOS) {
          throw new ApiError(400, 'invalid_request', `At most ${MAX_TRADE_IN_PHOTOS} photos.`, [
            { field: 'photos', message: `Choose at most ${MAX_TRADE_IN_PHOTOS} photos` },
          ]);
        }
        return MAX_PHOTO_BYTES;
      },
      progress,
    );
  } catch (err) {
    await drainReader(reader, progress.bytesRead);
    throw err instanceof MultipartRefused ? refusalFor(err.problem, photoCount - 1) : err;
  }

  const fieldsPart = parts.find((p) => p.name === 'request');
  if (fieldsPart === undefined) throw unreadable('The form is missing: send its fields as JSON in a `request` part.', 'request');
  const fields = parseJson(new TextDecoder().decode(fieldsPart.bytes));

  const photos: Photo[] = [];
  for (const [index, part] of parts.filter((p) => p.name === 'photos').entries()) {
    if (part.filename === undefined) throw unreadable('A photo must be a file.', `photos.${index}`);
    photos.push(checkPhoto(part, index));
  }
  return { fields, photos };
}

/** The body's Content-Length, or 0 when it has none (a streamed body) or it is not a number. */
function declaredLengthOf(request: Request): number {
  const length = Number(request.headers.get('content-length') ?? '0');
  return Number.isSafeInteger(length) && length > 0 ? length : 0;
}

/**
 * The most bytes a submission may bring, which is what it reserves of the isolate's upload
 * budget (functions/platform/upload-budget.ts) while it is read and stored: its declared length
 * (a browser's form says it) up to MAX_SUBMISSION_BYTES, or that limit when it declares none.
 * The reader refuses a body past it. JSON, without photos, is at most MAX_FIELDS_BYTES.
 */
export function submissionBytes(request: Request): number {
  const multipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
  const most = multipart ? MAX_SUBMISSION_BYTES : MAX_FIELDS_BYTES;
  const declared = declaredLengthOf(request);
  return declared > 0 ? Math.min(declared, most) : most;
}

function fieldsTooLarge(field: string) {
  const message = `The form's fields are at most ${MAX_FIELDS_BYTES / 1024} KB`;
  return new ApiError(413, 'payload_too_large', `${message}.`, [{ field, message }]);
}

/** The API's answer to a body the multipart reader refused. */
function refusalFor(problem: MultipartProblem, photoIndex: number): ApiError {
  switch (problem.kind) {
    case 'too_many_parts': {
      const message = `A trade-in form has at most ${MAX_SUBMISSION_PARTS} parts: its fields and up to ${MAX_TRADE_IN_PHOTOS} photos`;
      return new ApiError(413, 'too_many_parts', `${message}.`, [{ field: '(body)', message }]);
    }
    case 'part_too_large': {
      if (problem.name !== 'photos') return fieldsTooLarge(problem.name.slice(0, 60));
      return photoTooLarge(photoIndex, problem.filename);
    }
    case 'body_too_large':
      return tooLarge();
    case 'headers_too_large': {
      const message = `A part's headers are at most ${MAX_PART_HEADER_BYTES / 1024} KB`;
      return new ApiError(413, 'payload_too_large', `${message}.`, [{ field: '(body)', message }]);
    }
    case 'malformed':
      return unreadable(`The form could not be read (${problem.reason}): send it as multipart/form-data.`);
    case 'interrupted':
      // Nobody may be left to read it; answered as the sender's mistake, not logged as ours.
      return new ApiError(400, 'upload_interrupted', 'The form stopped arriving before its end: send it again.');
  }
}

function photoTooLarge(index: number, filename: string | undefined) {
  const name = photoName(index, filename);
  return new ApiError(413, 'payload_too_large', `${name} is larger than ${MB} MB.`, [
    { field: `photos.${index}`, message: `${name} is larger than ${MB} MB` },
  ]);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw unreadable('The form’s fields are not valid JSON.');
  }
}

/** One photo: size, and type by its content (the declared type must agree). */
function checkPhoto(part: MultipartPart, index: number): Photo {
  const field = `photos.${index}`;
  const name = photoName(index, part.filename);
  if (part.bytes.byteLength === 0)
    throw new ApiError(400, 'invalid_request', `${name} is empty.`, [{ field, message: `${name} is empty` }]);
  if (part.bytes.byteLength > MAX_PHOTO_BYTES) throw photoTooLarge(index, part.filename);
  const detected = detectImageType(part.bytes);
  const extension = PHOTO_EXTENSIONS.find((e) => e === detected);
  const refused = (message: string): never => {
    throw new ApiError(415, 'unsupported_image', `${name}: ${message}.`, [{ field, message: `${name}: ${message}` }]);
  };
  if (!extension) return refused('not a JPEG, PNG or WebP photo');
  const contentType = IMAGE_TYPES[extension];
  const declared = part.contentType;
  if (declared && declared !== contentType && !(extension === 'jpg' && declared === 'image/jpg')) {
    return refused(`its content is ${contentType} but it was sent as ${declared}`);
  }
  return { bytes: part.bytes, extension, contentType };
}

/** Stores the photos under the request's id; all or none (the ones stored are deleted when one fails). */
export async function storePhotos(bucket: R2Bucket, tradeInId: string, photos: readonly Photo[]) {
  const stored: { position: number; key: string; contentType: string; bytes: number }[] = [];
  const results = await Promise.allSettled(
    photos.map(async (photo, position) => {
      const key = `${PHOTOS_PREFIX}${tradeInId}/${position + 1}.${photo.extension}`;
      await bucket.put(key, photo.bytes, { httpMetadata: { contentType: photo.contentType } });
      stored.push({ position, key, contentType: photo.contentType, bytes: photo.bytes.byteLength });
    }),
  );
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await deletePhotos(
      bucket,
      stored.map((s) => s.key),
    );
    throw failed.reason;
  }
  return stored.sort((a, b) => a.position - b.position);
}

/** Deletes stored photos; a failure is logged and left for the sweep. */
export async function deletePhotos(bucket: R2Bucket, keys: readonly string[]) {
  if (!keys.length) return;
  try {
    await bucket.delete([...keys]);
  } catch (err) {
    console.error(`Could not delete ${keys.length} trade-in photos; the cron sweep will: ${String(err)}`);
  }
}

/** A photo's answer for an admin: its bytes, its checked type, kept only in the admin's browser. */
export async function servePhoto(bucket: R2Bucket, key: string, contentType: string): Promise<Response> {
  const object = await bucket.get(key);
  if (object === null) {
    throw new ApiError(404, 'photo_not_found', 'This photo is missing from storage.');
  }
  return new Response(object.body, {
    headers: {
      'content-type': contentType,
      'content-length': String(object.size),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': UPLOADED_IMAGE_CSP,
    },
  });
}

/**
 * Deletes photos under PHOTOS_PREFIX that no request names and that are older than
 * ORPHAN_PHOTO_AGE_MS: left by a submission whose row was never written (the Worker stopped
 * between the upload and the batch). Looks at up to `maxObjects` per run; answers how many it deleted.
 */
export async function sweepOrphanPhotos(db: Db, bucket: R2Bucket, now = new Date(), maxObjects = 1000): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page = await bucket.list({ prefix: PHOTOS_PREFIX, cursor, limit: 500 });
    seen += page.objects.length;
    const old = page.objects.filter((o) => now.getTime() - o.uploaded.getTime() > ORPHAN_PHOTO_AGE_MS).map((o) => o.key);
    // D1 binds at most 100 parameters per statement.
    for (let i = 0; i < old.length; i += 90) {
      const keys = old.slice(i, i + 90);
      const named = new Set(
        (await db.select({ key: tradeInPhotos.key }).from(tradeInPhotos).where(inArray(tradeInPhotos.key, keys))).map(
          (r) => r.key,
        ),
      );
      const orphans = keys.filter((k) => !named.has(k));
      if (orphans.length) {
        await bucket.delete(orphans);
        deleted += orphans.length;
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor && seen < maxObjects);
  return deleted;
}
