import { inArray } from 'drizzle-orm';
import { MAX_PHOTO_BYTES, MAX_TRADE_IN_PHOTOS } from '../../src/features/trade-ins/trade-in.ts';
import { detectImageType, readLimited } from '../admin/images.ts';
import type { Db } from '../db/client.ts';
import { tradeInPhotos } from '../db/schema.ts';
import { IMAGE_TYPES, UPLOADED_IMAGE_CSP } from '../images.ts';
import { ApiError } from '../lib/errors.ts';

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

/**
 * Reads a submission: multipart/form-data with a `request` part (the fields as JSON) and up to
 * MAX_TRADE_IN_PHOTOS `photos` parts, or plain JSON (the fields, no photos). The body is
 * counted as it streams and refused past MAX_SUBMISSION_BYTES.
 */
export async function readSubmission(request: Request): Promise<Submission> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  if (!multipart && !type.startsWith('application/json')) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Send the trade-in as multipart/form-data (a `request` part and `photos`) or as JSON without photos.',
    );
  }
  if (Number(request.headers.get('content-length') ?? '0') > MAX_SUBMISSION_BYTES) throw tooLarge();
  const bytes = await readLimited(request.body, MAX_SUBMISSION_BYTES);
  if (bytes === 'too_large') throw tooLarge();

  if (!multipart) return { fields: parseJson(new TextDecoder().decode(bytes)), photos: [] };

  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
  } catch {
    throw unreadable('The form could not be read: send it as multipart/form-data.');
  }
  const fieldsPart = form.get('request');
  if (fieldsPart === null) throw unreadable('The form is missing: send its fields as JSON in a `request` part.', 'request');
  const fields = parseJson(typeof fieldsPart === 'string' ? fieldsPart : await fieldsPart.text());

  const files = form.getAll('photos');
  if (files.length > MAX_TRADE_IN_PHOTOS) {
    throw new ApiError(400, 'invalid_request', `At most ${MAX_TRADE_IN_PHOTOS} photos.`, [
      { field: 'photos', message: `Choose at most ${MAX_TRADE_IN_PHOTOS} photos` },
    ]);
  }
  const photos: Photo[] = [];
  for (const [index, file] of files.entries()) {
    if (typeof file === 'string') throw unreadable('A photo must be a file.', `photos.${index}`);
    photos.push(await checkPhoto(file, index));
  }
  return { fields, photos };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw unreadable('The form’s fields are not valid JSON.');
  }
}

/** One photo: size, and type by its content (the declared type must agree). */
async function checkPhoto(file: File, index: number): Promise<Photo> {
  const field = `photos.${index}`;
  const name = `Photo ${index + 1}${file.name ? ` (${file.name.slice(0, 60)})` : ''}`;
  if (file.size === 0) throw new ApiError(400, 'invalid_request', `${name} is empty.`, [{ field, message: `${name} is empty` }]);
  if (file.size > MAX_PHOTO_BYTES) {
    throw new ApiError(413, 'payload_too_large', `${name} is larger than ${MB} MB.`, [
      { field, message: `${name} is larger than ${MB} MB` },
    ]);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const detected = detectImageType(bytes);
  const extension = PHOTO_EXTENSIONS.find((e) => e === detected);
  const refused = (message: string): never => {
    throw new ApiError(415, 'unsupported_image', `${name}: ${message}.`, [{ field, message: `${name}: ${message}` }]);
  };
  if (!extension) return refused('not a JPEG, PNG or WebP photo');
  const contentType = IMAGE_TYPES[extension];
  const declared = file.type.toLowerCase();
  if (declared && declared !== contentType && !(extension === 'jpg' && declared === 'image/jpg')) {
    return refused(`its content is ${contentType} but it was sent as ${declared}`);
  }
  return { bytes, extension, contentType };
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
