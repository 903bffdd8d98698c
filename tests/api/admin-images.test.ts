import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveUploadedImage } from '../../functions/catalogue/uploads.ts';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { UPLOADED_IMAGE_PATTERN } from '../../src/features/catalogue/product.ts';
import type { Browser } from './account-helpers.ts';
import { signedInAdmin, signedInCustomer } from './admin-helpers.ts';
import { api, type ErrorJson } from './client.ts';

// functions/worker.ts hands /images/uploads/* to serveUploadedImage() before the Astro adapter;
// the adapter needs the site's build (and vi.mock is not available in this pool), so these tests
// call that function with the Worker's own R2 binding, as worker.ts does.

/**
 * Image uploads (POST /api/admin/images, functions/catalogue/admin-images.ts) into this file's local R2
 * bucket, and serving them through the Worker (functions/catalogue/uploads.ts).
 */

let admin: { browser: Browser; email: string; id: string };
beforeAll(async () => {
  admin = await signedInAdmin();
});

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A 1×1 PNG. */
const PNG = fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==');
/** A JPEG's start of image and JFIF header, then its end. */
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff,
  0xd9,
]);
/** A 1×1 lossless WebP. */
const WEBP = fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
/** An SVG with an XML declaration, a comment and a doctype before its root, and an in-file reference. */
const SVG = utf8(`<?xml version="1.0" encoding="UTF-8"?>
<!-- a one-pixel icon -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1" height="1">
  <defs><rect id="dot" width="1" height="1" style="fill: #0a0"/></defs>
  <use xlink:href="#dot"/>
</svg>`);

