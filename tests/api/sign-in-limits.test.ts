import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { clearSignInFailures } from '../../functions/accounts/credentials.ts';
import { trustDevice } from '../../functions/accounts/device.ts';
import { hashPassword } from '../../functions/accounts/password.ts';
import { openDb } from '../../functions/platform/db.ts';
import { users } from '../../functions/platform/schema.ts';
import { readConfig } from '../../functions/env.ts';
import type { AppEnv } from '../../functions/platform/app.ts';
import { Browser, linkToken, ORIGIN, newEmail, PASSWORD, signedInUser } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import type { ErrorJson } from './client.ts';

/** The production figures (functions/env.ts defaults): the API tests' config raises them out of the way. */
const LIMITS = { RATE_LIMIT_SIGN_IN_EMAIL: '10/900', RATE_LIMIT_SIGN_IN_PAIR: '5/900', RATE_LIMIT_SIGN_IN_CLIENT: '20/900' };
const UNTRUSTED_LIMIT = 10;

const DEVICE_COOKIE = 'gts-device';

/** A stranger: a fresh browser (no cookies) from its own client address. */
let strangers = 0;
function stranger(vars: Record<string, string> = LIMITS): Browser {
  strangers++;
  return new Browser(undefined, vars, `198.18.${Math.floor(strangers / 250)}.${(strangers % 250) + 1}`);
}

const signIn = (browser: Browser, email: string, password: string) => browser.post('/account/sign-in', { email, password });

/** `count` wrong passwords for `email` sent at once, each from another stranger: answers their statuses. */
async function parallelGuesses(email: string, count: number, vars: Record<string, string> = LIMITS): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => signIn(stranger(vars), email, `wrong guess ${i}`)));
  return answers.map((r) => r.status);
}

const tally = (statuses: number[]) => ({
  checked: statuses.filter((s) => s === 401 || s === 200).length,
  refused: statuses.filter((s) => s === 429).length,
  other: statuses.filter((s) => s !== 401 && s !== 200 && s !== 429),
});

/** The owner: signed up, then signed in once from their own browser, which so holds a device cookie. */
async function ownerWithDevice(vars: Record<string, string> = LIMITS, ip = '192.0.2.10') {
  const email = newEmail('owner');
  await signedInUser(new Browser(), email);
  const device = new Browser(undefined, vars, ip);
  expect((await signIn(device, email, PASSWORD)).status).toBe(200);
  expect(device.cookies.get(DEVICE_COOKIE)).toBeTruthy();
  return { email, device };
}

/**
 * A request through our own Hono context (the app's db and config) that runs the calls the
 * reset route makes after a reset link is used, and hands the browser the cookie they set.
 */
async function provedAddress(browser: Browser, email: string) {
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('db', openDb(env.DB));
      c.set('config', readConfig({ ...env, ...browser.vars } as Env));
      await next();
    })
    .post('/proved', async (c) => {
      await clearSignInFailures(c, email);
      const [account] = await c.var.db.select().from(users).where(eq(users.email, email));
      await trustDevice(c, account!);
      return c.body(null, 204);
    })
    // A failure shows its stack in the assertion below.
    .onError((e) => new Response(String(e?.stack ?? e), { status: 500 }));
  const response = await app.request(`${ORIGIN}/proved`, { method: 'POST', headers: { cookie: browser.cookieHeader() } }, env);
  expect(response.status, await response.clone().text()).toBe(204);
  browser.remember(response);
}

