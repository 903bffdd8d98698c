import { MAX_PHOTO_BYTES, PHOTO_TYPES } from './trade-in-rules.ts';

/**
 * The trade-in form's photos: checked in the browser (type, size) with messages a shopper
 * can act on, and large ones made smaller before upload (a phone's 12-megapixel photo is
 * 3–8 MB; at 1600 px it is a few hundred KB, which matters on mobile data). The Worker
 * checks them again by content.
 */

/** The longest side a photo is sent at: enough to judge scratches and cracks. */
export const MAX_PHOTO_SIDE = 1600;
const JPEG_QUALITY = 0.85;
/** Below this, a photo small enough in pixels is sent as it is. */
const SMALL_ENOUGH_BYTES = 1024 * 1024;
const THUMBNAIL_SIDE = 160;

export interface PreparedPhoto {
  id: string;
  /** What is uploaded: the downscaled JPEG, or the shopper's file when it is small or could not be converted. */
  blob: Blob;
  name: string;
  /**
   * A small JPEG data: URL for the preview (the pages' CSP allows data: images, not blob:),
   * or null when the browser could not read the image.
   */
  thumbnail: string | null;
}

const MB = 1024 * 1024;
const maxMb = Math.round(MAX_PHOTO_BYTES / MB);

/** Why a chosen file cannot be sent before any work on it, or null. */
export function photoTypeProblem(file: File): string | null {
  return (PHOTO_TYPES as readonly string[]).includes(file.type)
    ? null
    : `“${file.name}” is not a JPEG, PNG or WebP photo. Please choose a photo in one of those formats.`;
}

function sizeProblem(photo: { blob: Blob; name: string }): string | null {
  return photo.blob.size > MAX_PHOTO_BYTES
    ? `“${photo.name}” is larger than ${maxMb} MB even after making it smaller. Please choose a smaller photo.`
    : null;
}

/**
 * Makes the photo ready to send: downscaled to MAX_PHOTO_SIDE as a JPEG when it is larger
 * (in pixels, or in bytes), with a thumbnail. If the browser cannot decode or re-encode it,
 * the original file is sent. Answers the photo, or the reason it cannot be sent.
 */
export async function preparePhoto(file: File): Promise<{ photo: PreparedPhoto } | { problem: string }> {
  const typeProblem = photoTypeProblem(file);
  if (typeProblem) return { problem: typeProblem };
  const id = crypto.randomUUID();
  let bitmap: ImageBitmap | null = null;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // Not decodable here (a damaged file, an old browser): send it as it is; the Worker judges it.
  }
  if (!bitmap) {
    const photo = { id, blob: file, name: file.name, thumbnail: null };
    const problem = sizeProblem(photo);
    return problem ? { problem } : { photo };
  }
  try {
    const thumbnail = drawScaled(bitmap, THUMBNAIL_SIDE)?.toDataURL('image/jpeg', 0.7) ?? null;
    const longest = Math.max(bitmap.width, bitmap.height);
    let blob: Blob = file;
    let name = file.name;
    if (longest > MAX_PHOTO_SIDE || file.size > SMALL_ENOUGH_BYTES) {
      const smaller = await toJpeg(drawScaled(bitmap, MAX_PHOTO_SIDE));
      if (smaller && smaller.size < file.size) {
        blob = smaller;
        name = `${file.name.replace(/\.[^.]*$/, '') || 'photo'}.jpg`;
      }
    }
    const photo = { id, blob, name, thumbnail };
    const problem = sizeProblem(photo);
    return problem ? { problem } : { photo };
  } finally {
    bitmap.close();
  }
}

/** The image on a canvas, its longest side at most `side` px, on white (a PNG's transparency would turn black as JPEG). */
function drawScaled(bitmap: ImageBitmap, side: number): HTMLCanvasElement | null {
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return canvas;
}

function toJpeg(canvas: HTMLCanvasElement | null): Promise<Blob | null> {
  if (!canvas) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      canvas.toBlob((blob) => resolve(blob), 'image/jpeg', JPEG_QUALITY);
    } catch {
      resolve(null);
    }
  });
}
