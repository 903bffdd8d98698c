import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { api } from '../../functions/index.ts';

export const ORIGIN = 'http://localhost:8787';
export const PASSWORD = 'correct horse battery';

/** A fresh address for one test. */
export const newEmail = (label = 'user') => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/**
 * A browser for the API: keeps the cookies the Worker sets (as a browser would for this
 * origin), sends Origin on every POST, and can run with some vars replaced. Redirects are
 * not followed, so tests see Auth.js's Location headers.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  readonly vars: Record<string, string>;
  readonly ip?: string;
  constructor(origin = ORIGIN, vars: Record<string, string> = {}, ip?: string) {
    this.origin = origin;
    this.vars = vars;
    this.ip = ip;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has('cookie')) headers.set('cookie', this.cookieHeader());
    if (this.ip) headers.set('cf-connecting-ip', this.ip);
    const full = url.startsWith('http') ? url : `${this.origin}${url}`;
    const ctx = createExecutionContext();
    const response = await api.fetch(
      new Request(full, { ...init, headers, redirect: 'manual' }),
      { ...env, ...this.vars } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    this.remember(response);
    return response;
  }

  remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request(`/api${path}`, { headers });
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request(`/api${path}`, {
      method: 'POST',
      headers: { origin: this.origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** A form post to Auth.js, with its CSRF token unless `csrfToken: null`. */
  async authForm(
    path: string,
    fields: Record<string, string>,
    { csrfToken, headers = {} }: { csrfToken?: string | null; headers?: Record<string, string> } = {},
  ) {
    const token = csrfToken === undefined ? await this.csrfToken() : csrfToken;
    const body = new URLSearchParams({ ...fields, ...(token ? { csrfToken: token } : {}) });
    return this.request(`/api/auth${path}`, {
      method: 'POST',
      headers: { origin: this.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
  }

  async csrfToken(): Promise<string> {
    const response = await this.get('/auth/csrf');
    expect(response.status).toBe(200);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  sessionCookie(): string | undefined {
    return this.cookies.get(this.origin.startsWith('https') ? '__Secure-authjs.session-token' : 'authjs.session-token');
  }

  async session() {
    const response = await this.get('/session');
    expect(response.status).toBe(200);
    return (await response.json()) as {
      user: null | { id: string; email: string; name: string | null; role: string; emailVerified: boolean };
      google: boolean;
    };
  }

  /** A second browser holding the same cookies (a copied session, or another tab). */
  clone(): Browser {
    const copy = new Browser(this.origin, this.vars, this.ip);
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }
}

/** Signs up and signs in a new user in `browser`; answers their id. */
export async function signedInUser(browser: Browser, email = newEmail(), password = PASSWORD): Promise<string> {
  const up = await browser.post('/account/sign-up', { email, password });
  expect(up.status, await up.clone().text()).toBe(202);
  const inn = await browser.post('/account/sign-in', { email, password });
  expect(inn.status, await inn.clone().text()).toBe(200);
  return ((await inn.json()) as { user: { id: string } }).user.id;
}

/** E-mails queued for `recipient`, oldest first. */
export async function emailsTo(recipient: string) {
  const { results } = await env.DB.prepare('select kind, subject, text from email_outbox where recipient = ? order by id')
    .bind(recipient)
    .all<{ kind: string; subject: string; text: string }>();
  return results;
}

/** The token of the newest `/login?<param>=` link e-mailed to `recipient`. */
export async function linkToken(recipient: string, param: 'verify' | 'reset'): Promise<string> {
  const emails = await emailsTo(recipient);
  const links = emails.flatMap((e) =>
    [...e.text.matchAll(new RegExp(`/login\\?${param}=([A-Za-z0-9_-]+)`, 'g'))].map((m) => m[1]!),
  );
  expect(links.length, `no ${param} link to ${recipient}`).toBeGreaterThan(0);
  return links.at(-1)!;
}

export async function userRow(email: string) {
  return env.DB.prepare('select * from users where email = ?').bind(email).first<Record<string, unknown>>();
}

/** The API's error body. */
export const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; issues?: { field: string; message: string }[] } }).error;

/** Google sign-in runs against the offline stand-in only with this explicit test flag. */
export const STANDIN = { AUTH_GOOGLE_STANDIN: 'true' };

/**
 * The whole Google flow as a browser goes through it: Auth.js's CSRF token, the sign-in
 * form post, the (stand-in) Google authorize page, and Auth.js's real callback, which
 * exchanges the code through the stand-in's token endpoint. Answers where it ends.
 */
export async function googleSignIn(browser: Browser, identity: { email: string; verified?: boolean; sub?: string }) {
  const query = new URLSearchParams({
    login_hint: identity.email,
    standin_verified: String(identity.verified ?? true),
    ...(identity.sub ? { standin_sub: identity.sub } : {}),
  });
  const start = await browser.authForm(`/signin/google?${query}`, { callbackUrl: '/profile' });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  expect(authorize.pathname).toBe('/api/test/google/authorize');
  expect(authorize.searchParams.get('code_challenge')).toBeTruthy(); // PKCE
  expect(authorize.searchParams.get('state')).toBeTruthy();
  const back = await browser.request(authorize.pathname + authorize.search);
  expect(back.status).toBe(302);
  const callback = new URL(back.headers.get('location')!);
  expect(callback.pathname).toBe('/api/auth/callback/google');
  const done = await browser.request(callback.pathname + callback.search);
  expect(done.status).toBe(302);
  return new URL(done.headers.get('location')!, browser.origin);
}

/** How many Google identities are linked to the user. */
export const googleAccounts = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from accounts where provider = 'google' and user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

/** The user's rows in `sessions`. */
export async function sessionRows(userId: string) {
  const { results } = await env.DB.prepare('select * from sessions where user_id = ? order by created_at')
    .bind(userId)
    .all<{ id: string; user_id: string; label: string; created_at: number; last_seen_at: number; expires_at: number }>();
  return results;
}