function upload(body: BodyInit | null, contentType?: string, browser = admin.browser, headers: Record<string, string> = {}) {
  return browser.request('/api/admin/images', {
    method: 'POST',
    headers: { origin: browser.origin, ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    body,
  });
}

async function storedKeys(): Promise<string[]> {
  return (await env.IMAGES.list()).objects.map((o) => o.key).sort();
}

async function sha256(bytes: Uint8Array) {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An SVG put in R2 as the upload did before decision 018's amendment (2026-11-24); answers its URL. */
async function storedBeforeTheAmendment(bytes: Uint8Array) {
  const key = `${await sha256(bytes)}.svg`;
  await env.IMAGES.put(key, bytes, { httpMetadata: { contentType: 'image/svg+xml' } });
  return `/images/uploads/${key}`;
}

/** A request for an uploaded image, answered as the Worker answers it. */
function viaWorker(path: string, init: RequestInit = {}) {
  return serveUploadedImage(new Request(`http://localhost:8787${path}`, init), env.IMAGES);
}

async function expectRefused(response: Response, status: number) {
  expect(response.status).toBe(status);
  const { error } = (await response.json()) as ErrorJson;
  expect(error.issues?.map((i) => i.field)).toEqual(['file']);
  return error;
}

describe('POST /api/admin/images', () => {
  it.each([
    ['a PNG', PNG, 'image/png', 'png'],
    ['a JPEG', JPEG, 'image/jpeg', 'jpg'],
    ['a WebP', WEBP, 'image/webp', 'webp'],
    ['a JPEG declared with parameters', JPEG, 'image/jpeg; charset=binary', 'jpg'],
  ])('stores %s under the hash of its bytes', async (_name, bytes, declared, extension) => {
    const response = await upload(bytes, declared);
    expect(response.status, await response.clone().text()).toBe(201);
    const json = await response.json();
    const parsed = adminApi.uploadImage.response.parse(json);
    expect(parsed).toEqual(json);
    const key = `${await sha256(bytes)}.${extension}`;
    expect(parsed).toEqual({ url: `/images/uploads/${key}`, contentType: declared.split(';')[0], bytes: bytes.byteLength });
    expect(parsed.url).toMatch(UPLOADED_IMAGE_PATTERN);
    const stored = await env.IMAGES.get(key);
    expect(stored?.httpMetadata?.contentType).toBe(declared.split(';')[0]);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
    // Who put it there is in the audit trail.
    const audit = await env.DB.prepare(
      "select action, actor_email as by, changes from admin_audit where entity = 'image' and entity_id = ? order by id desc limit 1",
    )
      .bind(parsed.url)
      .first<{ action: string; by: string; changes: string }>();
    expect(audit).toMatchObject({ action: 'upload', by: admin.email });
    expect(JSON.parse(audit!.changes)).toEqual({
      contentType: { from: null, to: declared.split(';')[0] },
      bytes: { from: null, to: bytes.byteLength },
    });
  });

  it('the same file twice is one object at one URL', async () => {
    const bytes = new Uint8Array([...PNG, 0x74, 0x77, 0x69, 0x63, 0x65]);
    const before = await storedKeys();
    const first = (await (await upload(bytes, 'image/png')).json()) as { url: string };
    const second = (await (await upload(bytes, 'image/png')).json()) as { url: string };
    expect(second.url).toBe(first.url);
    const key = `${await sha256(bytes)}.png`;
    expect(before).not.toContain(key);
    expect(await storedKeys()).toEqual([...before, key].sort());
  });

  it.each([
    ['a PNG sent as a JPEG', PNG, 'image/jpeg'],
    ['a JPEG sent as an SVG', JPEG, 'image/svg+xml'],
    ['a PNG without a content-type', PNG, undefined],
    ['plain text', utf8('just some text, not an image'), 'image/png'],
    ['HTML sent as SVG', utf8('<!DOCTYPE html><html><body><svg></svg></body></html>'), 'image/svg+xml'],
    ['a GIF', utf8('GIF89a\u0001\u0000\u0001\u0000'), 'image/gif'],
  ])('refuses %s (415 naming file) and stores nothing', async (_name, bytes, declared) => {
    const before = await storedKeys();
    const error = await expectRefused(await upload(bytes, declared), 415);
    expect(error.code).toBe('unsupported_image');
    expect(await storedKeys()).toEqual(before);
  });

  it('refuses an empty body (400 naming file)', async () => {
    const before = await storedKeys();
    await expectRefused(await upload(new Uint8Array(0), 'image/png'), 400);
    expect(await storedKeys()).toEqual(before);
  });

  it('takes exactly 2 MB (far over the API’s 64 KB JSON limit) and refuses one byte more with 413 JSON', async () => {
    const before = await storedKeys();
    const max = new Uint8Array(2 * 1024 * 1024);
    max.set(PNG);
    const ok = await upload(max, 'image/png');
    expect(ok.status, await ok.clone().text()).toBe(201);
    expect(((await ok.json()) as { bytes: number }).bytes).toBe(max.byteLength);

    const over = new Uint8Array(2 * 1024 * 1024 + 1);
    over.set(PNG);
    const refused = await upload(over, 'image/png');
    expect((await expectRefused(refused, 413)).code).toBe('payload_too_large');
    expect(await storedKeys()).toEqual([...before, `${await sha256(max)}.png`].sort());
  });

  it('counts a streamed body with no length as it arrives: 2 MB + 1 in chunks is 413', async () => {
    const before = await storedKeys();
    const chunk = new Uint8Array(256 * 1024);
    chunk.set(PNG);
    let sent = 0;
    const total = 2 * 1024 * 1024 + 1;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const size = Math.min(chunk.byteLength, total - sent);
        controller.enqueue(sent === 0 ? chunk.slice(0, size) : new Uint8Array(size));
        sent += size;
      },
    });
    const response = await upload(body, 'image/png');
    await expectRefused(response, 413);
    expect(await storedKeys()).toEqual(before);
  });

  it.each([
    ['a <script> element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    [
      'a namespaced script',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>',
    ],
    ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>'],
    ['an event handler on a child', '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" onclick = "x()"/></svg>'],
    [
      'a <foreignObject>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject></svg>',
    ],
    [
      'a javascript: link',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect width="1" height="1"/></a></svg>',
    ],
    ['an external href', '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example.com/x.png"/></svg>'],
    [
      'an external xlink:href',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="other.svg#a"/></svg>',
    ],
    [
      'an entity declaration',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
    ],
  ])('refuses an SVG with %s (400 naming file, as any SVG) and stores nothing', async (_name, text) => {
    const before = await storedKeys();
    const error = await expectRefused(await upload(utf8(text), 'image/svg+xml'), 400);
    expect(error.code).toBe('unsafe_image');
    expect(await storedKeys()).toEqual(before);
  });

  describe('SVG is refused whatever it holds (issue 20, finding 9; decision 018)', () => {
    /** What D1 holds that an upload could write: the audit trail and the catalogue's images. */
    async function d1Rows() {
      return env.DB.prepare(
        'select (select count(*) from admin_audit) audit, (select count(*) from products) products, (select group_concat(image) from products) images',
      ).first();
    }

    it.each([
      [
        'an entity-encoded javascript: in an <animate> (the filter bypass)',
        '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="&#106;avascript:alert(document.domain)"/><rect width="10" height="10"/></a></svg>',
        'image/svg+xml',
      ],
      [
        'a hex-entity javascript: set on an <a> by <set>',
        '<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="href" to="&#x6a;avascript&#x3a;alert(1)"/><text y="20">tap</text></a></svg>',
        'image/svg+xml',
      ],
      ['a plain drawing', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><circle r="1"/></svg>', 'image/svg+xml'],
      ['an SVG with a declaration and a doctype', new TextDecoder().decode(SVG), 'image/svg+xml; charset=utf-8'],
      ['an SVG sent as a PNG', new TextDecoder().decode(SVG), 'image/png'],
    ])('refuses %s: 400 naming file, nothing in R2 or D1', async (_name, text, declared) => {
      const before = await storedKeys();
      const rows = await d1Rows();
      const error = await expectRefused(await upload(utf8(text), declared), 400);
      expect(error.code).toBe('unsafe_image');
      expect(error.message).toMatch(/SVG/);
      expect(error.message).toMatch(/JPEG, PNG or WebP/);
      expect(await storedKeys()).toEqual(before);
      expect(await d1Rows()).toEqual(rows);
    });
  });

  it('guests get 401, customers 403, a cross-site post 403; nothing is stored', async () => {
    const before = await storedKeys();
    expect((await api('/admin/images', { method: 'POST', headers: { 'content-type': 'image/png' }, body: PNG })).status).toBe(
      401,
    );
    const { browser } = await signedInCustomer();
    expect((await upload(PNG, 'image/png', browser)).status).toBe(403);
    expect((await upload(PNG, 'image/png', admin.browser, { origin: 'https://evil.example.com' })).status).toBe(403);
    expect(await storedKeys()).toEqual(before);
  });

  it('the 64 KB limit still holds for the rest of the admin API', async () => {
    const response = await admin.browser.post('/admin/products', { description: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
  });
});

describe('GET /images/uploads/<key>', () => {
  it.each([
    ['a PNG', PNG, 'image/png'],
    ['a JPEG', JPEG, 'image/jpeg'],
    ['a WebP', WEBP, 'image/webp'],
    ['an SVG uploaded before SVG was refused', SVG, 'image/svg+xml'],
  ])('serves %s with its type, a year of caching, nosniff and a sandboxing CSP; 304 for its ETag', async (_name, bytes, type) => {
    const url =
      type === 'image/svg+xml'
        ? await storedBeforeTheAmendment(bytes)
        : ((await (await upload(bytes, type)).json()) as { url: string }).url;
    const response = await viaWorker(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp.split(/;\s*/)).toEqual(["default-src 'none'", "style-src 'unsafe-inline'", 'sandbox']);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await viaWorker(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const otherTag = await viaWorker(url, { headers: { 'if-none-match': '"something-else"' } });
    expect(otherTag.status).toBe(200);
    await otherTag.arrayBuffer();
  });

  it.each([
    ['a key that is not a hash', '/images/uploads/logo.png'],
    ['an extension not uploaded', `/images/uploads/${'a'.repeat(64)}.gif`],
    ['a path below the key', `/images/uploads/${'a'.repeat(64)}.png/x`],
    ['a valid key nobody uploaded', `/images/uploads/${'b'.repeat(64)}.png`],
  ])('404 for %s', async (_name, path) => {
    const response = await viaWorker(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Not found');
  });

  it('only GET and HEAD', async () => {
    const { url } = (await (await upload(PNG, 'image/png')).json()) as { url: string };
    const response = await viaWorker(url, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(await env.IMAGES.head(url.split('/').at(-1)!)).not.toBeNull();
  });

  it('HEAD answers the headers without the body', async () => {
    const { url } = (await (await upload(PNG, 'image/png')).json()) as { url: string };
    const response = await viaWorker(url, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(await response.text()).toBe('');
  });
});