describe('sign-in attempts are counted before the password is checked (issue 20, finding 2)', () => {
  it('30 guesses at once from 30 clients: at most the limit are checked, the rest get 429, and then the right password from a new browser too', async () => {
    const email = newEmail('target');
    await signedInUser(new Browser(), email);
    const first = tally(await parallelGuesses(email, 30));
    expect(first.other).toEqual([]);
    expect(first.checked).toBeLessThanOrEqual(UNTRUSTED_LIMIT);
    expect(first.refused).toBeGreaterThanOrEqual(30 - UNTRUSTED_LIMIT);

    // The right password among a second wave, and after it, from browsers that never signed in: refused.
    const wave = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => signIn(stranger(), email, `second wave ${i}`)),
      signIn(stranger(), email, PASSWORD),
      ...Array.from({ length: 5 }, (_, i) => signIn(stranger(), email, `second wave ${i + 5}`)),
    ]);
    expect(wave.map((r) => r.status)).toEqual(Array(11).fill(429));
    const after = await signIn(stranger(), email, PASSWORD);
    expect(after.status).toBe(429);
    expect(after.headers.getSetCookie().join()).not.toContain('session-token');
    const retryAfter = Number(after.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // At most two windows: the one the failures are in, and the next while they fade (decision 010).
    expect(retryAfter).toBeLessThanOrEqual(1800);
    const { error } = await after.json<ErrorJson>();
    expect(error.code).toBe('rate_limited');
    // It tells the owner what to do: wait, or reset the password.
    expect(error.message).toMatch(/wait (\d+ minutes|a minute|\d+ seconds?)/);
    expect(error.message).toMatch(/reset your password/);
  });

  it('a window boundary gives no second round: 30 guesses a second before it and 30 a second after, at most the limit checked in all', async () => {
    const email = newEmail('boundary');
    await signedInUser(new Browser(), email);
    const windowMs = 900 * 1000;
    const boundary = Math.ceil(Date.now() / windowMs) * windowMs;
    // The limiter reads the clock the test sets (Date only: D1 and the Worker's timers keep real time).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(boundary - 1000);
      const before = tally(await parallelGuesses(email, 30));
      vi.setSystemTime(boundary + 1000);
      const after = tally(await parallelGuesses(email, 30));
      expect([...before.other, ...after.other]).toEqual([]);
      // A fixed window let another 10 in here (the CI run of 9f7f627 met it by chance).
      expect(before.checked + after.checked).toBeLessThanOrEqual(UNTRUSTED_LIMIT);
      expect(after.refused).toBe(30);
      expect((await signIn(stranger(), email, PASSWORD)).status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });

  it('one client sending 30 guesses at once for one address gets only the pair limit checked', async () => {
    const email = newEmail('target');
    await signedInUser(new Browser(), email);
    const client = new Browser(undefined, LIMITS, '192.0.2.77');
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(client.clone(), email, `same client ${i}`)))
    ).map((r) => r.status);
    expect(tally(statuses)).toEqual({ checked: 5, refused: 25, other: [] });
  });

  it('a successful sign-in takes its attempt back: an owner who signs in again and again is never limited', async () => {
    const email = newEmail('regular');
    await signedInUser(new Browser(), email);
    const vars = { ...LIMITS, RATE_LIMIT_SIGN_IN_EMAIL: '2/900', RATE_LIMIT_SIGN_IN_PAIR: '2/900' };
    for (let i = 0; i < 6; i++)
      expect((await signIn(new Browser(undefined, vars, '192.0.2.20'), email, PASSWORD)).status).toBe(200);
    // A typo, then the right password, from the same place: the typo is forgiven.
    const browser = new Browser(undefined, vars, '192.0.2.20');
    expect((await signIn(browser, email, 'a typo in it')).status).toBe(401);
    expect((await signIn(browser, email, PASSWORD)).status).toBe(200);
    const { results } = await env.DB.prepare("select count from rate_limits where key like 'signin.fail.pair:%:192.0.2.20'").all<{
      count: number;
    }>();
    expect(results.reduce((sum, r) => sum + r.count, 0)).toBe(0);
  });
});

