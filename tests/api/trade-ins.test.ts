import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBMISSION_BYTES, sweepOrphanPhotos } from '../../functions/trade-ins/photos.ts';
import { UPLOAD_BUDGET_BYTES, UPLOAD_RETRY_AFTER_SECONDS, uploadBytesHeld } from '../../functions/platform/upload-budget.ts';
import { MAX_PHOTO_BYTES, MAX_TRADE_IN_PHOTOS } from '../../src/features/trade-ins/trade-in-rules.ts';
import { conditionSummary } from '../../src/features/trade-ins/trade-in-text.ts';
import { openDb } from '../../functions/platform/db.ts';
import type { AdminTradeInDetail } from '../../src/features/trade-ins/admin/admin-trade-in-api.ts';
import type { PlacedOrder } from '../../src/features/orders/order-view.ts';
import type { TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import { Browser, emailsTo, linkToken, newEmail, ORIGIN, signedInUser } from './account-helpers.ts';
import { signedInAdmin, signedInCustomer } from './admin-helpers.ts';
import { bodyThatStops, type ErrorJson } from './client.ts';
import { makeOverdue, newKey, PS5, rowCounts, setPrice, SHIPPING } from './orders-helpers.ts';
import { JPEG, PNG, postTradeIn, shopper, stored, submitted, SWAP_PS5, tradeInFields, WEBP } from './trade-in-helpers.ts';

/**
 * Trade-in requests (issue 14): sending one with photos, finding it again, the admin's queue
 * and moves, the shopper's answer to an offer, and an accepted swap turned into an order.
 */

let admin: Browser;
beforeAll(async () => {
  admin = (await signedInAdmin()).browser;
});

async function detail(reference: string): Promise<AdminTradeInDetail> {
  const response = await admin.get(`/admin/trade-ins/${reference}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AdminTradeInDetail;
}

/** An admin's move on the version the admin just loaded. */
async function move(reference: string, body: Record<string, unknown>, browser = admin) {
  const { version } = await detail(reference);
  return browser.post(`/admin/trade-ins/${reference}/move`, { version, ...body });
}

async function moved(reference: string, body: Record<string, unknown>): Promise<AdminTradeInDetail> {
  const response = await move(reference, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AdminTradeInDetail;
}

async function refusal(response: Response, status: number): Promise<ErrorJson['error']> {
  expect(response.status, await response.clone().text()).toBe(status);
  return ((await response.json()) as ErrorJson).error;
}

const lookup = (reference: string, email: string, browser = shopper()) => browser.post('/trade-ins/lookup', { reference, email });

/** A swap request with an offer made (₦300,000), answered by nobody yet. */
async function swapWithOffer(fields = tradeInFields({ want: SWAP_PS5 })) {
  const tradeIn = await submitted(fields);
  await moved(tradeIn.reference, { move: 'offer', offerNaira: 300_000, note: 'Good condition' });
  return { tradeIn, email: fields.contact.email as string };
}

describe('sending a request', () => {
  it('a console has no battery, and says so', async () => {
    const fields = tradeInFields({
      device: { category: 'consoles', brand: 'Sony', model: 'PlayStation 4 Pro', storage: '1TB' },
      condition: { ...tradeInFields().condition, batteryHealth: 'none' },
    });
    const tradeIn = await submitted(fields);
    expect(tradeIn.condition.batteryHealth).toBe('none');
    expect(conditionSummary(tradeIn.condition).at(-1)).toEqual({ label: 'Battery health', value: 'It has no battery' });
  });

  it('stores a cash request with its photos, answers a TRD- reference and e-mails a confirmation', async () => {
    const fields = tradeInFields();
    const tradeIn = await submitted(fields, [
      { bytes: PNG, type: 'image/png', name: 'front.png' },
      { bytes: JPEG, type: 'image/jpeg', name: 'back.jpg' },
    ]);
    expect(tradeIn.reference).toMatch(/^TRD-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(tradeIn).toMatchObject({
      status: 'new',
      device: { category: 'phones', brand: 'Apple', model: 'iPhone 12', storage: '128GB' },
      condition: { turnsOn: true, screenCracked: false, batteryHealth: 'good', notes: 'Small scratch on the back' },
      want: { kind: 'cash' },
      photos: 2,
      contact: { name: 'Ada Obi', email: fields.contact.email, phone: '+2348031234567', state: 'Lagos' },
      offer: null,
      canRespond: false,
      canOrder: false,
    });
    const row = await env.DB.prepare('select * from trade_ins where reference = ?')
      .bind(tradeIn.reference)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({ status: 'new', user_id: null, want_kind: 'cash', screen_cracked: 0, turns_on: 1 });
    const photos = await env.DB.prepare(
      'select key, content_type, bytes from trade_in_photos where trade_in_id = ? order by position',
    )
      .bind(row!.id)
      .all<{ key: string; content_type: string; bytes: number }>();
    expect(photos.results.map((p) => [p.content_type, p.bytes])).toEqual([
      ['image/png', PNG.byteLength],
      ['image/jpeg', JPEG.byteLength],
    ]);
    for (const p of photos.results) expect(await env.IMAGES.head(p.key)).not.toBeNull();

    const [email] = await emailsTo(fields.contact.email as string);
    expect(email!.kind).toBe('trade_in_received');
    expect(email!.text).toContain(tradeIn.reference);
    expect(email!.text).toContain(`/sell-or-swap/status?ref=${tradeIn.reference}`);
    // The model is the shopper's own text: e-mails name the device by brand and category only.
    expect(email!.text).not.toContain('iPhone 12');
    expect(email!.text).toContain('Apple device (Phones)');
  });

  it('takes JSON without photos, and a swap names the product, its variant and its price now', async () => {
    const fields = tradeInFields({ want: SWAP_PS5 });
    const response = await shopper().post('/trade-ins', fields);
    expect(response.status, await response.clone().text()).toBe(201);
    const { tradeIn } = (await response.json()) as { tradeIn: TradeInView };
    expect(tradeIn.photos).toBe(0);
    expect(tradeIn.want).toEqual({
      kind: 'swap',
      productId: PS5.id,
      variant: PS5.variant,
      name: 'Sony PlayStation 5 Slim',
      variantLabel: PS5.variantLabel,
      price: PS5.price,
    });
  });

  it('a signed-in shopper’s request belongs to the account and is listed there, for them only', async () => {
    const owner = await signedInCustomer();
    owner.browser.vars.RATE_LIMIT_TRADE_IN = '10000/60';
    const tradeIn = await submitted(tradeInFields(), [], owner.browser);
    const row = await env.DB.prepare('select user_id from trade_ins where reference = ?').bind(tradeIn.reference).first();
    expect(row).toEqual({ user_id: owner.id });
    const mine = (await (await owner.browser.get('/account/trade-ins')).json()) as { tradeIns: TradeInView[] };
    expect(mine.tradeIns.map((t) => t.reference)).toEqual([tradeIn.reference]);
    const other = await signedInCustomer();
    const theirs = (await (await other.browser.get('/account/trade-ins')).json()) as { tradeIns: TradeInView[] };
    expect(theirs.tradeIns).toEqual([]);
    expect((await new Browser().get('/account/trade-ins')).status).toBe(401);
  });

  it('a guest’s request joins the account once its address is verified', async () => {
    const email = newEmail('guest-then-account');
    const tradeIn = await submitted(tradeInFields({ contact: { name: 'Ada Obi', email, phone: '08031234567', state: 'Oyo' } }));
    const browser = new Browser();
    const up = await browser.post('/account/sign-up', { email, password: 'correct horse battery' });
    expect(up.status).toBe(202);
    // Proving the address takes the account's password too (issue 20, finding 1).
    const token = await linkToken(email, 'verify');
    expect((await browser.post('/account/verify-email', { token, password: 'correct horse battery' })).status).toBe(200);
    expect((await browser.post('/account/sign-in', { email, password: 'correct horse battery' })).status).toBe(200);
    const mine = (await (await browser.get('/account/trade-ins')).json()) as { tradeIns: TradeInView[] };
    expect(mine.tradeIns.map((t) => t.reference)).toEqual([tradeIn.reference]);
  });

  const device = tradeInFields().device;
  const condition = tradeInFields().condition;
  const contact = tradeInFields().contact;
  it.each([
    ['device.category', { device: { ...device, category: 'fridges' } }],
    ['device.brand', { device: { ...device, brand: 'Nokla' } }],
    ['device.model', { device: { ...device, model: '' } }],
    ['device.model', { device: { ...device, model: 'iPhone\n12' } }],
    ['device.model', { device: { ...device, model: 'x'.repeat(81) } }],
    ['device.storage', { device: { ...device, storage: '<b>128</b>' } }],
    ['condition.turnsOn', { condition: { ...condition, turnsOn: undefined } }],
    ['condition.screenCracked', { condition: { ...condition, screenCracked: 'no' } }],
    ['condition.bodyDents', { condition: { ...condition, bodyDents: null } }],
    ['condition.batteryHealth', { condition: { ...condition, batteryHealth: '100%' } }],
    ['condition.accountRemoved', { condition: { ...condition, accountRemoved: undefined } }],
    ['condition.originalBox', { condition: { ...condition, originalBox: 1 } }],
    ['condition.notes', { condition: { ...condition, notes: 'x'.repeat(501) } }],
    ['want.kind', { want: { kind: 'barter' } }],
    ['want.productId', { want: { kind: 'swap', productId: 'Not An Id' } }],
    ['want.productId', { want: { kind: 'swap', productId: 'no-such-product', variant: '' } }],
    ['want.variant', { want: { kind: 'swap', productId: PS5.id, variant: '' } }],
    ['want.variant', { want: { kind: 'swap', productId: PS5.id, variant: 'gold-edition' } }],
    ['contact.name', { contact: { ...contact, name: 'A' } }],
    ['contact.email', { contact: { ...contact, email: 'not-an-address' } }],
    ['contact.phone', { contact: { ...contact, phone: '+44 20 7946 0958' } }],
    ['contact.state', { contact: { ...contact, state: 'Texas' } }],
  ])('refuses a bad %s with a 400 naming it, and stores nothing', async (field, override) => {
    const before = await stored();
    const error = await refusal(await postTradeIn(tradeInFields(override), [{ bytes: PNG, type: 'image/png' }]), 400);
    expect(error.code).toBe('invalid_request');
    expect(error.issues?.map((i) => i.field)).toContain(field);
    expect(await stored()).toEqual(before);
  });

  it('refuses a form that is not JSON, a missing `request` part, and another content type', async () => {
    expect((await refusal(await postTradeIn('{not json'), 400)).message).toContain('not valid JSON');
    const empty = new FormData();
    const missing = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { origin: 'http://localhost:8787' },
      body: empty,
    });
    expect((await refusal(missing, 400)).issues?.[0]?.field).toBe('request');
    const text = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { origin: 'http://localhost:8787', 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect((await refusal(text, 415)).code).toBe('unsupported_media_type');
  });
});

describe('photos', () => {
  const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
  const big = (n: number) => {
    const bytes = new Uint8Array(n);
    bytes.set(JPEG.subarray(0, 4));
    return bytes;
  };

  it.each([
    ['five photos', 400, 'photos', Array.from({ length: 5 }, () => ({ bytes: PNG, type: 'image/png' }))],
    ['an SVG', 415, 'photos.0', [{ bytes: SVG, type: 'image/svg+xml' }]],
    [
      'a text file called .jpg',
      415,
      'photos.1',
      [
        { bytes: PNG, type: 'image/png' },
        { bytes: new TextEncoder().encode('hello'), type: 'image/jpeg' },
      ],
    ],
    ['a PNG sent as a JPEG', 415, 'photos.0', [{ bytes: PNG, type: 'image/jpeg' }]],
    ['an empty file', 400, 'photos.0', [{ bytes: new Uint8Array(0), type: 'image/png' }]],
    ['a photo over 2 MB', 413, 'photos.0', [{ bytes: big(MAX_PHOTO_BYTES + 1), type: 'image/jpeg' }]],
  ])('refuses %s (%i, naming %s) and stores nothing', async (_, status, field, photos) => {
    const before = await stored();
    const error = await refusal(await postTradeIn(tradeInFields(), photos), status);
    expect(error.issues?.map((i) => i.field)).toContain(field);
    expect(await stored()).toEqual(before);
  });

  it('refuses a body over the whole limit as it streams', async () => {
    const before = await stored();
    // Every part within its own limit, the body past the whole: a megabyte more junk than that before the first part.
    const boundary = '----gts-padded';
    const junk = new Uint8Array(256 * 1024).fill(0x61);
    const form = new TextEncoder().encode(
      `\r\n--${boundary}\r\ncontent-disposition: form-data; name="request"\r\n\r\n${JSON.stringify(tradeInFields())}\r\n--${boundary}--\r\n`,
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MAX_SUBMISSION_BYTES + 1024 * 1024) {
          controller.enqueue(form);
          return controller.close();
        }
        controller.enqueue(junk);
        sent += junk.byteLength;
      },
    });
    const response = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { origin: 'http://localhost:8787', 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const error = await refusal(response, 413);
    expect(error.code).toBe('payload_too_large');
    expect(await stored()).toEqual(before);
  });

  it('answers a body that stops arriving mid-upload (the sender went away) as the sender’s: 400, nothing stored, its budget given back', async () => {
    const before = await stored();
    const boundary = '----gts-gone';
    const body = bodyThatStops(
      `--${boundary}\r\ncontent-disposition: form-data; name="request"\r\n\r\n${JSON.stringify(tradeInFields())}\r\n`,
    );
    const response = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { origin: 'http://localhost:8787', 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const error = await refusal(response, 400);
    expect(error.code).toBe('upload_interrupted');
    expect(await stored()).toEqual(before);
    expect(uploadBytesHeld()).toBe(0);
  });

  it('refuses a fifth large photo at its headers, before its bytes (400 naming photos)', async () => {
    const before = await stored();
    // The whole body within its limit, so it is the fifth photo's headers that are refused.
    const photos = Array.from({ length: 4 }, () => ({ bytes: big(1536 * 1024), type: 'image/jpeg' }));
    photos.push({ bytes: big(512 * 1024), type: 'image/jpeg' });
    const error = await refusal(await postTradeIn(tradeInFields(), photos), 400);
    expect(error.issues?.map((i) => i.field)).toEqual(['photos']);
    expect(await stored()).toEqual(before);
  });

  it("holds at most the isolate's upload budget: past it a form is told 503 busy with Retry-After, and the forms held still land", async () => {
    const before = await stored();
    // Slow senders, as an attacker with many addresses would be: each sends its fields, then waits,
    // and declares no length, so each holds the most a form may bring.
    const boundary = '----gts-slow-sender';
    const encoder = new TextEncoder();
    const slowSender = () => {
      let finish!: () => void;
      let waiting!: () => void;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const reading = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (++pulls === 1) {
            controller.enqueue(
              encoder.encode(
                `--${boundary}\r\ncontent-disposition: form-data; name="request"\r\n\r\n${JSON.stringify(tradeInFields())}\r\n`,
              ),
            );
            return;
          }
          waiting(); // the Worker read the fields and asks for more: its bytes are held
          await finished;
          controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
          controller.close();
        },
      });
      const response = shopper().request('/api/trade-ins', {
        method: 'POST',
        headers: { origin: 'http://localhost:8787', 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      return { finish, reading, response };
    };
    const fit = Math.floor(UPLOAD_BUDGET_BYTES / MAX_SUBMISSION_BYTES);
    // A shopper's full form: 4 photos of the largest size.
    const fullForm = Array.from({ length: MAX_TRADE_IN_PHOTOS }, () => ({ bytes: big(MAX_PHOTO_BYTES), type: 'image/jpeg' }));
    /** The full form beside the slow ones is told to wait; a small one still fits, since a form holds what it declares. */
    async function fullFormIsToldToWait() {
      expect(MAX_TRADE_IN_PHOTOS * MAX_PHOTO_BYTES).toBeGreaterThan(UPLOAD_BUDGET_BYTES - fit * MAX_SUBMISSION_BYTES);
      const busy = await postTradeIn(tradeInFields(), fullForm);
      expect(busy.headers.get('retry-after')).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));
      const error = await refusal(busy, 503);
      expect(error.code).toBe('busy');
      expect(error.message).toMatch(/wait \d+ seconds and send the form again; nothing was saved/);
      // What it declares is what it holds: a small form still fits.
      const small = await submitted(tradeInFields(), [{ bytes: PNG, type: 'image/png' }]);
      expect(small.photos).toBe(1);
    }
    const senders = Array.from({ length: fit }, slowSender);
    try {
      await Promise.all(senders.map((s) => s.reading));
      await fullFormIsToldToWait();
    } finally {
      // The slow forms end and land; their bytes are given back, and the full form is taken.
      for (const sender of senders) sender.finish();
    }
    for (const sender of senders) expect((await sender.response).status).toBe(201);
    expect((await submitted(tradeInFields(), fullForm)).photos).toBe(MAX_TRADE_IN_PHOTOS);
    const after = await stored();
    expect(after.requests - before.requests).toBe(fit + 2);
    expect(after.objects - before.objects).toBe(1 + MAX_TRADE_IN_PHOTOS);
  });

  it('takes JPEG, PNG and WebP, and serves each to admins only, with its type', async () => {
    const tradeIn = await submitted(tradeInFields(), [
      { bytes: JPEG, type: 'image/jpeg' },
      { bytes: PNG, type: 'image/png' },
      { bytes: WEBP, type: 'image/webp' },
    ]);
    const { photos } = await detail(tradeIn.reference);
    expect(photos.map((p) => p.contentType)).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    const second = await admin.request(photos[1]!.url);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('image/png');
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(PNG);
    expect((await (await signedInCustomer()).browser.request(photos[1]!.url)).status).toBe(403);
    expect((await new Browser().request(photos[1]!.url)).status).toBe(401);
    expect((await admin.get(`/admin/trade-ins/${tradeIn.reference}/photos/4`)).status).toBe(404);
  });

  it('a request whose row cannot be written leaves no photos behind', async () => {
    const before = await stored();
    // The D1 batch fails after the photos reached R2 (a stand-in for D1 refusing the write).
    await env.DB.exec(
      "CREATE TRIGGER refuse_trade_in BEFORE INSERT ON trade_in_events BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    try {
      const response = await postTradeIn(tradeInFields(), [{ bytes: PNG, type: 'image/png' }]);
      expect(response.status).toBe(500);
    } finally {
      await env.DB.exec('DROP TRIGGER refuse_trade_in');
    }
    expect(await stored()).toEqual(before);
  });

  it('the cron deletes photos no request names once they are an hour old, and keeps the others', async () => {
    const tradeIn = await submitted(tradeInFields(), [{ bytes: PNG, type: 'image/png' }]);
    await env.IMAGES.put('trade-ins/crashed-request/1.png', PNG);
    const db = openDb(env.DB);
    expect(await sweepOrphanPhotos(db, env.IMAGES, new Date())).toBe(0);
    expect(await sweepOrphanPhotos(db, env.IMAGES, new Date(Date.now() + 2 * 3600_000))).toBe(1);
    expect(await env.IMAGES.head('trade-ins/crashed-request/1.png')).toBeNull();
    const { photos } = await detail(tradeIn.reference);
    expect((await admin.request(photos[0]!.url)).status).toBe(200);
  });
});

describe('finding a request again', () => {
  it('by reference and e-mail (any case, spaces around); a wrong pair and an unknown reference get the same 404', async () => {
    const fields = tradeInFields();
    const tradeIn = await submitted(fields);
    const email = fields.contact.email as string;
    const found = await lookup(` ${tradeIn.reference.toLowerCase()} `, email.toUpperCase());
    expect(found.status).toBe(200);
    expect(((await found.json()) as { tradeIn: TradeInView }).tradeIn).toEqual(tradeIn);
    const wrong = await refusal(await lookup(tradeIn.reference, 'someone.else@example.com'), 404);
    const unknown = await refusal(await lookup('TRD-0000000000', email), 404);
    expect(wrong).toEqual(unknown);
    expect((await refusal(await lookup('GTS-0000000000', email), 400)).issues?.[0]?.field).toBe('reference');
  });

  it('a reference tried with wrong e-mails from many client addresses: past RATE_LIMIT_LOOKUP_ORDER its lookups wait; its owner signed in does not', async () => {
    const vars = { RATE_LIMIT_TRADE_IN: '10000/60', RATE_LIMIT_LOOKUP: '1000/60', RATE_LIMIT_LOOKUP_ORDER: '3/3600' };
    const owner = new Browser(ORIGIN, vars, '203.0.113.90');
    const email = newEmail();
    await signedInUser(owner, email);
    const fields = tradeInFields({ contact: { ...tradeInFields().contact, email } });
    const tradeIn = await submitted(fields, [], owner);
    const from = (n: number) => new Browser(ORIGIN, vars, `198.51.100.${100 + n}`);
    // The right address's lookup is taken back: it never uses up the allowance.
    for (let n = 0; n < 5; n++) expect((await lookup(tradeIn.reference, email, from(n))).status).toBe(200);
    for (let n = 0; n < 3; n++) await refusal(await lookup(tradeIn.reference, `guess${n}@example.com`, from(n)), 404);
    const waiting = await lookup(tradeIn.reference, 'guess9@example.com', from(9));
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await waiting.json()) as ErrorJson).error.code).toBe('rate_limited');
    // The right address waits too now (a guesser must not learn it by the answer changing)…
    expect((await lookup(tradeIn.reference, email, from(10))).status).toBe(429);
    // …while its owner, signed in, is still let through (the account is its proof): to the
    // state machine's answer, as no offer was made yet.
    const answered = await owner.post(`/trade-ins/${tradeIn.reference}/respond`, { decision: 'decline', offer: 100 });
    expect(answered.status).toBe(409);
    expect(((await answered.json()) as ErrorJson).error.code).not.toBe('rate_limited');
  });
});

describe('the admin queue', () => {
  it('lists requests newest first with counts, filters by status, and searches', async () => {
    const fields = tradeInFields({ device: { category: 'laptops', brand: 'Dell', model: 'XPS 13 Queue', storage: '512GB' } });
    const first = await submitted(fields);
    const second = await submitted(tradeInFields({ want: SWAP_PS5 }));
    await moved(first.reference, { move: 'contact', note: 'Called, will send photos' });

    const all = (await (await admin.get('/admin/trade-ins')).json()) as {
      tradeIns: { reference: string }[];
      counts: Record<string, number>;
    };
    const refs = all.tradeIns.map((t) => t.reference);
    expect(refs.indexOf(second.reference)).toBeLessThan(refs.indexOf(first.reference));
    expect(all.counts.contacted).toBeGreaterThanOrEqual(1);

    const contacted = (await (await admin.get('/admin/trade-ins?status=contacted')).json()) as {
      tradeIns: { reference: string; status: string; device: string }[];
    };
    expect(contacted.tradeIns.every((t) => t.status === 'contacted')).toBe(true);
    expect(contacted.tradeIns.find((t) => t.reference === first.reference)?.device).toBe('Dell XPS 13 Queue 512GB');

    const search = (await (await admin.get('/admin/trade-ins?q=xps 13 queue')).json()) as { tradeIns: { reference: string }[] };
    expect(search.tradeIns.map((t) => t.reference)).toEqual([first.reference]);
    const byRef = (await (await admin.get(`/admin/trade-ins?q=${second.reference.slice(4, 10)}`)).json()) as {
      tradeIns: { reference: string; swapFor: string }[];
    };
    expect(byRef.tradeIns[0]).toMatchObject({ reference: second.reference, swapFor: 'Sony PlayStation 5 Slim (Disc Edition)' });
    expect((await refusal(await admin.get('/admin/trade-ins?status=lost'), 400)).issues?.[0]?.field).toBe('status');
  });

  it('a swap’s offer shows the product’s price now and the difference to pay', async () => {
    const { tradeIn } = await swapWithOffer();
    const { tradeIn: view } = await detail(tradeIn.reference);
    expect(view.offer?.amount).toBe(30_000_000);
    expect(view.want).toMatchObject({ kind: 'swap', price: PS5.price });
    expect(view.difference).toBe(PS5.price - 30_000_000);
  });

  it('moves along the legal path, e-mailing the shopper and writing the audit trail at each move', async () => {
    const fields = tradeInFields();
    const { reference } = await submitted(fields);
    const email = fields.contact.email as string;
    await moved(reference, { move: 'contact', note: 'Called on WhatsApp' });
    const offered = await moved(reference, { move: 'offer', offerNaira: 250_000.5, note: 'Battery at 85%' });
    expect(offered.tradeIn).toMatchObject({
      status: 'offer_made',
      offer: { amount: 25_000_050, note: 'Battery at 85%' },
      canRespond: true,
    });
    const accepted = await shopper().post(`/trade-ins/${reference}/respond`, { email, decision: 'accept', offer: 25_000_050 });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const done = await moved(reference, { move: 'complete', note: 'Paid by transfer' });
    expect(done.tradeIn.status).toBe('completed');
    expect(done.history.map((h) => [h.from, h.to, h.actor])).toEqual([
      [null, 'new', 'customer'],
      ['new', 'contacted', 'admin'],
      ['contacted', 'offer_made', 'admin'],
      ['offer_made', 'accepted', 'customer'],
      ['accepted', 'completed', 'admin'],
    ]);
    expect(done.history[1]).toMatchObject({ note: 'Called on WhatsApp', by: expect.stringContaining('@example.com') });
    expect(done.audit.map((a) => a.action)).toEqual(['complete', 'offer', 'contact']);
    expect(done.audit[1]!.changes).toMatchObject({
      status: { from: 'contacted', to: 'offer_made' },
      offer: { from: null, to: 25_000_050 },
    });
    expect((await emailsTo(email)).map((e) => e.kind)).toEqual([
      'trade_in_received',
      'trade_in_contacted',
      'trade_in_offer_made',
      'trade_in_accepted',
      'trade_in_completed',
    ]);
    const offerMail = (await emailsTo(email))[2]!;
    expect(offerMail.subject).toContain('₦250,000.50');
    expect(offerMail.text).toContain('Battery at 85%');
    // Completed is final.
    expect((await refusal(await move(reference, { move: 'close', note: 'Too late' }), 409)).code).toBe('illegal_transition');
  });

  it.each([
    ['complete a new request', [], { move: 'complete' }],
    ['contact a request with an offer', [{ move: 'offer', offerNaira: 1000 }], { move: 'contact' }],
    ['complete an offer nobody accepted', [{ move: 'offer', offerNaira: 1000 }], { move: 'complete' }],
    ['offer on a closed request', [{ move: 'close', note: 'Duplicate request' }], { move: 'offer', offerNaira: 1000 }],
  ])('refuses to %s (409 illegal_transition), changing nothing', async (_, before, body) => {
    const { reference } = await submitted();
    for (const step of before) await moved(reference, step);
    const was = await detail(reference);
    expect((await refusal(await move(reference, body), 409)).code).toBe('illegal_transition');
    expect(await detail(reference)).toEqual(was);
  });

  it('a declined offer can be revised, and a request can be closed with a reason (required)', async () => {
    const { tradeIn, email } = await swapWithOffer();
    const declined = await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, {
      email,
      decision: 'decline',
      offer: 30_000_000,
    });
    expect(declined.status).toBe(200);
    const revised = await moved(tradeIn.reference, { move: 'offer', offerNaira: 320_000 });
    expect(revised.tradeIn.offer?.amount).toBe(32_000_000);
    const noReason = await refusal(await move(tradeIn.reference, { move: 'close' }), 400);
    expect(noReason.issues?.map((i) => i.field)).toContain('note');
    const closed = await moved(tradeIn.reference, { move: 'close', note: 'Shopper sold it elsewhere' });
    expect(closed.tradeIn.status).toBe('closed');
    expect((await emailsTo(email)).at(-1)!.text).toContain('Why: Shopper sold it elsewhere');
  });

  it('refuses an accept or decline from the admin API (not an admin move), a swap offer at or above the price, and a stale version', async () => {
    const { reference } = await submitted(tradeInFields({ want: SWAP_PS5 }));
    expect((await refusal(await move(reference, { move: 'accept' }), 400)).issues?.[0]?.field).toBe('move');
    const tooMuch = await refusal(await move(reference, { move: 'offer', offerNaira: PS5.price / 100 }), 400);
    expect(tooMuch.issues?.[0]).toMatchObject({ field: 'offerNaira', message: expect.stringContaining('₦849,000') });
    expect((await refusal(await move(reference, { move: 'offer', offerNaira: 0 }), 400)).issues?.[0]?.field).toBe('offerNaira');

    const { version } = await detail(reference);
    await moved(reference, { move: 'contact' });
    const stale = await admin.post(`/admin/trade-ins/${reference}/move`, { version, move: 'close', note: 'Old tab' });
    expect((await refusal(stale, 409)).code).toBe('trade_in_changed');
    expect((await detail(reference)).tradeIn.status).toBe('contacted');
  });

  it('two admins moving at once: one wins, the other gets 409, and only one move is stored', async () => {
    const { reference } = await submitted();
    const { version } = await detail(reference);
    const [a, b] = await Promise.all([
      admin.post(`/admin/trade-ins/${reference}/move`, { version, move: 'contact' }),
      admin.post(`/admin/trade-ins/${reference}/move`, { version, move: 'close', note: 'Duplicate' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const { history, audit } = await detail(reference);
    expect(history).toHaveLength(2);
    expect(audit).toHaveLength(1);
  });
});

describe('the shopper’s answer to an offer', () => {
  it('is refused to anyone but the requester: a wrong e-mail, another account, no proof', async () => {
    const { tradeIn } = await swapWithOffer();
    const body = { decision: 'accept', offer: 30_000_000 };
    const wrong = await refusal(
      await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, { ...body, email: 'x@example.com' }),
      404,
    );
    expect(wrong.code).toBe('trade_in_not_found');
    const other = await signedInCustomer();
    await refusal(await other.browser.post(`/trade-ins/${tradeIn.reference}/respond`, body), 404);
    await refusal(await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, body), 404);
    expect((await detail(tradeIn.reference)).tradeIn.status).toBe('offer_made');
  });

  it('the signed-in owner answers from the account without the e-mail', async () => {
    const owner = await signedInCustomer();
    owner.browser.vars.RATE_LIMIT_TRADE_IN = '10000/60';
    const tradeIn = await submitted(tradeInFields({ want: SWAP_PS5 }), [], owner.browser);
    await moved(tradeIn.reference, { move: 'offer', offerNaira: 300_000 });
    const response = await owner.browser.post(`/trade-ins/${tradeIn.reference}/respond`, {
      decision: 'decline',
      offer: 30_000_000,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as { tradeIn: TradeInView }).tradeIn.status).toBe('declined');
  });

  it('names the offer it answers: a revised one is refused (409 offer_changed); the same answer twice is one move', async () => {
    const { tradeIn, email } = await swapWithOffer();
    await moved(tradeIn.reference, { move: 'offer', offerNaira: 310_000 });
    const old = await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, { email, decision: 'accept', offer: 30_000_000 });
    expect((await refusal(old, 409)).code).toBe('offer_changed');
    const body = { email, decision: 'accept', offer: 31_000_000 };
    const [first, second] = await Promise.all([
      shopper().post(`/trade-ins/${tradeIn.reference}/respond`, body),
      shopper().post(`/trade-ins/${tradeIn.reference}/respond`, body),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const { history } = await detail(tradeIn.reference);
    expect(history.filter((h) => h.to === 'accepted')).toHaveLength(1);
    // Declining after accepting is not an answer any more.
    const late = await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, { ...body, decision: 'decline' });
    expect((await refusal(late, 409)).code).toBe('illegal_transition');
  });
});

describe('an accepted swap becomes an order', () => {
  const details = (email: string) => ({
    delivery: 'delivery',
    name: 'Ada Obi',
    email,
    phone: '0803 123 4567',
    address: '12 Allen Avenue',
    city: 'Ikeja',
    state: 'Lagos',
  });

  async function acceptedSwap() {
    const { tradeIn, email } = await swapWithOffer();
    const response = await shopper().post(`/trade-ins/${tradeIn.reference}/respond`, {
      email,
      decision: 'accept',
      offer: 30_000_000,
    });
    expect(response.status).toBe(200);
    return { reference: tradeIn.reference, email };
  }

  /** The accepted swap's order (delivered), placed by its shopper, as the Worker answers it. */
  async function swapOrder(reference: string, email: string, browser = shopper()) {
    const response = await browser.post(`/trade-ins/${reference}/order`, {
      email,
      idempotencyKey: newKey(),
      customer: details(email),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as PlacedOrder;
  }

  it('priced by the Worker: the product’s price and delivery, minus the trade-in credit', async () => {
    const { reference, email } = await acceptedSwap();
    const stockBefore = await env.DB.prepare('select stock from product_variants where product_id = ? and id = ?')
      .bind(PS5.id, PS5.variant)
      .first<{ stock: number }>();
    const body = { email, idempotencyKey: newKey(), customer: details(email), price: PS5.price };
    const response = await shopper().post(`/trade-ins/${reference}/order`, body);
    expect(response.status, await response.clone().text()).toBe(201);
    const { order } = (await response.json()) as PlacedOrder;
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      subtotal: PS5.price,
      shipping: SHIPPING,
      credit: { tradeIn: reference, amount: 30_000_000 },
      total: PS5.price + SHIPPING - 30_000_000,
      payment: { amount: PS5.price + SHIPPING - 30_000_000, due: true },
    });
    expect(order.lines).toMatchObject([{ productId: PS5.id, variantId: PS5.variant, quantity: 1, unitPrice: PS5.price }]);
    const row = await env.DB.prepare('select total_kobo, credit_kobo, trade_in_reference from orders where number = ?')
      .bind(order.number)
      .first();
    expect(row).toEqual({
      total_kobo: PS5.price + SHIPPING - 30_000_000,
      credit_kobo: 30_000_000,
      trade_in_reference: reference,
    });
    const stockAfter = await env.DB.prepare('select stock from product_variants where product_id = ? and id = ?')
      .bind(PS5.id, PS5.variant)
      .first<{ stock: number }>();
    expect(stockAfter!.stock).toBe(stockBefore!.stock - 1);
    const confirmation = (await emailsTo(email)).find((e) => e.kind === 'order_confirmation')!;
    expect(confirmation.text).toContain(`Trade-in credit (${reference}): −₦300,000`);

    const view = ((await (await lookup(reference, email)).json()) as { tradeIn: TradeInView }).tradeIn;
    expect(view.order).toEqual({ number: order.number, status: 'awaiting_payment' });
    expect(view.canOrder).toBe(false);

    // A retry with the same key is the same order; another order while this one lives is refused.
    const again = await shopper().post(`/trade-ins/${reference}/order`, body);
    expect(again.status).toBe(200);
    expect(((await again.json()) as PlacedOrder).order.number).toBe(order.number);
    const second = await shopper().post(`/trade-ins/${reference}/order`, { ...body, idempotencyKey: newKey() });
    expect((await refusal(second, 409)).code).toBe('trade_in_changed');
  });

  it('the price the shopper saw is checked, and once the order is cancelled the swap can be ordered again', async () => {
    const { reference, email } = await acceptedSwap();
    const stale = await shopper().post(`/trade-ins/${reference}/order`, {
      email,
      idempotencyKey: newKey(),
      customer: details(email),
      price: PS5.price - 100,
    });
    expect((await refusal(stale, 409)).code).toBe('price_changed');
    const placed = await shopper().post(`/trade-ins/${reference}/order`, {
      email,
      idempotencyKey: newKey(),
      customer: { ...details(email), delivery: 'pickup' },
    });
    expect(placed.status).toBe(201);
    const { order, accessToken } = (await placed.json()) as PlacedOrder;
    expect(order.total).toBe(PS5.price - 30_000_000);
    const cancel = await shopper().post(`/orders/${order.number}/cancel`, undefined, { authorization: `Bearer ${accessToken}` });
    expect(cancel.status).toBe(200);
    const view = ((await (await lookup(reference, email)).json()) as { tradeIn: TradeInView }).tradeIn;
    expect(view.canOrder).toBe(true);
    const again = await shopper().post(`/trade-ins/${reference}/order`, {
      email,
      idempotencyKey: newKey(),
      customer: details(email),
    });
    expect(again.status).toBe(201);
  });

  it('the variant relabelled under its id since the offer (another thing now): 409 swap_unavailable, and no order', async () => {
    const { reference, email } = await acceptedSwap();
    const relabel = (label: string) =>
      env.DB.prepare('update product_variants set label = ? where product_id = ? and id = ?')
        .bind(label, PS5.id, PS5.variant)
        .run();
    const { label } = (await env.DB.prepare('select label from product_variants where product_id = ? and id = ?')
      .bind(PS5.id, PS5.variant)
      .first<{ label: string }>())!;
    const before = await rowCounts();
    try {
      await relabel('Pro 2TB Bundle');
      const refused = await shopper().post(`/trade-ins/${reference}/order`, {
        email,
        idempotencyKey: newKey(),
        customer: details(email),
      });
      expect((await refusal(refused, 409)).code).toBe('swap_unavailable');
      expect(await rowCounts()).toEqual(before);
      // The same label written another way is the same variant.
      await relabel(` ${label.toUpperCase()} `);
      await swapOrder(reference, email);
    } finally {
      await relabel(label);
    }
  });

  it('the product repriced to the credit or below since the offer: 409 price_below_credit, and no order (not one for ₦0, nor the credit paying the delivery fee)', async () => {
    const { reference, email } = await acceptedSwap();
    const before = await rowCounts();
    try {
      // The credit is ₦300,000. At ₦290,000 even the total with delivery (₦1,500) is below it; at
      // ₦299,000 the credit would pay all but ₦500 of the delivery fee. Each is refused all the same.
      for (const price of [30_000_000, 29_000_000, 29_900_000]) {
        await setPrice(PS5.id, price, PS5.variant);
        for (const delivery of ['pickup', 'delivery'] as const) {
          const refused = await shopper().post(`/trade-ins/${reference}/order`, {
            email,
            idempotencyKey: newKey(),
            customer: { ...details(email), delivery },
          });
          expect(await refusal(refused, 409)).toMatchObject({
            code: 'price_below_credit',
            message: expect.stringContaining('Please contact us'),
          });
        }
      }
      expect(await rowCounts()).toEqual(before);
    } finally {
      await setPrice(PS5.id, PS5.price, PS5.variant);
    }
    // At its price again, the swap is ordered.
    await swapOrder(reference, email);
  });

  describe("the swap's order holds the admin's close and complete (its credit lives on the order)", () => {
    async function placedSwap() {
      const { reference, email } = await acceptedSwap();
      return { reference, email, placed: await swapOrder(reference, email) };
    }

    async function orderVersion(number: string) {
      const response = await admin.get(`/admin/orders/${number}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { version: string }).version;
    }

    const confirmPayment = async (placed: PlacedOrder) => {
      const response = await admin.post(`/admin/orders/${placed.order.number}/confirm-payment`, {
        version: await orderVersion(placed.order.number),
        amountReceivedNaira: placed.order.total / 100,
        bankReference: 'NIP-SWAP-1',
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };

    it('no close while the order is open: the discounted order could still be paid with nothing traded in', async () => {
      const { reference, placed } = await placedSwap();
      const was = await detail(reference);
      const refused = await refusal(await move(reference, { move: 'close', note: 'Device never arrived' }), 409);
      expect(refused).toMatchObject({ code: 'swap_order_open', message: expect.stringContaining(placed.order.number) });
      expect(await detail(reference)).toEqual(was);

      // Once the order is cancelled (its credit with it), the request can be closed, and nothing can order it again.
      const cancel = await admin.post(`/admin/orders/${placed.order.number}/cancel`, {
        version: await orderVersion(placed.order.number),
        reason: 'The device never arrived',
      });
      expect(cancel.status, await cancel.clone().text()).toBe(200);
      expect((await moved(reference, { move: 'close', note: 'Device never arrived' })).tradeIn.status).toBe('closed');
    });

    it('complete only once the order is paid: completed earlier, a cancel or expiry would take the credit with it', async () => {
      const notOrdered = await acceptedSwap();
      expect((await refusal(await move(notOrdered.reference, { move: 'complete' }), 409)).code).toBe('swap_order_unpaid');

      const { reference, email, placed } = await placedSwap();
      const refused = await refusal(await move(reference, { move: 'complete', note: 'Device received' }), 409);
      expect(refused).toMatchObject({ code: 'swap_order_unpaid', message: expect.stringContaining(placed.order.number) });
      // The shopper cancels: the credit is theirs again, and the swap can be ordered anew.
      const cancel = await shopper().post(`/orders/${placed.order.number}/cancel`, undefined, {
        authorization: `Bearer ${placed.accessToken}`,
      });
      expect(cancel.status).toBe(200);
      const view = ((await (await lookup(reference, email)).json()) as { tradeIn: TradeInView }).tradeIn;
      expect(view).toMatchObject({ status: 'accepted', canOrder: true });

      const second = await swapOrder(reference, email);
      await confirmPayment(second);
      const done = await moved(reference, { move: 'complete', note: 'Device received, PS5 handed over' });
      expect(done.tradeIn.status).toBe('completed');
      // Paid and completed: closing it is the state machine's refusal (completed is final).
      expect((await refusal(await move(reference, { move: 'close', note: 'Too late' }), 409)).code).toBe('illegal_transition');
    });
  });

  it('a transfer found late for an expired swap order that was ordered again: 409, the credit stays with the new order', async () => {
    const { reference, email } = await acceptedSwap();
    const first = await swapOrder(reference, email);
    await makeOverdue(first.order.number);
    const read = await shopper().get(`/orders/${first.order.number}`, { authorization: `Bearer ${first.accessToken}` });
    expect(((await read.json()) as { order: { status: string } }).order.status).toBe('expired');
    const second = await swapOrder(reference, email);

    const { version } = (await (await admin.get(`/admin/orders/${first.order.number}`)).json()) as { version: string };
    const late = await admin.post(`/admin/orders/${first.order.number}/confirm-payment`, {
      version,
      amountReceivedNaira: first.order.total / 100,
      bankReference: 'NIP-LATE-SWAP',
    });
    expect((await refusal(late, 409)).code).toBe('late_payment_credit_spent');
    const statuses = await env.DB.prepare('select number, status from orders where trade_in_reference = ? order by number')
      .bind(reference)
      .all<{ number: string; status: string }>();
    expect(Object.fromEntries(statuses.results.map((r) => [r.number, r.status]))).toEqual({
      [first.order.number]: 'expired',
      [second.order.number]: 'awaiting_payment',
    });
  });

  describe('paid after it expired (a payment provider confirms transfers: decision 023)', () => {
    /** A shopper on a store whose orders get their own account, paid through the provider's stand-in. */
    const payingShopper = () => new Browser(ORIGIN, { RATE_LIMIT_TRADE_IN: '10000/60', PAYMENTS_STANDIN: 'true' });

    /** The hold runs out; the shopper's next look at the order expires it. */
    async function expired(placed: PlacedOrder) {
      await makeOverdue(placed.order.number);
      const read = await payingShopper().get(`/orders/${placed.order.number}`, { authorization: `Bearer ${placed.accessToken}` });
      expect(((await read.json()) as { order: { status: string } }).order.status).toBe('expired');
    }

    /** The whole total transferred into the order's own account; the provider's webhook judges it. */
    async function paidInFull(placed: PlacedOrder) {
      const response = await payingShopper().post('/test/paystack/pay', {
        accountNumber: placed.order.payment!.accountNumber,
        amountKobo: placed.order.total,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { webhook: { outcome: string } }).webhook.outcome;
    }

    const statusOf = async (number: string) =>
      (await env.DB.prepare('select status from orders where number = ?').bind(number).first<{ status: string }>())!.status;
    const tradeInOrder = async (reference: string) =>
      (await env.DB.prepare('select o.number from trade_ins t join orders o on o.id = t.order_id where t.reference = ?')
        .bind(reference)
        .first<{ number: string }>())!.number;

    it('still takes its credit when the swap was not ordered again', async () => {
      const { reference, email } = await acceptedSwap();
      const placed = await swapOrder(reference, email, payingShopper());
      expect(placed.order.payment!.ownAccount).toBe(true);
      await expired(placed);
      expect(await paidInFull(placed)).toBe('late');
      expect(await statusOf(placed.order.number)).toBe('paid');
      expect(await tradeInOrder(reference)).toBe(placed.order.number);
    });

    it('is refunded, not revived, once the swap was ordered again: one trade-in never pays for two orders', async () => {
      const { reference, email } = await acceptedSwap();
      const first = await swapOrder(reference, email, payingShopper());
      await expired(first);
      const second = await swapOrder(reference, email, payingShopper());
      expect(second.order.credit).toEqual({ tradeIn: reference, amount: 30_000_000 });

      expect(await paidInFull(first)).toBe('refund');
      expect(await statusOf(first.order.number)).toBe('expired');
      const refunds = await env.DB.prepare(
        'select outcome, refund_kobo as refund from provider_payments where order_id = (select id from orders where number = ?)',
      )
        .bind(first.order.number)
        .all();
      expect(refunds.results).toEqual([{ outcome: 'refund', refund: first.order.total }]);
      // The credit stays with the order that holds it, which its own payment pays.
      expect(await tradeInOrder(reference)).toBe(second.order.number);
      expect(await paidInFull(second)).toBe('paid');
      expect(await statusOf(second.order.number)).toBe('paid');
      const paidWithCredit = await env.DB.prepare(
        "select count(*) as n from orders where trade_in_reference = ? and status = 'paid'",
      )
        .bind(reference)
        .first<{ n: number }>();
      expect(paidWithCredit!.n).toBe(1);
    });
  });

  it('is refused for a cash request, before acceptance, and to anyone but the requester', async () => {
    const cashFields = tradeInFields();
    const cash = await submitted(cashFields);
    const cashEmail = cashFields.contact.email as string;
    await moved(cash.reference, { move: 'offer', offerNaira: 100_000 });
    await shopper().post(`/trade-ins/${cash.reference}/respond`, { email: cashEmail, decision: 'accept', offer: 10_000_000 });
    const body = (email: string) => ({ email, idempotencyKey: newKey(), customer: details(email) });
    expect((await refusal(await shopper().post(`/trade-ins/${cash.reference}/order`, body(cashEmail)), 409)).code).toBe(
      'not_a_swap',
    );

    const { tradeIn, email } = await swapWithOffer();
    expect((await refusal(await shopper().post(`/trade-ins/${tradeIn.reference}/order`, body(email)), 409)).code).toBe(
      'illegal_transition',
    );
    const { reference } = await acceptedSwap();
    await refusal(await shopper().post(`/trade-ins/${reference}/order`, body('stranger@example.com')), 404);
    const orders = await env.DB.prepare('select count(*) n from orders where trade_in_reference in (?, ?, ?)')
      .bind(cash.reference, tradeIn.reference, reference)
      .first<{ n: number }>();
    expect(orders!.n).toBe(0);
  });
});

