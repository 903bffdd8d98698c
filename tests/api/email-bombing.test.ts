import { describe, expect, it } from 'vitest';
import { Browser, emailsTo, linkToken, newEmail, ORIGIN, PASSWORD, signedInUser } from './account-helpers.ts';

/**
 * Issue 20, finding 7: the account e-mails a stranger can make the store send (forgot password,
 * "someone tried to sign up with your address", a new verify link) were limited per client only,
 * so 30 clients sent one inbox 30 e-mails. They are now limited per recipient too
 * (RATE_LIMIT_EMAIL_RECIPIENT, functions/platform/rate-limit.ts allowEmailTo), whoever asks, and the
 * answers do not change past the limit, so they tell nothing either.
 */
const LIMIT = 3;
const VARS = { RATE_LIMIT_EMAIL_RECIPIENT: `${LIMIT}/3600` };

/** A browser on its own client address (cf-connecting-ip), as one of many attackers. */
const client = (i: number) => new Browser(ORIGIN, VARS, `198.51.100.${i + 1}`);

async function kinds(email: string) {
  return (await emailsTo(email)).map((e) => e.kind);
}

describe('e-mails a stranger can trigger are limited per recipient', () => {
  it('30 forgot-password requests from 30 clients queue at most the limit, with the same answer to each, and the last link sent still works', async () => {
    const email = newEmail('bombed');
    await new Browser(ORIGIN, VARS).post('/account/sign-up', { email, password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const response = await client(i).post('/account/forgot-password', { email });
        return `${response.status} ${await response.text()}`;
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^202 /);
    // The sign-up's verify e-mail was the first of the hour's account e-mails to this address.
    expect(await kinds(email)).toEqual(['account_verify', ...Array(LIMIT - 1).fill('account_password_reset')]);

    // Refused requests wrote no new link: the newest one e-mailed still resets the password.
    const token = await linkToken(email, 'reset');
    const reset = await new Browser(ORIGIN, VARS).post('/account/reset-password', { token, password: 'a brand new passphrase' });
    expect(reset.status, await reset.clone().text()).toBe(200);
  });

  it('an address with no account gets the same answers, before and past the limit', async () => {
    const email = newEmail('nobody');
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const response = await client(i).post('/account/forgot-password', { email });
        return `${response.status} ${await response.text()}`;
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(await kinds(email)).toEqual([]);
  });

  // 10, not 30: each sign-up hashes a password (PBKDF2, 100,000 rounds), and ten already send more
  // than three times the limit.
  it('10 sign-ups with an address that has an account tell its owner at most the limit of times', async () => {
    const email = newEmail('owner');
    const owner = new Browser(ORIGIN, VARS);
    await owner.post('/account/sign-up', { email, password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const response = await client(i).post('/account/sign-up', { email, password: `stranger password ${i}` });
        return `${response.status} ${await response.text()}`;
      }),
    );
    expect(new Set(answers).size).toBe(1);
    const all = await kinds(email);
    expect(all[0]).toBe('account_verify');
    expect(all.length).toBeGreaterThan(1);
    expect(all.length).toBeLessThanOrEqual(LIMIT);
  });

  it(`sign-ups with new spellings of one mailbox ("+tag", Gmail's dots) from many clients send it at most the limit of verify links`, async () => {
    const mailbox = `bomb${crypto.randomUUID().slice(0, 6)}`;
    const spellings = [
      `${mailbox}@gmail.com`,
      ...Array.from({ length: 5 }, (_, i) =>
        i % 2 ? `${mailbox}+${i}@gmail.com` : `${mailbox.slice(0, 2)}.${mailbox.slice(2)}+${i}@googlemail.com`,
      ),
    ];
    const answers = await Promise.all(
      spellings.map(async (email, i) => {
        const response = await client(i).post('/account/sign-up', { email, password: PASSWORD });
        return response.status;
      }),
    );
    expect(answers).toEqual(spellings.map(() => 202));
    const sent = (await Promise.all(spellings.map((email) => kinds(email)))).flat();
    expect(sent).toEqual(Array(LIMIT).fill('account_verify'));
  });

  it('a session changing the password in a loop tells the address at most the limit of times', async () => {
    const browser = new Browser(ORIGIN, VARS);
    const email = newEmail('changes');
    await signedInUser(browser, email);
    for (let i = 0; i < LIMIT + 3; i++) {
      const changed = await browser.post('/account/password', { currentPassword: PASSWORD, newPassword: PASSWORD });
      expect(changed.status, await changed.clone().text()).toBe(200);
    }
    // Security notices have a count of their own: the limit of them, after the sign-up's verify e-mail.
    expect(await kinds(email)).toEqual(['account_verify', ...Array(LIMIT).fill('account_password_changed')]);
  });

  it('strangers filling the address’s account e-mails cannot silence the "password changed" notice', async () => {
    const browser = new Browser(ORIGIN, VARS);
    const email = newEmail('silenced');
    await signedInUser(browser, email);
    // The sign-up's verify e-mail and two reset links: the hour's account e-mails to the address.
    for (let i = 0; i < LIMIT - 1; i++) expect((await client(i).post('/account/forgot-password', { email })).status).toBe(202);
    const changed = await browser.post('/account/password', { currentPassword: PASSWORD, newPassword: 'a thief chose this one' });
    expect(changed.status).toBe(200);
    expect(await kinds(email)).toEqual([
      'account_verify',
      ...Array(LIMIT - 1).fill('account_password_reset'),
      'account_password_changed',
    ]);
  });

  it('a signed-in account asking again and again for a verify link is told to use the newest one', async () => {
    const browser = new Browser(ORIGIN, VARS);
    const email = newEmail('resend');
    await signedInUser(browser, email);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await browser.post('/account/verify-email/resend', {})).status);
    // The sign-up's own link was the first of the hour's account e-mails to this address.
    expect(statuses).toEqual([...Array(LIMIT - 1).fill(200), 429, 429, 429]);
    const refused = await browser.post('/account/verify-email/resend', {});
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.message).toMatch(/newest one/);
    expect((await kinds(email)).filter((k) => k === 'account_verify')).toHaveLength(LIMIT);
  });
});