describe('strangers cannot lock the owner out (issue 20, finding 3)', () => {
  it('the owner signs in on a browser they signed in on before while 30 strangers guess at once', async () => {
    const { email, device } = await ownerWithDevice();
    const attack = tally(await parallelGuesses(email, 30));
    expect(attack.checked).toBeLessThanOrEqual(UNTRUSTED_LIMIT);
    // Strangers are refused now ...
    expect((await signIn(stranger(), email, PASSWORD)).status).toBe(429);
    // ... the owner's device is not, nor is it from another network (a phone moving between carriers).
    expect((await signIn(device, email, PASSWORD)).status).toBe(200);
    expect(device.sessionCookie()).toBeTruthy();
    const roaming = new Browser(undefined, LIMITS, '203.0.113.200');
    roaming.cookies.set(DEVICE_COOKIE, device.cookies.get(DEVICE_COOKIE)!);
    expect((await signIn(roaming, email, PASSWORD)).status).toBe(200);
  });

  it('5 wrong passwords from strangers do not lock the owner’s device', async () => {
    const vars = { ...LIMITS, RATE_LIMIT_SIGN_IN_EMAIL: '5/900' };
    const { email, device } = await ownerWithDevice(vars);
    for (let i = 0; i < 5; i++) expect((await signIn(stranger(vars), email, `stranger ${i}`)).status).toBe(401);
    expect((await signIn(stranger(vars), email, PASSWORD)).status).toBe(429);
    expect((await signIn(device, email, PASSWORD)).status).toBe(200);
  });

  it('the owner’s own device is limited too, on its own counter', async () => {
    const { email, device } = await ownerWithDevice();
    for (let i = 0; i < 5; i++) expect((await signIn(device.clone(), email, `forgot it ${i}`)).status).toBe(401);
    expect((await signIn(device.clone(), email, PASSWORD)).status).toBe(429);
    // Strangers' unknown-device bucket was not touched by it.
    expect((await signIn(stranger(), email, PASSWORD)).status).toBe(200);
  });

  it('a forged device cookie, or one earned for another address, gives no exemption', async () => {
    const vars = { ...LIMITS, RATE_LIMIT_SIGN_IN_EMAIL: '3/900' };
    const { email, device } = await ownerWithDevice(vars);
    for (let i = 0; i < 3; i++) expect((await signIn(stranger(vars), email, `stranger ${i}`)).status).toBe(401);

    // The attacker's own account's device cookie.
    const { device: attackerDevice } = await ownerWithDevice(vars, '198.51.100.66');
    expect((await signIn(attackerDevice, email, PASSWORD)).status).toBe(429);
    // Made up: a random id and tag.
    const forged = stranger(vars);
    forged.cookies.set(DEVICE_COOKIE, `${'A'.repeat(22)}.${'0'.repeat(64)}`);
    expect((await signIn(forged, email, PASSWORD)).status).toBe(429);
    // The owner's tag moved onto another device id.
    const [, ownerTag] = device.cookies.get(DEVICE_COOKIE)!.split('.');
    const moved = stranger(vars);
    moved.cookies.set(DEVICE_COOKIE, `${'B'.repeat(22)}.${ownerTag}`);
    expect((await signIn(moved, email, PASSWORD)).status).toBe(429);
    // The owner's own cookie, sent from the same stranger's client, still works.
    const copied = stranger(vars);
    copied.cookies.set(DEVICE_COOKIE, device.cookies.get(DEVICE_COOKIE)!);
    expect((await signIn(copied, email, PASSWORD)).status).toBe(200);
  });

  it('device cookies earned on an account set up before the owner proved the address give no exemption once they do', async () => {
    // Someone signs up the owner's address (unproven) and signs in from three browsers: three device cookies.
    const email = newEmail('claimed');
    await signedInUser(new Browser(), email, 'squatter passphrase 1');
    const squatters = [stranger(), stranger(), stranger()];
    for (const browser of squatters) {
      expect((await signIn(browser, email, 'squatter passphrase 1')).status).toBe(200);
      expect(browser.cookies.get(DEVICE_COOKIE)).toBeTruthy();
    }
    // The owner claims the address with a reset link from their own browser.
    const owner = new Browser(undefined, LIMITS, '192.0.2.60');
    expect((await owner.post('/account/forgot-password', { email })).status).toBe(202);
    const token = await linkToken(email, 'reset');
    expect((await owner.post('/account/reset-password', { token, password: PASSWORD })).status).toBe(200);

    // Strangers use up the unknown devices' allowance ...
    const attack = tally(await parallelGuesses(email, UNTRUSTED_LIMIT));
    expect(attack).toEqual({ checked: UNTRUSTED_LIMIT, refused: 0, other: [] });
    // ... and the old cookies are unknown devices now: refused with the rest, even with the right password.
    for (const browser of squatters) {
      expect((await signIn(browser.clone(), email, `one more guess ${strangers}`)).status).toBe(429);
      expect((await signIn(browser.clone(), email, PASSWORD)).status).toBe(429);
    }
    // The owner's browser, trusted by the reset, is not.
    expect((await signIn(owner, email, PASSWORD)).status).toBe(200);
  });

  it('a password change ends the other browsers’ trust and keeps this one’s; "sign out other devices" too', async () => {
    const { email, device: here } = await ownerWithDevice(LIMITS, '192.0.2.70');
    const elsewhere = new Browser(undefined, LIMITS, '192.0.2.71');
    expect((await signIn(elsewhere, email, PASSWORD)).status).toBe(200);
    const lost = new Browser(undefined, LIMITS, '192.0.2.72');
    expect((await signIn(lost, email, PASSWORD)).status).toBe(200);
    const oldCookie = lost.cookies.get(DEVICE_COOKIE)!;

    // "Sign out other devices" on `here`: `lost` is an unknown device from now on, `here` is not.
    expect((await here.post('/account/sign-out-others')).status).toBe(200);
    // The password changed on `elsewhere` (signed in again): `here` loses its trust too.
    expect((await signIn(elsewhere, email, PASSWORD)).status).toBe(200);
    const changed = await elsewhere.post('/account/password', {
      currentPassword: PASSWORD,
      newPassword: 'the next passphrase 2',
    });
    expect(changed.status, await changed.clone().text()).toBe(200);

    expect(tally(await parallelGuesses(email, UNTRUSTED_LIMIT)).checked).toBe(UNTRUSTED_LIMIT);
    const withOld = stranger();
    withOld.cookies.set(DEVICE_COOKIE, oldCookie);
    expect((await signIn(withOld, email, 'the next passphrase 2')).status).toBe(429);
    expect((await signIn(here.clone(), email, 'the next passphrase 2')).status).toBe(429);
    expect((await signIn(elsewhere.clone(), email, 'the next passphrase 2')).status).toBe(200);
  });

  it('the device cookie is HttpOnly, SameSite=Lax, long-lived, names no address, and Secure with __Host- over https', async () => {
    const email = newEmail('cookie');
    await signedInUser(new Browser(), email);
    const plain = await signIn(new Browser(), email, PASSWORD);
    const header = plain.headers.getSetCookie().find((h) => h.startsWith(`${DEVICE_COOKIE}=`));
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Max-Age=31536000/i);
    expect(header).not.toMatch(/;\s*Secure/i);
    expect(header).not.toContain(email.split('@')[0]);

    const secure = await signIn(new Browser('https://localhost:8787'), email, PASSWORD);
    const secureHeader = secure.headers.getSetCookie().find((h) => h.startsWith('__Host-gts-device='));
    expect(secureHeader).toMatch(/;\s*Secure/i);
    expect(secureHeader).toMatch(/Path=\//);
    expect(secureHeader).not.toMatch(/Domain=/i);
  });

  it('clearSignInFailures and trustDevice (what a reset or a password change calls) let the new password in at once', async () => {
    const email = newEmail('reset');
    await signedInUser(new Browser(), email);
    const browser = new Browser(undefined, LIMITS, '192.0.2.30');
    // Strangers fill every counter this address has, and the owner's own pair too.
    await parallelGuesses(email, 30);
    for (let i = 0; i < 5; i++) await signIn(browser.clone(), email, `owner typo ${i}`);
    expect((await signIn(browser.clone(), email, PASSWORD)).status).toBe(429);

    // What the reset route does once its link is used: the new password, then the two calls.
    await env.DB.prepare('update users set password_hash = ? where email = ?')
      .bind(await hashPassword('a brand new passphrase'), email)
      .run();
    await provedAddress(browser, email);
    expect((await signIn(browser, email, 'a brand new passphrase')).status).toBe(200);
    // And from a browser that never signed in, once strangers stop.
    expect((await signIn(new Browser(undefined, LIMITS, '192.0.2.31'), email, 'a brand new passphrase')).status).toBe(200);
  });

  it('a reset link used during an attack: the new password works at once in that browser, and the failures are gone', async () => {
    const email = newEmail('reset-route');
    await signedInUser(new Browser(), email);
    const owner = new Browser(undefined, LIMITS, '192.0.2.50');
    await parallelGuesses(email, 30);
    for (let i = 0; i < 5; i++) await signIn(owner.clone(), email, `owner typo ${i}`);
    const locked = await signIn(owner.clone(), email, PASSWORD);
    expect(locked.status).toBe(429);

    expect((await owner.post('/account/forgot-password', { email })).status).toBe(202);
    const token = await linkToken(email, 'reset');
    expect((await owner.post('/account/reset-password', { token, password: 'a brand new passphrase' })).status).toBe(200);
    expect(owner.cookies.get(DEVICE_COOKIE)).toBeTruthy();
    expect((await signIn(owner, email, 'a brand new passphrase')).status).toBe(200);
    expect((await signIn(new Browser(undefined, LIMITS, '192.0.2.51'), email, 'a brand new passphrase')).status).toBe(200);
  });

  it('the admin account is protected the same way: no exemption, and the admin’s device still gets in', async () => {
    const { email } = await signedInAdmin();
    const device = new Browser(undefined, LIMITS, '192.0.2.40');
    expect((await signIn(device, email, PASSWORD)).status).toBe(200);
    const attack = tally(await parallelGuesses(email, 30));
    expect(attack.checked).toBeLessThanOrEqual(UNTRUSTED_LIMIT);
    expect(attack.refused).toBeGreaterThanOrEqual(30 - UNTRUSTED_LIMIT);
    expect((await signIn(stranger(), email, PASSWORD)).status).toBe(429);
    expect((await signIn(device, email, PASSWORD)).status).toBe(200);
    const me = z.object({ user: z.object({ role: z.string() }) }).parse(await (await device.get('/session')).json());
    expect(me.user.role).toBe('admin');
  });
});

