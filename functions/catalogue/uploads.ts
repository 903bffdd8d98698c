import { UPLOADED_IMAGE_PATTERN } from '../../src/features/catalogue/product.ts';

/**
 * Images admins upload (functions/catalogue/admin-images.ts stores them in R2, the `IMAGES` binding),
 * served by the Worker at /images/uploads/<sha256>.<ext>. The name is the hash of the bytes,
 * so an answer never changes: browsers and the edge keep it for a year.
 */

/** Where uploaded images are served; Cloudflare's static assets have no file there, so the Worker answers. */
export const UPLOADS_PREFIX = '/images/uploads/';

/**
 * The types an upload is served as, by the extension its key gets. Uploads are raster images
 * only since 2026-11-24 (decision 018); SVGs uploaded before are still served, under
 * UPLOADED_IMAGE_CSP, so products that show one keep their picture.
 */
export const IMAGE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;
/** What an admin may upload now, and a trade-in photo may be. */
export type RasterExtension = Exclude<ImageExtension, 'svg'>;

/**
 * What an uploaded image may do when opened on its own (an SVG is a document): load nothing,
 * run nothing (`sandbox` also stops script that a policy's other directives would allow).
 * Inline styles stay allowed so an SVG's own style attributes still draw it.
 */
export const UPLOADED_IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function isUploadedImagePath(pathname: string): boolean {
  return pathname.startsWith(UPLOADS_PREFIX);
}

/**
 * GET or HEAD /images/uploads/<key>: the image from R2 with its type, a year of caching, its
 * ETag (304 for a matching If-None-Match), and headers that keep a browser from reading it as
 * anything else or running script in it. 404 for a key that is not an upload's or is missing.
 */
export async function serveUploadedImage(request: Request, bucket: R2Bucket): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD', ...PLAIN } });
  const { pathname } = new URL(request.url);
  if (!UPLOADED_IMAGE_PATTERN.test(pathname)) return notFound();
  const key = pathname.slice(UPLOADS_PREFIX.length);
  const extension = key.slice(key.lastIndexOf('.') + 1) as ImageExtension;

  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const head = await bucket.head(key);
    if (head === null) return notFound();
    if (etagMatches(ifNoneMatch, head.httpEtag))
      return new Response(null, { status: 304, headers: imageHeaders(head, extension) });
  }
  const object = await bucket.get(key);
  if (object === null) return notFound();
  const headers = imageHeaders(object, extension);
  headers.set('content-length', String(object.size));
  if (request.method === 'HEAD') {
    await object.body.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(object.body, { status: 200, headers });
}

const PLAIN = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };

function notFound(): Response {
  // Not cached: the image may be uploaded a moment later under that very name.
  return new Response('Not found', { status: 404, headers: { ...PLAIN, 'cache-control': 'no-store' } });
}

function imageHeaders(object: R2Object, extension: ImageExtension): Headers {
  const expected = IMAGE_TYPES[extension];
  // The type the upload was checked to be; the extension's when the stored one says otherwise.
  const stored = object.httpMetadata?.contentType;
  return new Headers({
    'content-type': stored === expected ? stored : expected,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'content-security-policy': UPLOADED_IMAGE_CSP,
    etag: object.httpEtag,
  });
}

/** If-None-Match against one ETag: `*`, or a list of tags (weak ones compare by their value). */
function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
