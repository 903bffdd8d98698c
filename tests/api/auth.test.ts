import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { accountApi } from '../../src/features/account/account-api.ts';
import { Browser, emailsTo, linkToken, newEmail, PASSWORD, signedInUser, userRow } from './account-helpers.ts';
import type { ErrorJson } from './client.ts';

const errorOf = async (response: Response) => ((await response.json()) as ErrorJson).error;

describe('sign-up and sign-in with e-mail and password', () => {
  it('signs up, signs in, knows the user, signs out', async () => {
    const browser = new Browser();
    const email = newEmail('ada');
    const up = await browser.post('/account/sign-up', { email, password: PASSWORD, name: 'Ada Obi' });
    expect(up.status).toBe(202);
    expect(browser.sessionCookie()).toBeUndefined(); // sign-up alone does not sign in
    expect((await browser.session()).user).toBeNull();

    const inn = await browser.post('/account/sign-in', { email: email.toUpperCase(), password: PASSWORD });
    expect(inn.status).toBe(200);
    const { user } = accountApi.signIn.response.parse(await inn.json());
    expect(user).toMatchObject({ email, name: 'Ada Obi', role: 'customer', emailVerified: false });
    const info = await browser.get('/session');
    expect(info.headers.get('cache-control')).toBe('no-store');
    expect(accountApi.session.response.parse(await info.json()).user?.id).toBe(user.id);

    const out = await browser.post('/account/sign-out');
    expect(out.status).toBe(200);
    expect(browser.sessionCookie()).toBeUndefined();
    expect((await browser.session()).user).toBeNull();
  });

  it('stores a salted, self-describing PBKDF2 hash, never the password', async () => {
    const a = newEmail();
    const b = newEmail();
    await signedInUser(new Browser(), a);
    await signedInUser(new Browser(), b);
    const hashA = String((await userRow(a))!.password_hash);
    const hashB = String((await userRow(b))!.password_hash);
    expect(hashA).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(hashA).not.toContain(PASSWORD);
    expect(hashA).not.toBe(hashB); // same password, different salts
  });

  it('refuses a wrong password and an unknown address with the same 401', async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const browser = new Browser();
    const wrong = await browser.post('/account/sign-in', { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    const unknown = await browser.post('/account/sign-in', { email: newEmail('nobody'), password: PASSWORD });
    expect(unknown.status).toBe(401);
    const [w, u] = [await errorOf(wrong), await errorOf(unknown)];
    expect(w).toEqual(u);
    expect(w.code).toBe('invalid_credentials');
    expect(browser.sessionCookie()).toBeUndefined();
  });

  it('answers a sign-up for an existing address exactly like a new one, and tells the owner instead', async () => {
    const email = newEmail('taken');
    const first = await new Browser().post('/account/sign-up', { email, password: PASSWORD });
    // The owner has proved the address (an unverified one is answered with a claim link instead: address-proof tests).
    expect(
      (await new Browser().post('/account/verify-email', { token: await linkToken(email, 'verify'), password: PASSWORD })).status,
    ).toBe(200);
    const again = await new Browser().post('/account/sign-up', { email, password: 'another good passphrase' });
    expect(again.status).toBe(first.status);
    expect(await again.json()).toEqual(await first.json());
    const kinds = (await emailsTo(email)).map((e) => e.kind);
    expect(kinds[0]).toBe('account_verify');
    // The owner hears of the second sign-up (after whatever the verification itself sent).
    expect(kinds.at(-1)).toBe('account_signup_existing');
    expect(kinds.filter((k) => k.startsWith('account_signup'))).toEqual(['account_signup_existing']);
    // The account and its password are untouched.
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect((await new Browser().post('/account/sign-in', { email, password: 'another good passphrase' })).status).toBe(401);
  });

  it('refuses short and common passwords with field messages', async () => {
    for (const password of ['short1', 'password123', 'Password1!', '12345678', 'qwertyuiop']) {
      const response = await new Browser().post('/account/sign-up', { email: newEmail(), password });
      expect(response.status, password).toBe(400);
      expect((await errorOf(response)).issues?.map((i) => i.field)).toEqual(['password']);
    }
    expect(
      await env.DB.prepare("select count(*) as n from users where email like 'user-%' and password_hash is null").first('n'),
    ).toBe(0);
  });
});

describe('session cookies', () => {
  it('are HttpOnly and SameSite=Lax over http, without the Secure prefix', async () => {
    const browser = new Browser();
    const email = newEmail();
    await browser.post('/account/sign-up', { email, password: PASSWORD });
    const inn = await browser.post('/account/sign-in', { email, password: PASSWORD });
    const cookie = inn.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).not.toMatch(/; Secure/i);
  });

  it('are Secure and __Secure- prefixed over https, and only that name is read there', async () => {
    const browser = new Browser('https://gts.example');
    const email = newEmail();
    await browser.post('/account/sign-up', { email, password: PASSWORD });
    const inn = await browser.post('/account/sign-in', { email, password: PASSWORD });
    expect(inn.status).toBe(200);
    const cookie = inn.headers.getSetCookie().find((c) => c.startsWith('__Secure-authjs.session-token='));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect((await browser.session()).user?.email).toBe(email);
    // Auth.js's CSRF cookie is __Host- prefixed over https.
    await browser.csrfToken();
    expect([...browser.cookies.keys()]).toContain('__Host-authjs.csrf-token');
    // The same token under the plain name over https is not a session.
    const plain = new Browser('https://gts.example');
    plain.cookies.set('authjs.session-token', browser.sessionCookie()!);
    expect((await plain.session()).user).toBeNull();
  });

  it('a forged or foreign cookie is a guest', async () => {
    const browser = new Browser();
    browser.cookies.set('authjs.session-token', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z');
    expect((await browser.session()).user).toBeNull();
    expect((await browser.get('/account/profile')).status).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('our routes refuse a cross-site Origin, a missing Origin and Sec-Fetch-Site: cross-site', async () => {
    const email = newEmail();
    const browser = new Browser();
    await signedInUser(browser, email);
    const evil = { origin: 'https://evil.example' };
    expect((await browser.post('/account/sign-in', { email, password: PASSWORD }, evil)).status).toBe(403);
    expect((await browser.post('/account/sign-out-others', undefined, evil)).status).toBe(403);
    expect((await browser.post('/account/profile', { name: 'Mallory Evil' }, evil)).status).toBe(403);
    expect((await browser.post('/account/profile', { name: 'Mallory Evil' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
    const noOrigin = await browser.request('/api/account/password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'a brand new passphrase' }),
    });
    expect(noOrigin.status).toBe(403);
    expect((await userRow(email))!.name).toBeNull();
    expect((await browser.session()).user?.email).toBe(email); // nothing ended the session
  });

  it("Auth.js's own form posts need its CSRF token", async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const browser = new Browser();
    await browser.csrfToken(); // the cookie half, but not the body half
    const missing = await browser.authForm(
      '/callback/credentials',
      { email, password: PASSWORD },
      { csrfToken: null, headers: { 'x-auth-return-redirect': '1' } },
    );
    expect(browser.sessionCookie()).toBeUndefined();
    expect(JSON.stringify(await missing.json())).toContain('MissingCSRF');
    const wrong = await browser.authForm(
      '/callback/credentials',
      { email, password: PASSWORD },
      { csrfToken: 'forged', headers: { 'x-auth-return-redirect': '1' } },
    );
    expect(JSON.stringify(await wrong.json())).toContain('MissingCSRF');
    expect(browser.sessionCookie()).toBeUndefined();
    const ok = await browser.authForm(
      '/callback/credentials',
      { email, password: PASSWORD },
      { headers: { 'x-auth-return-redirect': '1' } },
    );
    expect(ok.status).toBe(200);
    expect(browser.sessionCookie()).toBeDefined();
    // A cross-site form post is refused before Auth.js sees it.
    const crossSite = await new Browser().authForm(
      '/callback/credentials',
      { email, password: PASSWORD },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.status).toBe(403);
  });
});

describe('failed sign-in limits', () => {
  it('gives 429 with Retry-After after repeated failures for one address, also with the right password, until the window ends', async () => {
    const email = newEmail('target');
    // The owner's browser signed in before: it holds a device cookie for the address.
    const owner = new Browser();
    await signedInUser(owner, email);
    const vars = { RATE_LIMIT_SIGN_IN_EMAIL: '3/600' };
    for (let i = 0; i < 3; i++) {
      // Each from another client: the address's own counter trips.
      const wrong = await new Browser(undefined, vars, `198.51.100.${i + 1}`).post('/account/sign-in', {
        email,
        password: `wrong ${i}`,
      });
      expect(wrong.status).toBe(401);
    }
    const blocked = await new Browser(undefined, vars, '198.51.100.9').post('/account/sign-in', { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    // Four counted (the refused one too) against 3: this window, then half the next, until they have faded.
    expect(retryAfter).toBeGreaterThanOrEqual(300);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const error = await errorOf(blocked);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/wait \d+ (seconds?|minutes?)|wait a minute/);
    // Another address is not affected.
    expect(
      (
        await new Browser(undefined, vars, '198.51.100.9').post('/account/sign-in', {
          email: newEmail(),
          password: 'whatever it is',
        })
      ).status,
    ).toBe(401);
    // Only browsers that never proved the address are held back: the owner's own is not.
    const ownerAgain = new Browser(undefined, vars, '198.51.100.10');
    for (const [name, value] of owner.cookies) if (!name.includes('session-token')) ownerAgain.cookies.set(name, value);
    expect((await ownerAgain.post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    // The window ends and the next one too (its counter moved two windows into the past, as the clock
    // would): the right password works again.
    await env.DB.prepare("update rate_limits set window_start = window_start - 1200 where key like 'signin.fail.email:%'").run();
    expect(
      (await new Browser(undefined, vars, '198.51.100.9').post('/account/sign-in', { email, password: PASSWORD })).status,
    ).toBe(200);
  });

  it('gives 429 to one client failing over many addresses', async () => {
    const vars = { RATE_LIMIT_SIGN_IN_CLIENT: '4/600' };
    const client = new Browser(undefined, vars, '203.0.113.50');
    for (let i = 0; i < 4; i++)
      expect((await client.post('/account/sign-in', { email: newEmail(), password: 'guess guess' })).status).toBe(401);
    const blocked = await client.post('/account/sign-in', { email: newEmail(), password: 'guess guess' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another client is not.
    expect(
      (
        await new Browser(undefined, vars, '203.0.113.51').post('/account/sign-in', {
          email: newEmail(),
          password: 'guess guess',
        })
      ).status,
    ).toBe(401);
  });

  it("applies to Auth.js's own credentials callback too", async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const vars = { RATE_LIMIT_SIGN_IN_EMAIL: '1/600' };
    const browser = new Browser(undefined, vars);
    await browser.authForm(
      '/callback/credentials',
      { email, password: 'wrong wrong' },
      { headers: { 'x-auth-return-redirect': '1' } },
    );
    const blocked = await browser.authForm(
      '/callback/credentials',
      { email, password: PASSWORD },
      { headers: { 'x-auth-return-redirect': '1' } },
    );
    expect(JSON.stringify(await blocked.json())).toContain('code=rate_limited');
    expect(browser.sessionCookie()).toBeUndefined();
  });
});

describe('verify and reset links', () => {
  it('verifies the address once; the link is stored hashed', async () => {
    const browser = new Browser();
    const email = newEmail();
    await signedInUser(browser, email);
    const token = await linkToken(email, 'verify');
    const stored = await env.DB.prepare('select token from verification_tokens where identifier like ?')
      .bind('verify:%')
      .all<{ token: string }>();
    expect(stored.results.map((r) => r.token)).not.toContain(token);
    expect(stored.results.every((r) => /^[0-9a-f]{64}$/.test(r.token))).toBe(true);

    expect((await browser.post('/account/verify-email', { token })).status).toBe(200);
    expect((await browser.session()).user?.emailVerified).toBe(true);
    const again = await browser.post('/account/verify-email', { token });
    expect(again.status).toBe(400);
    expect((await errorOf(again)).code).toBe('invalid_token');
  });

  it('resets the password through a single-use link, ending every session', async () => {
    const email = newEmail();
    const browser = new Browser();
    await signedInUser(browser, email);
    const forgot = await new Browser().post('/account/forgot-password', { email });
    const unknown = await new Browser().post('/account/forgot-password', { email: newEmail('nobody') });
    expect(forgot.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await unknown.json()).toEqual(await forgot.json());

    const token = await linkToken(email, 'reset');
    // The page asks whether the link works as it opens; asking does not use it.
    const check = () => new Browser().post('/account/reset-password/check', { token });
    expect((await check()).status).toBe(200);
    expect((await check()).status).toBe(200);
    const weak = await new Browser().post('/account/reset-password', { token, password: 'password1' });
    expect(weak.status).toBe(400);
    const reset = await new Browser().post('/account/reset-password', { token, password: 'a fresh passphrase' });
    expect(reset.status).toBe(200);
    expect((await new Browser().post('/account/reset-password', { token, password: 'another passphrase' })).status).toBe(400);
    const usedCheck = await check();
    expect(usedCheck.status).toBe(400);
    expect((await usedCheck.json<ErrorJson>()).error.code).toBe('invalid_token');
    expect((await browser.session()).user).toBeNull(); // the old session ended
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(401);
    expect((await new Browser().post('/account/sign-in', { email, password: 'a fresh passphrase' })).status).toBe(200);
  });

  it('a reset link expires after an hour, and only the newest one works', async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    await new Browser().post('/account/forgot-password', { email });
    const older = await linkToken(email, 'reset');
    await new Browser().post('/account/forgot-password', { email });
    const newer = await linkToken(email, 'reset');
    expect((await new Browser().post('/account/reset-password', { token: older, password: 'a fresh passphrase' })).status).toBe(
      400,
    );
    expect((await new Browser().post('/account/reset-password/check', { token: older })).status).toBe(400);
    expect((await new Browser().post('/account/reset-password/check', { token: newer })).status).toBe(200);
    const row = await env.DB.prepare(
      "select expires from verification_tokens where identifier like 'reset:%' order by expires desc",
    ).first<{ expires: number }>();
    expect(row!.expires - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(row!.expires - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    await env.DB.prepare("update verification_tokens set expires = ? where identifier like 'reset:%'")
      .bind(Date.now() - 1000)
      .run();
    expect((await new Browser().post('/account/reset-password/check', { token: newer })).status).toBe(400);
    expect((await new Browser().post('/account/reset-password', { token: newer, password: 'a fresh passphrase' })).status).toBe(
      400,
    );
  });

  it('a verify link is no reset link, and a malformed one is named: the check refuses both', async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const verify = await linkToken(email, 'verify');
    const asReset = await new Browser().post('/account/reset-password/check', { token: verify });
    expect(asReset.status).toBe(400);
    expect((await asReset.json<ErrorJson>()).error.code).toBe('invalid_token');
    const malformed = await new Browser().post('/account/reset-password/check', { token: 'short' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['token']);
  });
});

describe('ending sessions', () => {
  it('a password change ends every other session and keeps this one', async () => {
    const email = newEmail();
    const laptop = new Browser();
    await signedInUser(laptop, email);
    const phone = new Browser();
    expect((await phone.post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    const stolen = laptop.clone(); // the laptop's cookie as it was before the change

    const wrong = await laptop.post('/account/password', {
      currentPassword: 'not it at all',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).issues?.[0]?.field).toBe('currentPassword');

    const changed = await laptop.post('/account/password', { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    expect((await laptop.session()).user?.email).toBe(email);
    expect((await phone.session()).user).toBeNull();
    expect((await stolen.session()).user).toBeNull();
    expect((await stolen.get('/account/profile')).status).toBe(401);
    // Auth.js's own session endpoint agrees.
    expect(await (await stolen.get('/auth/session')).json()).toBeNull();
    expect((await emailsTo(email)).map((e) => e.kind)).toContain('account_password_changed');
  });

  it('"sign out other devices" ends the others only', async () => {
    const email = newEmail();
    const one = new Browser();
    await signedInUser(one, email);
    const two = new Browser();
    await two.post('/account/sign-in', { email, password: PASSWORD });
    expect((await one.post('/account/sign-out-others')).status).toBe(200);
    expect((await one.session()).user?.email).toBe(email);
    expect((await two.session()).user).toBeNull();
    expect((await new Browser().post('/account/sign-out-others')).status).toBe(401);
  });
});
