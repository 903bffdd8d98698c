import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../functions/env.ts';
import {
  Browser,
  googleAccounts,
  googleSignIn,
  linkToken,
  newEmail,
  PASSWORD,
  STANDIN,
  signedInUser,
  userRow,
} from './account-helpers.ts';
import { envWith } from './with-env.ts';

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

  it('refuses to start the stand-in anywhere but a local address: a deployed store with it would sign anyone in as an admin', () => {
    expect(() => readConfig(envWith({ ...STANDIN, SITE_URL: 'https://gts.ng' }))).toThrow(/AUTH_GOOGLE_STANDIN/);
    expect(readConfig(envWith({ ...STANDIN, SITE_URL: 'http://localhost:8787' })).AUTH_GOOGLE_STANDIN).toBe(true);
    expect(readConfig(envWith({ SITE_URL: 'https://gts.ng' })).AUTH_GOOGLE_STANDIN).toBe(false);
  });

  it('the stand-in sends back only to this origin; a redirect_uri elsewhere or unreadable is a 400, not a 500', async () => {
    const browser = new Browser(undefined, STANDIN);
    for (const uri of ['https://evil.example/callback', 'http://[::1', '//evil.example/x']) {
      const response = await browser.get(`/test/google/authorize?redirect_uri=${encodeURIComponent(uri)}`);
      expect(response.status, uri).toBe(400);
      expect(response.headers.get('content-type'), uri).toMatch(/^application\/json/);
    }
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

  it('links to an existing, proven password account when Google says the address is verified; the password stays', async () => {
    const email = newEmail('pat');
    const owner = new Browser();
    const userId = await signedInUser(owner, email);
    expect((await owner.post('/account/verify-email', { token: await linkToken(email, 'verify') })).status).toBe(200);
    const browser = new Browser(undefined, STANDIN);
    await googleSignIn(browser, { email, verified: true });
    expect((await browser.session()).user).toMatchObject({ id: userId, emailVerified: true });
    expect(await googleAccounts(userId)).toBe(1);
    // The password still works, and so does the owner's session.
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect((await owner.session()).user?.id).toBe(userId);
  });

  it('takes over an unproven password account when Google says the address is verified (the first proof)', async () => {
    const email = newEmail('pat');
    const earlier = new Browser();
    const userId = await signedInUser(earlier, email);
    const browser = new Browser(undefined, STANDIN);
    await googleSignIn(browser, { email, verified: true });
    expect((await browser.session()).user).toMatchObject({ id: userId, emailVerified: true });
    expect((await userRow(email))!.password_hash).toBeNull();
    expect((await earlier.session()).user).toBeNull();
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(401);
  });

  it('does not link an unverified Google address to an existing account', async () => {
    const email = newEmail('victim');
    const userId = await signedInUser(new Browser(), email);
    const attacker = new Browser(undefined, STANDIN);
    const landed = await googleSignIn(attacker, { email, verified: false, sub: 'attacker-google-id' });
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('error')).toBe('GoogleEmailNotVerified');
    expect((await attacker.session()).user).toBeNull();
    expect(await googleAccounts(userId)).toBe(0);
    expect((await userRow(email))!.email_verified).toBeNull();
  });

  it('an unverified Google address does not start an account either', async () => {
    const email = newEmail('fresh');
    const browser = new Browser(undefined, STANDIN);
    const landed = await googleSignIn(browser, { email, verified: false });
    expect(landed.searchParams.get('error')).toBe('GoogleEmailNotVerified');
    expect((await browser.session()).user).toBeNull();
    expect(await userRow(email)).toBeNull();
  });
});
