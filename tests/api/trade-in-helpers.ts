import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { TradeInRequestInput, TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import { ADA } from '../fixtures/shopper.ts';
import { WORKING_DEVICE } from '../fixtures/trade-in.ts';
import { Browser, ORIGIN } from './account-helpers.ts';
import { PS5 } from './orders-helpers.ts';

/** A browser whose trade-in rate limit is out of the way (the tests of the limit set their own). */
export const shopper = () => new Browser(ORIGIN, { RATE_LIMIT_TRADE_IN: '10000/60' });

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
/** A 1×1 PNG and a 1×1 WebP, and a JPEG's start and end. */
export const PNG = fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==');
export const WEBP = fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
export const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff,
  0xd9,
]);

/** An iPhone sold for cash by Ada, with a fresh e-mail address unless given; `overrides` replace whole sections. */
export function tradeInFields(overrides: Partial<Record<keyof TradeInRequestInput, unknown>> = {}): TradeInRequestInput {
  return {
    device: { category: 'phones', brand: 'Apple', model: 'iPhone 12', storage: '128GB' },
    condition: { ...WORKING_DEVICE, notes: 'Small scratch on the back' },
    want: { kind: 'cash' },
    contact: { name: ADA.name, email: `ada-${crypto.randomUUID().slice(0, 8)}@example.com`, phone: ADA.phone, state: 'Lagos' },
    ...overrides,
  } as TradeInRequestInput;
}

/** A swap for a PlayStation 5 Slim (Disc Edition). */
export const SWAP_PS5 = { kind: 'swap', productId: PS5.id, variant: PS5.variant } as const;

export interface PhotoPart {
  bytes: Uint8Array;
  type: string;
  name?: string;
}

/**
 * Sends a request as the form does: multipart, the fields as JSON in `request`, the photos as
 * `photos`, with its Content-Length, as a browser sends a FormData (a Request built here has none).
 */
export async function postTradeIn(fields: unknown, photos: PhotoPart[] = [], browser = shopper()) {
  const form = new FormData();
  form.set('request', typeof fields === 'string' ? fields : JSON.stringify(fields));
  for (const [i, p] of photos.entries()) {
    form.append('photos', new File([p.bytes as Uint8Array<ArrayBuffer>], p.name ?? `photo-${i + 1}`, { type: p.type }));
  }
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return browser.request('/api/trade-ins', {
    method: 'POST',
    headers: {
      origin: browser.origin,
      'content-type': encoded.headers.get('content-type')!,
      'content-length': String(body.byteLength),
    },
    body,
  });
}

/** Submits a good request (with `photos`) and answers the stored view. */
export async function submitted(fields = tradeInFields(), photos: PhotoPart[] = [], browser = shopper()): Promise<TradeInView> {
  const response = await postTradeIn(fields, photos, browser);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { tradeIn: TradeInView }).tradeIn;
}

/** Counts of what a request leaves in D1 and R2, to check a refusal stored nothing. */
export async function stored() {
  const rows = await env.DB.prepare(
    'select (select count(*) from trade_ins) requests, (select count(*) from trade_in_photos) photos, (select count(*) from trade_in_events) events',
  ).first<{ requests: number; photos: number; events: number }>();
  const objects = (await env.IMAGES.list({ prefix: 'trade-ins/' })).objects.length;
  return { ...rows!, objects };
}