describe('an IPv6 site is one client for the limits (issue 20, finding 11)', () => {
  it('failed sign-ins from many /64s of one /48 are limited together, at 8 times the per-client limit', async () => {
    const vars = { RATE_LIMIT_SIGN_IN_CLIENT: '2/900' };
    const site = (n: number) => new Browser(undefined, vars, `2001:db8:77:${n.toString(16)}::1`);
    const statuses: number[] = [];
    for (let n = 0; n < 20; n++) statuses.push((await signIn(site(n), newEmail(), 'guess guess')).status);
    expect(statuses.slice(0, 16)).toEqual(Array(16).fill(401));
    expect(statuses.slice(16)).toEqual(Array(4).fill(429));
    // Another /48 is not held back.
    expect((await signIn(new Browser(undefined, vars, '2001:db8:78:1::1'), newEmail(), 'guess guess')).status).toBe(401);
    // One /64 alone still has its own limit.
    const one = new Browser(undefined, vars, '2001:db8:79:1::1');
    expect((await signIn(one, newEmail(), 'guess')).status).toBe(401);
    expect((await signIn(new Browser(undefined, vars, '2001:db8:79:1::2'), newEmail(), 'guess')).status).toBe(401);
    expect((await signIn(new Browser(undefined, vars, '2001:db8:79:1:ffff::9'), newEmail(), 'guess')).status).toBe(429);
  });
});
