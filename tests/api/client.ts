import { exports } from 'cloudflare:workers';

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

export interface ErrorJson {
  error: { code: string; message: string; issues?: { field: string; message: string }[] };
}
