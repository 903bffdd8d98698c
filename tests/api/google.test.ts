import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Browser, newEmail, PASSWORD, signedInUser, userRow } from './account-helpers.ts';

/** Google sign-in runs against the offline stand-in only with this explicit test flag. */
const STANDIN = { AUTH_GOOGLE_STANDIN: 'true' };

/**
 * The whole Google flow as a browser goes through it: Auth.js's CSRF token, the sign-in
 * form post, the (stand-in) Google authorize page, and Auth.js's real callback, which
 * exchanges the code through the stand-in's token endpoint. Answers where it ends.
 */
async function googleSignIn(browser: Browser, identity: { email: string; verified?: boolean; sub?: string }) {
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

const googleAccounts = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from accounts where provider = 'google' and user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe('Google sign-in', () => {
  it('is reported unavailable when not configured, and refused', async () => {
    const browser = new Browser();
    expect((await browser.session()).google).toBe(false);
    const start = await browser.authForm('/signin/google', { callbackUrl: '/profile' });
    expect(browser.sessionCookie()).toBeUndefined();
    expect(start.headers.get('location') ?? '').not.toContain('/api/test/google');
    // The stand-in does not exist without the flag.
    expect((await browser.get('/test/google/authorize?redirect_uri=/api/auth/callback/google')).status).toBe(404);
  });

  it('creates one user on the first sign-in and reuses it on the next', async () => {
    const email = newEmail('gina');
    const first = new Browser(undefined, STANDIN);
    expect((await first.session()).google).toBe(true);
    const landed = await googleSignIn(first, { email });
    expect(landed.pathname).toBe('/profile');
    const session = await first.session();
    expect(session.user).toMatchObject({ email, role: 'customer', emailVerified: true });

    const second = new Browser(undefined, STANDIN);
    await googleSignIn(second, { email });
    expect((await second.session()).user?.id).toBe(session.user!.id);
    expect((await env.DB.prepare('select count(*) as n from users where email = ?').bind(email).first<{ n: number }>())!.n).toBe(
      1,
    );
    expect(await googleAccounts(session.user!.id)).toBe(1);
    expect((await userRow(email))!.password_hash).toBeNull();
  });

  it('links to an existing password account when Google says the address is verified', async () => {
    const email = newEmail('pat');
    const userId = await signedInUser(new Browser(), email);
    const browser = new Browser(undefined, STANDIN);
    await googleSignIn(browser, { email, verified: true });
    expect((await browser.session()).user).toMatchObject({ id: userId, emailVerified: true });
    expect(await googleAccounts(userId)).toBe(1);
    // The password still works.
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
  });

  it('does not link an unverified Google address to an existing account', async () => {
    const email = newEmail('victim');
    const userId = await signedInUser(new Browser(), email);
    const attacker = new Browser(undefined, STANDIN);
    const landed = await googleSignIn(attacker, { email, verified: false, sub: 'attacker-google-id' });
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('error')).toBe('OAuthAccountNotLinked');
    expect((await attacker.session()).user).toBeNull();
    expect(await googleAccounts(userId)).toBe(0);
    expect((await userRow(email))!.email_verified).toBeNull();
  });

  it('an unverified Google address may start an account of its own, left unverified', async () => {
    const email = newEmail('fresh');
    const browser = new Browser(undefined, STANDIN);
    await googleSignIn(browser, { email, verified: false });
    expect((await browser.session()).user).toMatchObject({ email, emailVerified: false });
  });
});
