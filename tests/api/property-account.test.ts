import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { accountApi } from '../../src/features/account/account-api.ts';
import { Browser, linkToken, newEmail, ORIGIN, PASSWORD, signedInUser } from './account-helpers.ts';
import { attemptHolds, everyAnswerHolds, key, MUTATING } from './hostile.ts';
import { customer, orderRequest, PS5, setStock } from './orders-helpers.ts';

/**
 * The accounts API under random and hostile requests (tests/api/hostile.ts): sign-up, sign-in,
 * the links from e-mails, and what a signed-in customer may change. Never a 5xx, every refusal
 * in the error shape, nothing written by a refused request.
 */

const guest = () => new Browser(ORIGIN, {}, `203.0.113.${Math.floor(Math.random() * 250) + 1}`);

/** A new customer, signed in, in a browser of their own. */
async function customerBrowser(email = newEmail('customer')) {
  const browser = new Browser();
  await signedInUser(browser, email);
  return { browser, email };
}

/** One signed-in customer for the endpoints that change nothing a later run depends on. */
let shared: Promise<{ browser: Browser; email: string }> | undefined;
const sharedCustomer = async () => {
  shared ??= customerBrowser();
  return (await shared).browser;
};

describe('hostile requests to the accounts API', () => {
  it('every write of the accounts API has a property below', () => {
    const covered = [
      accountApi.signUp,
      accountApi.signIn,
      accountApi.signOut,
      accountApi.signOutOthers,
      accountApi.signOutAll,
      accountApi.endSession,
      accountApi.verifyEmail,
      accountApi.resendVerification,
      accountApi.forgotPassword,
      accountApi.checkResetLink,
      accountApi.resetPassword,
      accountApi.updateProfile,
      accountApi.changePassword,
      accountApi.saveReview,
    ];
    expect(
      MUTATING.filter((e) => e.path.startsWith('/api/account/'))
        .map(key)
        .sort(),
    ).toEqual(covered.map(key).sort());
  });

  it('POST /api/account/sign-up', () =>
    everyAnswerHolds(
      accountApi.signUp,
      guest,
      () => ({ body: { email: newEmail('sign-up'), password: PASSWORD, name: 'Ada Obi' } }),
      25,
    ));

  it('POST /api/account/sign-in', async () => {
    const email = newEmail('sign-in');
    await signedInUser(new Browser(), email);
    await everyAnswerHolds(accountApi.signIn, guest, () => ({ body: { email, password: PASSWORD } }), 25);
  });

  it('POST /api/account/sign-out', () =>
    everyAnswerHolds(
      accountApi.signOut,
      async () => (await customerBrowser()).browser,
      () => ({}),
      8,
    ));

  it('POST /api/account/sign-out-others', () => everyAnswerHolds(accountApi.signOutOthers, sharedCustomer, () => ({}), 15));

  it('POST /api/account/sign-out-all', () =>
    everyAnswerHolds(
      accountApi.signOutAll,
      async () => (await customerBrowser()).browser,
      () => ({}),
      8,
    ));

  it('POST /api/account/sessions/:id/sign-out', () => {
    // Ends one of the customer's other sessions: a second sign-in of the same account.
    let browser: Browser;
    return everyAnswerHolds(
      accountApi.endSession,
      () => browser,
      async () => {
        const signedIn = await customerBrowser();
        browser = signedIn.browser;
        const email = signedIn.email;
        const other = new Browser();
        expect((await other.post('/account/sign-in', { email, password: PASSWORD })).status).toBe(200);
        const { sessions } = (await (await browser.get('/account/sessions')).json()) as {
          sessions: { id: string; current: boolean }[];
        };
        return { params: { id: sessions.find((s) => !s.current)!.id } };
      },
      12,
    );
  });

  it('POST /api/account/verify-email', () => {
    return everyAnswerHolds(
      accountApi.verifyEmail,
      guest,
      async () => {
        const owner = newEmail('verify');
        const up = await guest().post('/account/sign-up', { email: owner, password: PASSWORD });
        expect(up.status).toBe(202);
        // The link and the password of whoever signed up (the proof the link now asks for).
        return { body: { token: await linkToken(owner, 'verify'), password: PASSWORD } };
      },
      20,
    );
  });

  it('POST /api/account/verify-email/resend', () =>
    everyAnswerHolds(accountApi.resendVerification, sharedCustomer, () => ({}), 15));

  it('POST /api/account/forgot-password', async () => {
    const { email } = await customerBrowser();
    await everyAnswerHolds(accountApi.forgotPassword, guest, () => ({ body: { email } }), 25);
  });

  it('POST /api/account/reset-password/check', async () => {
    const { email } = await customerBrowser();
    expect((await guest().post('/account/forgot-password', { email })).status).toBe(202);
    const token = await linkToken(email, 'reset');
    await everyAnswerHolds(accountApi.checkResetLink, guest, () => ({ body: { token } }), 20);
  });

  it('POST /api/account/reset-password', async () => {
    const { email } = await customerBrowser();
    await everyAnswerHolds(
      accountApi.resetPassword,
      guest,
      async () => {
        expect((await guest().post('/account/forgot-password', { email })).status).toBe(202);
        return { body: { token: await linkToken(email, 'reset'), password: `new passphrase ${crypto.randomUUID()}` } };
      },
      20,
    );
  });

  it('POST /api/account/profile', () =>
    everyAnswerHolds(accountApi.updateProfile, sharedCustomer, () => ({
      body: {
        name: customer.name,
        phone: customer.phone,
        address: customer.address,
        city: customer.city,
        state: 'Lagos',
        notifications: { orderUpdates: false, promotions: true },
        theme: 'light',
      },
    })));

  it('POST /api/account/password', () => {
    // A valid run changes the password: each run has a customer of its own.
    let browser: Browser;
    return everyAnswerHolds(
      accountApi.changePassword,
      () => browser,
      async () => {
        browser = (await customerBrowser()).browser;
        return { body: { currentPassword: PASSWORD, newPassword: 'another long passphrase' } };
      },
      10,
    );
  });

  it('POST /api/account/reviews', async () => {
    await setStock(PS5.id, 1_000, PS5.variant);
    const { browser, email } = await customerBrowser();
    const placed = await browser.post('/orders', { ...orderRequest(), customer: { ...customer, email } });
    expect(placed.status, await placed.clone().text()).toBe(201);
    await env.DB.prepare("update orders set status = 'delivered' where user_id = (select id from users where email = ?)")
      .bind(email)
      .run();
    await everyAnswerHolds(
      accountApi.saveReview,
      () => browser,
      () => ({ body: { productId: PS5.id, rating: 4, comment: 'Good console' } }),
    );
  });

  it('the checks catch a 5xx: a server without its sign-in secret answers 500 and the check fails', async () => {
    // The harness must be able to fail: Auth.js's routes answer 500 without AUTH_SECRET.
    const broken = new Browser(ORIGIN, { AUTH_SECRET: '' });
    await expect(
      attemptHolds(broken, accountApi.signOut, {
        method: 'POST',
        url: '/api/auth/signout',
        body: { text: '', contentType: 'application/x-www-form-urlencoded' },
      }),
    ).rejects.toThrow(/a 5xx answer/);
  });
});
