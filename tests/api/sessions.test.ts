import { encode } from '@auth/core/jwt';
import { env } from 'cloudflare:workers';
import { readConfig } from '../../functions/env.ts';
import { describe, expect, it } from 'vitest';
import { pruneExpiredSessions, startSession } from '../../functions/accounts/session.ts';
import { openDb } from '../../functions/platform/db.ts';
import { accountApi } from '../../src/features/account/account-api.ts';
import { Browser, errorOf, linkToken, newEmail, PASSWORD, sessionRows, signedInUser } from './account-helpers.ts';

/**
 * Issue 20, finding 5 and deliverable 4: a session is a row in D1, and ending it on the
 * server ends it for every copy of its cookie.
 */

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

async function signInFrom(email: string, userAgent: string) {
  const browser = new Browser();
  const response = await browser.post('/account/sign-in', { email, password: PASSWORD }, { 'user-agent': userAgent });
  expect(response.status).toBe(200);
  return browser;
}

async function listed(browser: Browser) {
  const response = await browser.get('/account/sessions');
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return accountApi.sessions.response.parse(await response.json()).sessions;
}

describe('sign-out ends the session on the server', () => {
  it('a cookie copied before sign-out answers 401 afterwards', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    const copy = browser.clone();
    expect((await copy.get('/account/profile')).status).toBe(200);
    expect((await browser.post('/account/sign-out')).status).toBe(200);
    expect((await copy.get('/account/profile')).status).toBe(401);
    expect((await copy.session()).user).toBeNull();
    expect(await sessionRows(userId)).toEqual([]);
  });

  it('Auth.js’s own sign-out ends the row too', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    const copy = browser.clone();
    const out = await browser.authForm('/signout', { callbackUrl: '/' });
    expect(out.status).toBe(302);
    expect((await copy.get('/account/profile')).status).toBe(401);
    expect(await sessionRows(userId)).toEqual([]);
  });

  it('a cookie without a session id (made before sessions were rows) is a guest’s', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    const name = 'authjs.session-token';
    const token = await encode({ token: { sub: userId, sv: 1 }, secret: readConfig(env).AUTH_SECRET!, salt: name, maxAge: 3600 });
    const forged = new Browser();
    forged.cookies.set(name, token);
    expect((await forged.get('/account/profile')).status).toBe(401);
  });

  it('an expired row is refused, and the cron deletes it', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    await env.DB.prepare('update sessions set expires_at = unixepoch() - 1 where user_id = ?').bind(userId).run();
    expect((await browser.get('/account/profile')).status).toBe(401);
    expect(await pruneExpiredSessions(openDb(env.DB), new Date())).toBeGreaterThanOrEqual(1);
    expect(await sessionRows(userId)).toEqual([]);
  });

  it('last seen is refreshed after a few minutes, not on every request', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    const [row] = await sessionRows(userId);
    await browser.get('/account/profile');
    expect((await sessionRows(userId))[0]!.last_seen_at).toBe(row!.last_seen_at);
    await env.DB.prepare('update sessions set last_seen_at = unixepoch() - 3600 where user_id = ?').bind(userId).run();
    await browser.get('/account/profile');
    const [after] = await sessionRows(userId);
    expect(after!.last_seen_at).toBeGreaterThan(Math.floor(Date.now() / 1000) - 60);
  });
});

