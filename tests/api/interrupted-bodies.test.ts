import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/lib/api-contract.ts';
import { errorBodySchema } from '../../src/lib/api-error.ts';
import { Browser, ORIGIN } from './account-helpers.ts';
import { signedInAdmin, signedInCustomer } from './admin-helpers.ts';
import { bodyThatStops } from './client.ts';
import { key, MUTATING, snapshot } from './hostile.ts';

/**
 * A phone that loses its connection half-way through a request: the body starts arriving as
 * JSON, then the stream fails. That is the sender's doing, never the store's: every write must
 * answer it as a refusal in the one error shape, write nothing, and log no "Unhandled API
 * error" 500 (before, every write but the trade-in form answered 500).
 */
const JSON_THAT_STOPS = '{"email": "someone@example.com", "name": "Ad';

/** A path parameter's stand-in: the shape the route expects, for a record that does not exist. */
function fill(path: string): string {
  return path
    .replace(':number', 'GTS-ZZZZZZZZZZ')
    .replace(':reference', 'TI-ZZZZZZZZ')
    .replace(':provider', 'standin')
    .replace(/:[A-Za-z]+/g, 'no-such-id');
}

/** The uploads read their bodies themselves and name their own refusal. */
const UPLOADS = new Set(['POST /api/trade-ins', 'POST /api/admin/images']);

/**
 * Sends every write a body that stops, through the browser whose request reaches the body (the
 * admin's for admin routes, a customer's for account routes: a guest would be turned away first),
 * and answers each endpoint's status and parsed answer, having checked that a refusal wrote nothing.
 */
async function sendEveryWrite(headers: Record<string, string>) {
  const admin = (await signedInAdmin()).browser;
  const customer = (await signedInCustomer()).browser;
  const actor = (path: string) =>
    path.startsWith('/api/admin/') ? admin : path.startsWith('/api/account/') ? customer : new Browser();
  const answers: { endpoint: Endpoint; status: number; json: unknown; text: string }[] = [];
  for (const endpoint of MUTATING) {
    const before = await snapshot();
    const response = await actor(endpoint.path).request(fill(endpoint.path), {
      method: endpoint.method,
      headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
      body: bodyThatStops(JSON_THAT_STOPS),
    });
    const text = await response.text();
    answers.push({ endpoint, status: response.status, json: JSON.parse(text), text });
    if (!response.ok) expect(await snapshot(), key(endpoint)).toEqual(before);
  }
  expect(answers.map((a) => key(a.endpoint))).toEqual(MUTATING.map(key));
  expect(MUTATING.length).toBeGreaterThan(30);
  return answers;
}

describe('a request body that stops arriving (the sender went away)', () => {
  it('with no Content-Length, read whole by the body limit before any route runs: every write answers 400 body_interrupted (the uploads upload_interrupted)', async () => {
    for (const { endpoint, status, json, text } of await sendEveryWrite({})) {
      expect(status, `${key(endpoint)}: ${text}`).toBe(400);
      const { error } = errorBodySchema.parse(json);
      expect(error.code, key(endpoint)).toBe(UPLOADS.has(key(endpoint)) ? 'upload_interrupted' : 'body_interrupted');
      expect(error.message, key(endpoint)).toMatch(/send it again/);
    }
  });

  it('with a Content-Length it never reaches, read by each route: never a 5xx, every refusal in the error shape, nothing written', async () => {
    const answers = await sendEveryWrite({ 'content-length': '400' });
    for (const { endpoint, status, json, text } of answers) {
      expect(status, `${key(endpoint)}: ${text}`).toBeLessThan(500);
      if (status >= 400) expect(errorBodySchema.safeParse(json).success, `${key(endpoint)}: ${text}`).toBe(true);
    }
    // The routes that read a body refuse it: most of them.
    expect(answers.filter((a) => a.status === 400).length).toBeGreaterThan(answers.length / 2);
  });
});
