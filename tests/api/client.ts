import { exports } from 'cloudflare:workers';
import type { StandardSchemaV1 } from '../../src/lib/light-schema.ts';

/** Calls the API Worker as a browser would, through its fetch handler. */
export function api(path: string, init?: RequestInit) {
  return exports.default.fetch(new Request(`http://localhost:8787/api${path}`, init));
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * A page's plain form post as a browser on this site sends it (url-encoded, from this origin),
 * from client address `ip`: the request a page the Worker renders (/track/order,
 * /newsletter/subscribe) reads. `headers` adds or overrides any header.
 */
export function pageFormPost(
  path: string,
  fields: Record<string, string>,
  { ip, headers = {} }: { ip: string; headers?: Record<string, string> },
): Request {
  const site = 'http://localhost:8787';
  return new Request(`${site}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: site,
      'sec-fetch-site': 'same-origin',
      'cf-connecting-ip': ip,
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}

export interface ErrorJson {
  error: { code: string; message: string; issues?: { field: string; message: string }[] };
}

/**
 * Checks a value against an answer's schema, zod or light alike (both are Standard Schemas:
 * src/lib/light-schema.ts), the way the browser's client does; synchronous, as every answer
 * schema of the store is.
 */
export function checkAnswer(
  schema: StandardSchemaV1,
  value: unknown,
): { success: true; data: unknown } | { success: false; issues: readonly { message: string }[] } {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) throw new Error('An answer schema must check synchronously');
  return result.issues ? { success: false, issues: result.issues } : { success: true, data: result.value };
}

/**
 * A request body that sends `first` and then fails, as when a phone loses its connection
 * half-way through a request: the sender's doing, which the API must answer as a refusal.
 */
export function bodyThatStops(first: string): ReadableStream<Uint8Array> {
  let pulls = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (++pulls === 1) {
        controller.enqueue(new TextEncoder().encode(first));
        return;
      }
      controller.error(new Error('Network connection lost.'));
    },
  });
}