describe('where you are signed in', () => {
  it('lists this user’s sessions with a coarse label, the current one marked; never another user’s', async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const phone = await signInFrom(email, ANDROID_CHROME);
    const laptop = await signInFrom(email, MAC_SAFARI);
    const stranger = new Browser();
    await signedInUser(stranger);

    const sessions = await listed(phone);
    expect(sessions).toHaveLength(3);
    const labels = sessions.map((s) => s.label);
    expect(labels).toContain('Chrome on Android');
    expect(labels).toContain('Safari on macOS');
    expect(sessions.filter((s) => s.current).map((s) => s.label)).toEqual(['Chrome on Android']);
    // Nothing more than the coarse label: no user agent, no address.
    expect(JSON.stringify(sessions)).not.toContain('AppleWebKit');
    expect((await listed(laptop)).filter((s) => s.current).map((s) => s.label)).toEqual(['Safari on macOS']);
    expect(await listed(stranger)).toHaveLength(1);
    expect((await new Browser().get('/account/sessions')).status).toBe(401);
  });

  it('ends one of my sessions by its id; that browser is signed out', async () => {
    const email = newEmail();
    const main = new Browser();
    await signedInUser(main, email);
    const phone = await signInFrom(email, ANDROID_CHROME);
    const target = (await listed(main)).find((s) => s.label === 'Chrome on Android')!;
    const ended = await main.post(`/account/sessions/${target.id}/sign-out`);
    expect(ended.status).toBe(200);
    expect((await phone.get('/account/profile')).status).toBe(401);
    expect((await main.get('/account/profile')).status).toBe(200);
    expect(await listed(main)).toHaveLength(1);
  });

  it('another user’s session id answers 404 like an unknown one, and that session lives on', async () => {
    const victim = new Browser();
    const victimId = await signedInUser(victim);
    const [victimSession] = await sessionRows(victimId);
    const attacker = new Browser();
    await signedInUser(attacker);

    const theirs = await attacker.post(`/account/sessions/${victimSession!.id}/sign-out`);
    const unknown = await attacker.post(`/account/sessions/${crypto.randomUUID()}/sign-out`);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await errorOf(theirs)).toEqual(await errorOf(unknown));
    expect((await victim.get('/account/profile')).status).toBe(200);
    expect(await sessionRows(victimId)).toHaveLength(1);
  });

  it('refuses cross-site requests to end sessions', async () => {
    const browser = new Browser();
    const userId = await signedInUser(browser);
    const [row] = await sessionRows(userId);
    const evil = { origin: 'https://evil.example' };
    expect((await browser.post(`/account/sessions/${row!.id}/sign-out`, undefined, evil)).status).toBe(403);
    expect((await browser.post('/account/sign-out-all', undefined, evil)).status).toBe(403);
    expect(await sessionRows(userId)).toHaveLength(1);
  });

  it('sign out everywhere ends every session, this one too', async () => {
    const email = newEmail();
    const main = new Browser();
    const userId = await signedInUser(main, email);
    const phone = await signInFrom(email, ANDROID_CHROME);
    const copy = main.clone();
    const out = await main.post('/account/sign-out-all');
    expect(out.status).toBe(200);
    for (const browser of [main, phone, copy]) expect((await browser.get('/account/profile')).status).toBe(401);
    expect(await sessionRows(userId)).toEqual([]);
  });

  it('sign out other devices deletes the others’ rows and keeps this one', async () => {
    const email = newEmail();
    const main = new Browser();
    const userId = await signedInUser(main, email);
    const phone = await signInFrom(email, ANDROID_CHROME);
    expect((await main.post('/account/sign-out-others')).status).toBe(200);
    expect((await phone.get('/account/profile')).status).toBe(401);
    expect((await main.get('/account/profile')).status).toBe(200);
    const rows = await sessionRows(userId);
    expect(rows).toHaveLength(1);
    expect((await listed(main)).map((s) => s.current)).toEqual([true]);
  });
});

describe('a sign-in whose password was checked before a reset', () => {
  it('gets no session: one is started only while the user is at the version the password was checked at', async () => {
    const email = newEmail('race');
    const userId = await signedInUser(new Browser(), email);
    const db = openDb(env.DB);
    const version = async () =>
      (await env.DB.prepare('select session_version as v from users where id = ?').bind(userId).first<{ v: number }>())!.v;
    const checkedAt = await version();
    // The reset lands between the password check and the session's start.
    await env.DB.prepare('update users set session_version = session_version + 1 where id = ?').bind(userId).run();
    const before = (await sessionRows(userId)).length;
    await startSession(db, userId, checkedAt, MAC_SAFARI);
    expect(await sessionRows(userId)).toHaveLength(before);
    // At the version now, it starts.
    await startSession(db, userId, await version(), MAC_SAFARI);
    expect(await sessionRows(userId)).toHaveLength(before + 1);
  });

  it('password changes racing the owner’s reset never put the thief’s password back', async () => {
    const email = newEmail('change-race');
    await signedInUser(new Browser(), email);
    const thief = new Browser();
    expect((await thief.post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect((await new Browser().post('/account/forgot-password', { email })).status).toBe(202);
    const token = await linkToken(email, 'reset');
    // The thief re-sets the stolen password again and again while the owner resets it.
    const changes = Array.from({ length: 6 }, () =>
      thief.post('/account/password', { currentPassword: PASSWORD, newPassword: PASSWORD }),
    );
    const reset = await new Browser().post('/account/reset-password', { token, password: 'the owner’s new passphrase' });
    expect(reset.status).toBe(200);
    for (const change of await Promise.all(changes)) expect([200, 401]).toContain(change.status);
    expect((await new Browser().post('/account/sign-in', { email, password: 'the owner’s new passphrase' })).status).toBe(200);
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(401);
    expect((await thief.session()).user).toBeNull();
  });

  it('sign-ins racing the owner’s reset: none of them is signed in afterwards', async () => {
    const email = newEmail('racing');
    await signedInUser(new Browser(), email);
    expect((await new Browser().post('/account/forgot-password', { email })).status).toBe(202);
    const token = await linkToken(email, 'reset');
    // A thief with the old password keeps signing in while the owner resets it.
    const thieves = Array.from({ length: 8 }, () => new Browser());
    const signIns = thieves.map((thief) => thief.post('/account/sign-in', { email, password: PASSWORD }));
    const reset = await new Browser().post('/account/reset-password', { token, password: 'the owner’s new passphrase' });
    expect(reset.status).toBe(200);
    await Promise.all(signIns);
    for (const thief of thieves) expect((await thief.session()).user).toBeNull();
    expect((await new Browser().post('/account/sign-in', { email, password: 'the owner’s new passphrase' })).status).toBe(200);
  });
});
