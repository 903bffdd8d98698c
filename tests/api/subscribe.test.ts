import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { postJson, type ErrorJson } from './client.ts';

const subscribers = async () =>
  (await env.DB.prepare('select email from newsletter_subscribers order by id').all<{ email: string }>()).results.map(
    (r) => r.email,
  );

describe('POST /api/subscribe', () => {
  it('stores an address once, lower-cased, and thanks the shopper both times', async () => {
    const first = await postJson('/subscribe', { email: '  Ada.Obi@Example.com ' });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ message: 'Thank you for subscribing!', alreadySubscribed: false });

    const again = await postJson('/subscribe', { email: 'ada.obi@example.com' });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ message: 'Thank you for subscribing!', alreadySubscribed: true });

    expect(await subscribers()).toEqual(['ada.obi@example.com']);
  });

  it.each([
    [{ email: '' }, 'Please enter your email address'],
    [{}, 'Please enter your email address'],
    [{ email: 'not-an-address' }, 'Please enter a valid email address'],
    [{ email: 42 }, 'Please enter your email address'],
  ])('rejects %j with a 400 naming the email field, storing nothing', async (body, message) => {
    const before = await subscribers();
    const response = await postJson('/subscribe', body);
    expect(response.status).toBe(400);
    const json = await response.json<ErrorJson>();
    expect(json.error.issues).toContainEqual({ field: 'email', message });
    expect(await subscribers()).toEqual(before);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await postJson('/subscribe', '{"email": ');
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.code).toBe('bad_request');
  });

  it('refuses a body over 64 KB with 413', async () => {
    const response = await postJson('/subscribe', { email: `${'a'.repeat(70_000)}@example.com` });
    expect(response.status).toBe(413);
    expect((await response.json<ErrorJson>()).error.code).toBe('payload_too_large');
  });
});
