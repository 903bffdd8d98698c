import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { accountApi } from '../../src/features/account/account-api.ts';
import type { PlacedOrder } from '../../src/features/orders/order-view.ts';
import {
  Browser,
  emailsTo,
  errorOf,
  googleAccounts,
  googleSignIn,
  linkToken,
  newEmail,
  PASSWORD,
  STANDIN,
  sessionRows,
  signedInUser,
  userRow,
} from './account-helpers.ts';
import { orderRequest } from './orders-helpers.ts';

/**
 * Issue 20, finding 1: an address belongs to whoever proves it. The attacker signs up with
 * the victim's address and their own password before the victim does; whichever way the
 * victim then proves the address (the verify link, a reset link, Google), everything the
 * attacker set up before the proof stops working, and they never see what the address
 * brings in (the victim's guest orders, with name, phone and home address).
 */

const ATTACKER_PASSWORD = 'attacker chose this one';
const VICTIM_PASSWORD = 'victim passphrase 2026';

/** The victim's guest order, placed before any account had their address. */
async function guestOrder(email: string): Promise<PlacedOrder> {
  const request = orderRequest();
  const response = await new Browser().post('/orders', {
    ...request,
    customer: { ...request.customer, email, address: '7 Private Road' },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

async function orderNumbers(browser: Browser): Promise<string[] | number> {
  const response = await browser.get('/account/orders');
  if (response.status !== 200) return response.status;
  return accountApi.orders.response.parse(await response.json()).orders.map((o) => o.number);
}

/** The attacker's head start: an account with the victim's address and a live session. */
/** A profile filled in before the address is proven (by its owner, or by someone in their name). */
const PLANTED_PROFILE = {
  name: 'Ada Obi',
  phone: '0809 999 0000',
  address: '5 Attacker Close, Off Ogba Road',
  city: 'Ikeja',
  state: 'Lagos',
  notifications: { orderUpdates: false, promotions: true },
};

async function attackerFirst(email: string) {
  const attacker = new Browser();
  const userId = await signedInUser(attacker, email, ATTACKER_PASSWORD);
  // Unverified: nothing the address brings in has joined the account.
  expect(await orderNumbers(attacker)).toEqual([]);
  return { attacker, userId };
}

/** Everything the attacker set up before the proof is dead. */
async function expectAttackerLockedOut(attacker: Browser, email: string) {
  expect(await orderNumbers(attacker)).toBe(401);
  expect((await attacker.session()).user).toBeNull();
  expect((await attacker.get('/account/profile')).status).toBe(401);
  const again = await new Browser().post('/account/sign-in', { email, password: ATTACKER_PASSWORD });
  expect(again.status).toBe(401);
}

const addressConfirmedEmails = async (email: string) =>
  (await emailsTo(email)).filter((e) => e.kind === 'account_address_confirmed');

describe('the verify link', () => {
  it('opened by the real owner in another browser: the attacker’s password and session die, and never saw the guest order', async () => {
    const email = newEmail('victim');
    const guest = await guestOrder(email);
    const { attacker, userId } = await attackerFirst(email);
    // The attacker fills the profile the checkout starts from: their phone and delivery address.
    expect((await attacker.post('/account/profile', PLANTED_PROFILE)).status).toBe(200);
    const token = await linkToken(email, 'verify');

    // The victim opens the link: no session, no password of theirs. Refused, naming the field.
    const victim = new Browser();
    const bare = await victim.post('/account/verify-email', { token });
    expect(bare.status).toBe(400);
    const refusal = await errorOf(bare);
    expect(refusal.issues?.map((i) => i.field)).toEqual(['password']);
    expect(refusal.message).toMatch(/new password/i);
    // Guessing the sign-up password is refused the same way, and the link survives both tries.
    const guessed = await victim.post('/account/verify-email', { token, password: 'not the one they chose' });
    expect(guessed.status).toBe(400);
    expect((await errorOf(guessed)).issues?.map((i) => i.field)).toEqual(['password']);
    expect((await userRow(email))!.email_verified).toBeNull();
    expect(await orderNumbers(attacker)).toEqual([]);

    // The victim claims the address with a password of their own.
    const claimed = await victim.post('/account/verify-email', { token, newPassword: VICTIM_PASSWORD });
    expect(claimed.status, await claimed.clone().text()).toBe(200);
    expect((await victim.session()).user).toMatchObject({ id: userId, email, emailVerified: true });
    expect(await orderNumbers(victim)).toEqual([guest.order.number]);

    await expectAttackerLockedOut(attacker, email);
    // What the attacker typed into the profile went with them.
    expect((await (await victim.get('/account/profile')).json<{ profile: unknown }>()).profile).toMatchObject({
      name: null,
      phone: null,
      address: null,
      city: null,
      state: null,
      notifications: { orderUpdates: true, promotions: false },
    });
    expect((await new Browser().post('/account/sign-in', { email, password: VICTIM_PASSWORD })).status).toBe(200);
    expect(await addressConfirmedEmails(email)).toHaveLength(1);
    // Only the sessions started since the proof are left: this browser's and the sign-in just now.
    expect(await sessionRows(userId)).toHaveLength(2);
  });

  it('a refused attempt leaves the link usable; a used link is refused', async () => {
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const token = await linkToken(email, 'verify');
    expect((await new Browser().post('/account/verify-email', { token })).status).toBe(400);
    expect((await new Browser().post('/account/verify-email', { token, password: 'wrong password here' })).status).toBe(400);
    expect((await new Browser().post('/account/verify-email', { token, password: PASSWORD })).status).toBe(200);
    const again = await new Browser().post('/account/verify-email', { token, password: PASSWORD });
    expect(again.status).toBe(400);
    expect((await errorOf(again)).code).toBe('invalid_token');
  });

  it('wrong passwords at the link count as failed sign-ins', async () => {
    const limits = { RATE_LIMIT_SIGN_IN_EMAIL: '2/900', RATE_LIMIT_SIGN_IN_CLIENT: '2/900', RATE_LIMIT_SIGN_IN_PAIR: '2/900' };
    const email = newEmail();
    await signedInUser(new Browser(), email);
    const token = await linkToken(email, 'verify');
    const guesser = new Browser(undefined, limits, '203.0.113.9');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await guesser.post('/account/verify-email', { token, password: `guess number ${i}` })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect((await userRow(email))!.email_verified).toBeNull();
  });

  it('from the browser that signed up, the password stays; every other session ends', async () => {
    const email = newEmail();
    const browser = new Browser();
    const userId = await signedInUser(browser, email);
    const otherDevice = new Browser();
    expect((await otherDevice.post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);

    const verified = await browser.post('/account/verify-email', { token: await linkToken(email, 'verify') });
    expect(verified.status).toBe(200);
    expect((await browser.session()).user).toMatchObject({ id: userId, emailVerified: true });
    expect((await otherDevice.session()).user).toBeNull();
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect(await addressConfirmedEmails(email)).toHaveLength(1);
  });

  it('with the sign-up password from another browser, the password stays, and the profile filled in before', async () => {
    const email = newEmail();
    const first = new Browser();
    await signedInUser(first, email);
    expect((await first.post('/account/profile', PLANTED_PROFILE)).status).toBe(200);
    const phone = new Browser();
    const verified = await phone.post('/account/verify-email', { token: await linkToken(email, 'verify'), password: PASSWORD });
    expect(verified.status).toBe(200);
    expect((await phone.session()).user?.emailVerified).toBe(true);
    expect((await (await phone.get('/account/profile')).json<{ profile: unknown }>()).profile).toMatchObject({
      name: PLANTED_PROFILE.name,
      address: PLANTED_PROFILE.address,
      notifications: PLANTED_PROFILE.notifications,
    });
    expect((await first.session()).user).toBeNull();
    expect((await new Browser().post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
  });

  it('a Google identity linked before the proof is unlinked', async () => {
    const email = newEmail();
    const browser = new Browser();
    const userId = await signedInUser(browser, email);
    // A link from before this rule (Google no longer links to an unproven account).
    await env.DB.prepare("insert into accounts (user_id, type, provider, provider_account_id) values (?, 'oidc', 'google', ?)")
      .bind(userId, `old-${userId}`)
      .run();
    const verified = await new Browser().post('/account/verify-email', {
      token: await linkToken(email, 'verify'),
      newPassword: VICTIM_PASSWORD,
    });
    expect(verified.status).toBe(200);
    expect(await googleAccounts(userId)).toBe(0);
  });
});

describe('the reset link of an unproven account', () => {
  it('ends the attacker’s password, session and Google link, and tells the owner', async () => {
    const email = newEmail('victim');
    const guest = await guestOrder(email);
    const { attacker, userId } = await attackerFirst(email);
    await env.DB.prepare("insert into accounts (user_id, type, provider, provider_account_id) values (?, 'oidc', 'google', ?)")
      .bind(userId, `attacker-${userId}`)
      .run();

    expect((await new Browser().post('/account/forgot-password', { email })).status).toBe(202);
    const reset = await new Browser().post('/account/reset-password', {
      token: await linkToken(email, 'reset'),
      password: VICTIM_PASSWORD,
    });
    expect(reset.status).toBe(200);

    await expectAttackerLockedOut(attacker, email);
    expect(await googleAccounts(userId)).toBe(0);
    expect(await sessionRows(userId)).toEqual([]);
    expect(await addressConfirmedEmails(email)).toHaveLength(1);
    const victim = new Browser();
    expect((await victim.post('/account/sign-in', { email, password: VICTIM_PASSWORD })).status).toBe(200);
    expect(await orderNumbers(victim)).toEqual([guest.order.number]);
  });

  it('of an account already proven: no second "address confirmed" e-mail; its Google links end, and its owner’s Google links again', async () => {
    const email = newEmail();
    const browser = new Browser();
    const userId = await signedInUser(browser, email);
    expect((await browser.post('/account/verify-email', { token: await linkToken(email, 'verify') })).status).toBe(200);
    await env.DB.prepare("insert into accounts (user_id, type, provider, provider_account_id) values (?, 'oidc', 'google', ?)")
      .bind(userId, `own-${userId}`)
      .run();
    await new Browser().post('/account/forgot-password', { email });
    const reset = await new Browser().post('/account/reset-password', {
      token: await linkToken(email, 'reset'),
      password: VICTIM_PASSWORD,
    });
    expect(reset.status).toBe(200);
    // A link a thief made while in would outlive their sessions: the reset ends every one.
    expect(await googleAccounts(userId)).toBe(0);
    expect(await addressConfirmedEmails(email)).toHaveLength(1);
    // The owner's Google account, of the same address, links again as it signs in.
    const owner = new Browser(undefined, STANDIN);
    await googleSignIn(owner, { email, verified: true });
    expect((await owner.session()).user?.id).toBe(userId);
    expect(await googleAccounts(userId)).toBe(1);
  });
});

describe('Google confirming the address', () => {
  it('takes over an unproven password account: the attacker’s password and session end', async () => {
    const email = newEmail('victim');
    const guest = await guestOrder(email);
    const { attacker, userId } = await attackerFirst(email);

    const victim = new Browser(undefined, STANDIN);
    const landed = await googleSignIn(victim, { email, verified: true });
    expect(landed.pathname).toBe('/profile');
    expect((await victim.session()).user).toMatchObject({ id: userId, emailVerified: true });
    expect(await orderNumbers(victim)).toEqual([guest.order.number]);

    await expectAttackerLockedOut(attacker, email);
    expect((await userRow(email))!.password_hash).toBeNull();
    expect(await googleAccounts(userId)).toBe(1);
    expect(await addressConfirmedEmails(email)).toHaveLength(1);
    expect(await sessionRows(userId)).toHaveLength(1);
  });

  it('an unverified Google address never signs in: not into an account, not into a new one', async () => {
    const email = newEmail('owner');
    const userId = await signedInUser(new Browser(), email);
    const attacker = new Browser(undefined, STANDIN);
    const landed = await googleSignIn(attacker, { email, verified: false, sub: 'attacker-google-id' });
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('error')).toBe('GoogleEmailNotVerified');
    expect((await attacker.session()).user).toBeNull();
    expect(await googleAccounts(userId)).toBe(0);

    // The other way round: Google, unverified, first; no account is made for the address.
    const first = newEmail('not-yet');
    const early = new Browser(undefined, STANDIN);
    const refused = await googleSignIn(early, { email: first, verified: false });
    expect(refused.searchParams.get('error')).toBe('GoogleEmailNotVerified');
    expect((await early.session()).user).toBeNull();
    expect(await userRow(first)).toBeNull();
  });
});

describe('Google linked while signed in', () => {
  it('to an unproven account made in someone else’s name: the attacker’s own Google account neither links nor proves it', async () => {
    const email = newEmail('victim');
    const guest = await guestOrder(email);
    const { attacker, userId } = await attackerFirst(email);
    // The attacker's live session, in a browser that can reach the stand-in.
    const signedIn = new Browser(undefined, STANDIN);
    for (const [name, value] of attacker.cookies) signedIn.cookies.set(name, value);
    const landed = await googleSignIn(signedIn, { email: newEmail('attacker'), verified: true });
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('error')).toBe('GoogleOtherAddress');
    expect(await googleAccounts(userId)).toBe(0);
    expect((await userRow(email))!.email_verified).toBeNull();
    expect((await signedIn.session()).user).toMatchObject({ id: userId, emailVerified: false });
    expect(await orderNumbers(signedIn)).toEqual([]);
    // The owner still proves the address and finds the order.
    const claimed = await new Browser().post('/account/verify-email', {
      token: await linkToken(email, 'verify'),
      newPassword: VICTIM_PASSWORD,
    });
    expect(claimed.status).toBe(200);
    const victim = new Browser();
    expect((await victim.post('/account/sign-in', { email, password: VICTIM_PASSWORD })).status).toBe(200);
    expect(await orderNumbers(victim)).toEqual([guest.order.number]);
  });

  it('to a proven account: a Google account of another address is refused, one of the same address links', async () => {
    const email = newEmail('owner');
    const browser = new Browser(undefined, STANDIN);
    const userId = await signedInUser(browser, email);
    expect((await browser.post('/account/verify-email', { token: await linkToken(email, 'verify') })).status).toBe(200);
    const other = await googleSignIn(browser, { email: newEmail('elsewhere'), verified: true });
    expect(other.searchParams.get('error')).toBe('GoogleOtherAddress');
    expect(await googleAccounts(userId)).toBe(0);
    await googleSignIn(browser, { email, verified: true });
    expect(await googleAccounts(userId)).toBe(1);
    expect((await browser.session()).user?.id).toBe(userId);
  });
});

describe('a session ended by the proof', () => {
  it('cannot link the attacker’s own Google identity to the account afterwards', async () => {
    const email = newEmail('victim');
    const { attacker, userId } = await attackerFirst(email);
    const claimed = await new Browser().post('/account/verify-email', {
      token: await linkToken(email, 'verify'),
      newPassword: VICTIM_PASSWORD,
    });
    expect(claimed.status).toBe(200);

    // The attacker's browser still holds its old (ended) cookie, and signs in with their own Google.
    const stale = new Browser(undefined, STANDIN);
    for (const [name, value] of attacker.cookies) stale.cookies.set(name, value);
    const theirs = newEmail('attacker');
    await googleSignIn(stale, { email: theirs, verified: true });
    expect((await stale.session()).user?.email).toBe(theirs);
    expect(await googleAccounts(userId)).toBe(0);
    expect(await orderNumbers(stale)).toEqual([]);
  });
});

describe('an ended session cookie under a name Auth.js reads as one', () => {
  it.each([
    ['a space before its =', 'authjs.session-token '],
    ['a suffix', 'authjs.session-tokenX'],
    ['a chunk number', 'authjs.session-token.0'],
  ])('(%s) cannot link the attacker’s own Google identity to the account after a reset', async (_, name) => {
    const email = newEmail('victim');
    const owner = new Browser();
    const userId = await signedInUser(owner, email, VICTIM_PASSWORD);
    expect((await owner.post('/account/verify-email', { token: await linkToken(email, 'verify') })).status).toBe(200);
    const guest = await guestOrder(email);
    // The thief signs in with the owner's password and keeps the cookie; the owner then resets.
    const thief = new Browser();
    expect((await thief.post('/account/sign-in', { email, password: VICTIM_PASSWORD })).status).toBe(200);
    const stolen = thief.sessionCookie()!;
    expect((await new Browser().post('/account/forgot-password', { email })).status).toBe(202);
    const reset = await new Browser().post('/account/reset-password', {
      token: await linkToken(email, 'reset'),
      password: 'the owner’s new passphrase',
    });
    expect(reset.status).toBe(200);
    expect((await thief.session()).user).toBeNull();

    // The dead cookie, renamed, at the thief's own Google sign-in.
    const stale = new Browser(undefined, STANDIN);
    stale.cookies.set(name, stolen);
    const theirs = newEmail('thief');
    const landed = await googleSignIn(stale, { email: theirs, verified: true });
    expect(landed.pathname).toBe('/profile');
    stale.cookies.delete(name);
    expect((await stale.session()).user?.email).toBe(theirs);
    expect(await googleAccounts(userId)).toBe(0);
    expect(await orderNumbers(stale)).toEqual([]);
    // Their Google account, from a fresh browser, is theirs alone.
    const again = new Browser(undefined, STANDIN);
    await googleSignIn(again, { email: theirs, verified: true });
    expect((await again.session()).user?.email).toBe(theirs);
    expect(await orderNumbers(again)).not.toContain(guest.order.number);
  });
});

describe('signing up with an address that has an unproven account', () => {
  it('e-mails the address a way to claim it (a reset link), with the same answer as for a new address', async () => {
    const email = newEmail('victim');
    const { attacker } = await attackerFirst(email);
    const again = await new Browser().post('/account/sign-up', { email, password: VICTIM_PASSWORD });
    const fresh = await new Browser().post('/account/sign-up', { email: newEmail('new'), password: VICTIM_PASSWORD });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(await fresh.json());
    const claim = (await emailsTo(email)).at(-1)!;
    expect(claim.kind).toBe('account_signup_unclaimed');
    const reset = await new Browser().post('/account/reset-password', {
      token: await linkToken(email, 'reset'),
      password: VICTIM_PASSWORD,
    });
    expect(reset.status).toBe(200);
    await expectAttackerLockedOut(attacker, email);
  });
});
