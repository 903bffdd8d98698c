import { describe, expect, it } from 'vitest';
import { api, postJson } from './client.ts';

/** What every API answer carries, success or error (functions/platform/app.ts, secureHeaders). */
function expectSecurityHeaders(response: Response) {
  const h = response.headers;
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  // Never framed: by CSP and, for older browsers, X-Frame-Options.
  expect(h.get('x-frame-options')).toBe('DENY');
  const csp = h.get('content-security-policy') ?? '';
  expect(csp.split(/;\s*/)).toEqual(expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'"]));
  expect(csp).not.toContain('unsafe-inline');
  const permissions = h.get('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment']) expect(permissions).toContain(`${feature}=()`);
  expect(permissions).toContain('clipboard-write=(self)');
  // Plain http (local): no HSTS; the Worker adds it to https answers only.
  expect(h.get('strict-transport-security')).toBeNull();
}

describe('security headers on API answers', () => {
  it('a successful read', async () => {
    const response = await api('/products?limit=1');
    expect(response.status).toBe(200);
    expectSecurityHeaders(response);
  });

  it.each([
    ['an unknown path (404)', () => api('/no-such-route'), 404],
    ['a missing access token (401)', () => postJson('/orders/GTS-AAAAAAAAAA/cancel', {}), 401],
    ['malformed JSON (400)', () => postJson('/subscribe', '{"email": '), 400],
    ['a body over 64 KB (413)', () => postJson('/orders', { padding: 'x'.repeat(70 * 1024) }), 413],
  ])('an error: %s', async (_name, call, status) => {
    const response = await call();
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
  });
});