describe('the form’s parts (issue 20, finding 11)', () => {
  const ORIGIN_HEADER = { origin: 'http://localhost:8787' };
  const BOUNDARY = '----gts-attack-boundary';
  const encoder = new TextEncoder();
  const textPart = (name: string, value: string) =>
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  /** A multipart body written by hand, as a script would send it (FormData would take minutes to build 100,000 parts). */
  const multipart = (parts: string) =>
    shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { ...ORIGIN_HEADER, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: encoder.encode(`${parts}--${BOUNDARY}--\r\n`),
    });

  it('refuses a form with 100,000 extra text parts (413 too_many_parts) and stores nothing', async () => {
    const before = await stored();
    const request = textPart('request', JSON.stringify(tradeInFields()));
    const response = await multipart(request + textPart('x', 'y').repeat(100_000));
    const error = await refusal(response, 413);
    expect(error.code).toBe('too_many_parts');
    expect(error.message).toMatch(/at most \d+ parts/);
    expect(error.issues?.map((i) => i.field)).toEqual(['(body)']);
    expect(await stored()).toEqual(before);
  });

  it('refuses one part past the count even when every part is tiny', async () => {
    const before = await stored();
    const request = textPart('request', JSON.stringify(tradeInFields()));
    const error = await refusal(await multipart(request + textPart('x', 'y').repeat(6)), 413);
    expect(error.code).toBe('too_many_parts');
    expect(await stored()).toEqual(before);
  });

  it('refuses an oversized text part beside a good request (413 naming it) and stores nothing', async () => {
    const before = await stored();
    const request = textPart('request', JSON.stringify(tradeInFields()));
    const error = await refusal(await multipart(request + textPart('notes', 'x'.repeat(1024 * 1024))), 413);
    expect(error.code).toBe('payload_too_large');
    expect(error.issues?.map((i) => i.field)).toEqual(['notes']);
    expect(await stored()).toEqual(before);
  });

  it('refuses an oversized `request` part (413 naming request), and the same fields sent as JSON', async () => {
    const before = await stored();
    const padded = `${JSON.stringify(tradeInFields())}${' '.repeat(1024 * 1024)}`;
    const error = await refusal(await multipart(textPart('request', padded)), 413);
    expect(error.issues?.map((i) => i.field)).toEqual(['request']);
    const json = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { ...ORIGIN_HEADER, 'content-type': 'application/json' },
      body: padded,
    });
    expect((await refusal(json, 413)).code).toBe('payload_too_large');
    expect(await stored()).toEqual(before);
  });

  it('refuses a part whose headers never end (413) and stores nothing', async () => {
    const before = await stored();
    const endless = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="request"\r\nx-filler: ${'a'.repeat(64 * 1024)}`;
    const response = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { ...ORIGIN_HEADER, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: encoder.encode(endless),
    });
    const error = await refusal(response, 413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toBe("A part's headers are at most 8 KB.");
    expect(error.issues?.map((i) => i.field)).toEqual(['(body)']);
    expect(await stored()).toEqual(before);
  });

  it('refuses a part header padded past its limit, with no photos in the form, as that (not as photos too large)', async () => {
    const padded = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="request"${' '.repeat(200_000)}\r\n\r\n{}\r\n`;
    const error = await refusal(await multipart(padded), 413);
    expect(error.message).toBe("A part's headers are at most 8 KB.");
    expect(error.issues?.map((i) => i.field)).toEqual(['(body)']);
  });

  it('refuses the fields sent twice (two `request` parts): 400 naming request, nothing stored', async () => {
    const before = await stored();
    const first = textPart('request', JSON.stringify(tradeInFields()));
    const second = textPart('request', JSON.stringify(tradeInFields()));
    const error = await refusal(await multipart(first + second), 400);
    expect(error.code).toBe('invalid_request');
    expect(error.issues?.map((i) => i.field)).toEqual(['request']);
    expect(await stored()).toEqual(before);
  });

  it('still takes a form written by hand with the request and a photo', async () => {
    const fields = tradeInFields();
    const photoHead = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="photos"; filename="front.png"\r\ncontent-type: image/png\r\n\r\n`;
    const head = encoder.encode(textPart('request', JSON.stringify(fields)) + photoHead);
    const tail = encoder.encode(`\r\n--${BOUNDARY}--\r\n`);
    const body = new Uint8Array(head.byteLength + PNG.byteLength + tail.byteLength);
    body.set(head);
    body.set(PNG, head.byteLength);
    body.set(tail, head.byteLength + PNG.byteLength);
    const response = await shopper().request('/api/trade-ins', {
      method: 'POST',
      headers: { ...ORIGIN_HEADER, 'content-type': `multipart/form-data; boundary="${BOUNDARY}"` },
      body,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { tradeIn } = (await response.json()) as { tradeIn: TradeInView };
    expect(tradeIn.photos).toBe(1);
    const row = await env.DB.prepare(
      'select p.bytes from trade_in_photos p join trade_ins t on t.id = p.trade_in_id where t.reference = ?',
    )
      .bind(tradeIn.reference)
      .first<{ bytes: number }>();
    expect(row!.bytes).toBe(PNG.byteLength);
  });
});

describe('the confirmation e-mail per recipient (issue 20, finding 7)', () => {
  it('30 requests for one address from 30 clients are all taken, but queue at most the limit of e-mails to it', async () => {
    const email = newEmail('bombed');
    const vars = { RATE_LIMIT_TRADE_IN: '10000/60', RATE_LIMIT_EMAIL_RECIPIENT: '3/3600' };
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postTradeIn(
          tradeInFields({ contact: { ...tradeInFields().contact, email } }),
          [],
          new Browser('http://localhost:8787', vars, `198.51.100.${i + 1}`),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(201));
    const requests = await env.DB.prepare('select count(*) n from trade_ins where email = ?').bind(email).first<{ n: number }>();
    expect(requests!.n).toBe(30);
    const emails = (await emailsTo(email)).filter((e) => e.kind === 'trade_in_received');
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.length).toBeLessThanOrEqual(3);
  });

  it('another address still gets its confirmation', async () => {
    const vars = { RATE_LIMIT_TRADE_IN: '10000/60', RATE_LIMIT_EMAIL_RECIPIENT: '3/3600' };
    const fields = tradeInFields();
    await submitted(fields, [], new Browser('http://localhost:8787', vars, '198.51.100.200'));
    expect((await emailsTo(fields.contact.email as string)).map((e) => e.kind)).toEqual(['trade_in_received']);
  });
});

describe('limits', () => {
  it('sending requests is rate-limited per client', async () => {
    const browser = new Browser('http://localhost:8787', { RATE_LIMIT_TRADE_IN: '2/3600' }, '203.0.113.77');
    expect((await postTradeIn(tradeInFields(), [], browser)).status).toBe(201);
    expect((await postTradeIn(tradeInFields(), [], browser)).status).toBe(201);
    const third = await postTradeIn(tradeInFields(), [], browser);
    expect((await refusal(third, 429)).code).toBe('rate_limited');
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
